#if canImport(Glibc)
import Glibc
#endif
public import LightShowCore
import LightShowSystem
public import LightShowRender
import Synchronization

/// The `watch` screen. New frames are drawn on the thread that made them (the feed's), the moment the feed
/// announces them, so showing a frame wakes no second thread. The write there waits for the terminal at most
/// half a frame; whatever it didn't take is finished by the viewer's own thread. That thread sleeps in one `poll`
/// on keys, signals, `wake` (a frame that found the screen busy) and `fallback` (the deadline of a frame
/// `DrawPacer` held back). A frame is composed only when the scene or overlays changed, and sent as the
/// encoder's changed cells in one write.
/// `run` owns the viewer thread; `screen` guards what both threads touch.
public final class TerminalViewer: @unchecked Sendable {
    public enum Outcome: Equatable, Sendable {
        case quit
        /// The feed failed for good (`TerminalSession.stopViewing`); the caller reports why.
        case feedFailed
        /// SIGINT, SIGTERM or SIGHUP: the caller dies by it after the terminal is restored.
        case signal(Int32)
    }

    public struct Options: Sendable {
        public var framesPerSecond: Double
        public var depth: TerminalColorDepth
        public var style: Scene.Style
        public var showHelp: Bool
        /// The terminal erases to the current background (terminfo `bce`): runs of blank cells go as erases.
        public var erasesRuns: Bool

        public init(framesPerSecond: Double, depth: TerminalColorDepth, style: Scene.Style, showHelp: Bool, erasesRuns: Bool = false) {
            self.framesPerSecond = framesPerSecond
            self.depth = depth
            self.style = style
            self.showHelp = showHelp
            self.erasesRuns = erasesRuns
        }
    }

    private let session: TerminalSession
    private let feed: any ShowFeed
    private let options: Options
    /// Rings the viewer thread: a frame that found the screen busy, or a frame's tail to finish.
    /// Rung when a frame the feed's thread could not draw waits for the viewer thread.
    private let wake: WakeSignal
    /// When the viewer thread must draw a frame the pacer held back, unless a newer one is drawn first.
    private let fallback: DeadlineTimer
    /// How long a draw waits for the terminal to take a frame's last parts before leaving them to the viewer
    /// thread: half a frame, at most 10 ms, far inside what capture buffers hold, so a slow terminal costs no
    /// audio.
    private let writePatience: UInt64

    /// Held by whichever thread draws; the fields below are touched only under it.
    private let screen = Mutex<Void>(())
    private let composer = TerminalSceneComposer()
    private var encoder: TerminalEncoder
    private var output: [UInt8] = []
    private var size: TerminalSize
    public private(set) var controls: ViewerControls
    /// What was drawn last, to skip frames that would change nothing.
    private var lastScene: Scene?
    private var lastOverlays: TerminalOverlays?
    /// The feed's band ranges last taken into the tuning panel.
    private var adoptedBands: BandsSettings?
    private var lastTooSmall: TerminalSize?
    /// Frames come on the audio's schedule and are drawn as they come, except as `DrawPacer` says.
    private var pacer: DrawPacer
    /// Where `fallback` is set, if it is.
    private var fallbackDeadline: UInt64?
    /// Whether the screen is ours to draw on: not before entering, after leaving, or while suspended.
    private var isShowing = false
    /// When a frame last went out exactly, every cell that differs at all.
    private var lastExactFrame: UInt64 = 0
    static let exactFrameInterval: UInt64 = 1_000_000_000
    /// The part of a frame the terminal didn't take at once. Until the viewer thread has written it, nothing
    /// else is drawn, so frames reach the terminal whole and in order.
    private var unsent: [UInt8] = []

    public init(session: TerminalSession, feed: any ShowFeed, options: Options) throws(LightShowError) {
        self.session = session
        self.feed = feed
        self.options = options
        do {
            wake = try WakeSignal()
        } catch {
            throw LightShowError("cannot create the viewer's wake-up: \(error)", exitStatus: .ioError)
        }
        fallback = try DeadlineTimer()
        encoder = TerminalEncoder(erasesRuns: options.erasesRuns)
        pacer = DrawPacer(framesPerSecond: options.framesPerSecond)
        writePatience = min(10_000_000, UInt64(0.5e9 / max(1, options.framesPerSecond)))
        controls = ViewerControls(bands: options.style.bands, showHelp: options.showHelp)
        size = session.size()
    }

    /// Runs until q or a terminating signal; the terminal is restored, and the signals have their default
    /// dispositions again (nobody reads the pipe any more), before it returns.
    public func run() -> Outcome {
        // Threads started from Swift's pool inherit its blocked signals; this one stops and dies by them.
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in TerminalSignals.forwarded { sigaddset(&signals, number) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        session.enter()
        present { isShowing = true }
        feed.frames.listen { [weak self] in self?.framesArrived() }
        defer {
            feed.frames.listen(nil)
            hide()
            session.leave()
            session.stopForwardingSignals()
        }
        var descriptors = [
            pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
            pollfd(fd: session.signalDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: fallback.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            for index in descriptors.indices { descriptors[index].revents = 0 }
            // Nothing to do: sleep until a ring, a held frame's deadline, a key or a signal. Signals a write has
            // already taken from the pipe are handled without sleeping.
            let ready = Poll.wait(&descriptors, count: descriptors.count, timeout: session.hasPendingSignals ? .zero : nil)
            if ready < 0 { continue }
            if descriptors[1].revents != 0 || session.hasPendingSignals {
                for number in session.pendingSignals() {
                    if let outcome = handleSignal(number) { return outcome }
                }
            }
            if descriptors[0].revents != 0 {
                let bytes = session.readKeys()
                // End of input (the terminal went away): nothing can quit us any more, so stop.
                if bytes.isEmpty { return .signal(SIGHUP) }
                for key in KeyDecoder.decode(bytes) {
                    if handleKey(key) { return .quit }
                }
                present()
            }
            if descriptors[2].revents != 0 || descriptors[3].revents != 0 {
                // Take the ring and the deadline before drawing: what comes after them is a newer frame.
                wake.consume()
                fallback.consume()
                finishUnsent()
                present {
                    if fallbackDeadline != nil {
                        fallback.disarm()
                        fallbackDeadline = nil
                    }
                    pacer.drew(at: MonotonicClock.now())
                }
            }
        }
    }

    /// New frames, on the feed's thread. Drawn right here when the screen is free and the pacer allows; a frame
    /// the pacer holds back is left to `fallback` (setting it wakes nobody), and one that finds the screen busy
    /// rings the viewer thread. Never waits for the screen, and for the terminal no longer than `writePatience`.
    private func framesArrived() {
        let handled = screen.withLockIfAvailable { _ -> Bool in
            guard isShowing, unsent.isEmpty else { return false }
            switch pacer.offer(at: MonotonicClock.now()) {
            case .draw:
                drawFrame()
                if fallbackDeadline != nil {
                    fallback.disarm()
                    fallbackDeadline = nil
                }
                return unsent.isEmpty
            case .hold(until: let deadline), .wait(until: let deadline):
                if fallbackDeadline.map({ deadline < $0 }) ?? true {
                    fallback.arm(at: deadline)
                    fallbackDeadline = deadline
                }
                return true
            }
        }
        if handled != true { wake.signal() }
    }

    /// Draws on the viewer thread, after `change` to what is shown, and writes out whatever the terminal
    /// didn't take at once.
    private func present(_ change: () -> Void = {}) {
        finishUnsent()
        screen.withLock { _ in
            change()
            if isShowing { drawFrame() }
        }
        finishUnsent()
    }

    /// Stops all drawing and lets the last frame's tail out, before the terminal is handed back.
    private func hide() {
        screen.withLock { _ in isShowing = false }
        finishUnsent()
    }

    /// Writes a frame's tail on the viewer thread, where waiting for the terminal is fine. `unsent` stays set
    /// meanwhile, so the feed's thread draws nothing in between. A terminal that takes nothing for a while, or a
    /// signal that ends the viewer, gives up on the frame: then only a CAN (which ends the escape sequence the
    /// terminal was left in) waits to go, and the next frame is drawn in full.
    private func finishUnsent() {
        let tail = screen.withLock { _ in unsent }
        guard !tail.isEmpty else { return }
        let sent = session.write(tail)
        screen.withLock { _ in
            if sent {
                unsent = []
            } else {
                unsent = [0x18]
                forgetScreen()
            }
        }
    }

    /// Returns true to quit.
    private func handleKey(_ key: Key) -> Bool {
        // The feed's thread reads the controls while drawing.
        switch screen.withLock({ _ in controls.handle(key) }) {
        case .none: return false
        case .quit: return true
        case .command(let command): feed.send(command)
        case .bandsChanged(let bands): feed.updateBands(bands)
        }
        return false
    }

    private func handleSignal(_ number: Int32) -> Outcome? {
        switch number {
        case SIGWINCH:
            present { resized() }
        case SIGTSTP:
            hide()
            session.suspend()
            present {
                resized()
                isShowing = true
            }
        case SIGCONT:
            // Continued after a stop we didn't arrange (SIGSTOP): take the terminal back, which the shell has had
            // meanwhile (also after our own Ctrl-Z, where it is merely done twice).
            hide()
            session.reenter()
            present {
                resized()
                isShowing = true
            }
        case SIGINT, SIGTERM, SIGHUP:
            return .signal(number)
        case Int32(TerminalSignals.stopRequest):
            return .feedFailed
        default:
            break
        }
        return nil
    }

    /// Lays out again for the terminal's size now and forgets what the screen shows, so the next frame is drawn
    /// in full. Called with `screen` held.
    private func resized() {
        size = session.size()
        forgetScreen()
    }

    /// The next frame is drawn in full. Called with `screen` held.
    private func forgetScreen() {
        encoder.invalidate()
        lastScene = nil
        lastTooSmall = nil
    }

    /// Composes the newest frame and offers its changed cells to the terminal; what it doesn't take at once
    /// waits in `unsent`. While an earlier frame's tail waits there, draws nothing and rings the viewer thread to
    /// finish it and draw then. Called with `screen` held.
    private func drawFrame() {
        guard unsent.isEmpty else {
            wake.signal()
            return
        }
        let grid: TerminalGrid
        var settled = false
        if !TerminalSceneComposer.fits(columns: size.columns, rows: size.rows) {
            guard lastTooSmall != size else { return }
            lastTooSmall = size
            lastScene = nil
            grid = TerminalSceneComposer.tooSmall(columns: size.columns, rows: size.rows, depth: options.depth)
        } else {
            let frame = feed.latestFrame() ?? ShowFrame(index: 0, time: 0, levels: .zero, state: .stopped, title: "")
            var style = options.style
            if let remote = feed.sceneStyle {
                // The daemon's scene; its band ranges become the tuning panel's when they change there.
                style = remote
                if remote.bands != adoptedBands {
                    adoptedBands = remote.bands
                    controls.tuning.adopt(remote.bands)
                }
            }
            style.bands = controls.tuning.bands
            let scene = composer.scene(
                frame: frame, columns: size.columns, rows: size.rows, cellAspect: size.cellAspect, style: style
            )
            let overlays = controls.overlays
            if scene == lastScene && overlays == lastOverlays { return }
            lastScene = scene
            lastOverlays = overlays
            lastTooSmall = nil
            grid = composer.compose(scene, depth: options.depth, overlays: overlays)
            // Dark lights stay on screen until something changes: send every cell that differs at all, leaving no
            // ghost of the fade. Once a second the same, so no cell stays off its colour (within
            // `PerceptualTolerance`) for longer.
            let now = MonotonicClock.now()
            settled = frame.levels == .zero || now &- lastExactFrame >= Self.exactFrameInterval
            if settled { lastExactFrame = now }
        }
        output.removeAll(keepingCapacity: true)
        encoder.encode(grid, exactly: settled, into: &output)
        guard !output.isEmpty else { return }
        let written = output.withUnsafeBytes { session.output.write($0, patience: writePatience) }
        if written < output.count { unsent = Array(output[written...]) }
    }
}
