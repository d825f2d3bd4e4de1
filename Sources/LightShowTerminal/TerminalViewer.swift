#if canImport(Glibc)
import Glibc
#endif
public import LightShowCore
public import LightShowRender
import Synchronization

/// The `watch` screen. New frames are drawn on the thread that made them (the feed's), the moment the feed
/// announces them, so showing a frame wakes no second thread; the write there never waits, and whatever the
/// terminal doesn't take at once is finished by the viewer's own thread. That thread sleeps in one `poll` on
/// keys, signals and `wake`, which rings for a frame that found the screen busy or came in a burst (spread out
/// to the frame rate by `DrawPacer`). A frame is composed only when the scene or overlays changed, and
/// sent as the encoder's changed cells in one write.
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

        public init(framesPerSecond: Double, depth: TerminalColorDepth, style: Scene.Style, showHelp: Bool) {
            self.framesPerSecond = framesPerSecond
            self.depth = depth
            self.style = style
            self.showHelp = showHelp
        }
    }

    private let session: TerminalSession
    private let feed: any ShowFeed
    private let options: Options
    /// Rings the viewer thread: a frame to draw in its turn, or a frame's tail to finish.
    private let wake: FrameSignal
    private let terminal = TerminalOutput()
    /// How long a draw waits for the terminal to take a frame's last parts before leaving them to the viewer
    /// thread: half a frame, at most 10 ms, far inside what capture buffers hold, so a slow terminal costs no
    /// audio.
    private let writePatience: UInt64

    /// Held by whichever thread draws; the fields below are touched only under it.
    private let screen = Mutex<Void>(())
    private let composer = TerminalSceneComposer()
    private var encoder = TerminalEncoder()
    private var output: [UInt8] = []
    private var size: TerminalSize
    public private(set) var controls: ViewerControls
    /// What was drawn last, to skip frames that would change nothing.
    private var lastScene: Scene?
    private var lastOverlays: TerminalOverlays?
    private var lastTooSmall: TerminalSize?
    /// Frames come on the audio's schedule, drawn as they come; the pacer only spreads out a longer burst.
    private var pacer: DrawPacer
    /// Whether the screen is ours to draw on: not before entering, after leaving, or while suspended.
    private var isShowing = false
    /// The part of a frame the terminal didn't take at once. Until the viewer thread has written it, nothing
    /// else is drawn, so frames reach the terminal whole and in order.
    private var unsent: [UInt8] = []

    public init(session: TerminalSession, feed: any ShowFeed, options: Options) throws(LightShowError) {
        self.session = session
        self.feed = feed
        self.options = options
        wake = try FrameSignal()
        pacer = DrawPacer(framesPerSecond: options.framesPerSecond)
        writePatience = min(10_000_000, UInt64(0.5e9 / max(1, options.framesPerSecond)))
        controls = ViewerControls(bands: options.style.bands, showHelp: options.showHelp)
        size = session.size()
    }

    /// Runs until q or a terminating signal; the terminal is restored before it returns.
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
        }
        // A frame the pacer held back waits for its slot, its ring left unanswered until then.
        var deferredUntil: UInt64?
        var descriptors = [
            pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
            pollfd(fd: session.signalDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            descriptors[2].fd = deferredUntil == nil ? wake.descriptor : -1
            for index in descriptors.indices { descriptors[index].revents = 0 }
            // Nothing to do: sleep until a ring, a key or a signal comes (whole milliseconds, rounded up so a
            // deferred frame is never drawn early).
            let timeout: Int32 = deferredUntil.map { due -> Int32 in
                let now = MonotonicClock.now()
                return due > now ? Int32((due - now + 999_999) / 1_000_000) : 0
            } ?? -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 { continue }
            if descriptors[1].revents != 0 {
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
            if descriptors[2].revents != 0 {
                finishUnsent()
                deferredUntil = screen.withLock { _ in pacer.nextAllowed(at: MonotonicClock.now()) }
            }
            if let due = deferredUntil, MonotonicClock.now() >= due {
                deferredUntil = nil
                wake.consume()
                present { _ = pacer.take(at: MonotonicClock.now()) }
            }
        }
    }

    /// New frames, on the feed's thread. Drawn right here when the screen is free and the pacer allows;
    /// otherwise the viewer thread is rung to draw in its turn. Never waits for the screen, and for the terminal
    /// no longer than `writePatience`.
    private func framesArrived() {
        let finished = screen.withLockIfAvailable { _ -> Bool in
            guard isShowing, unsent.isEmpty, pacer.take(at: MonotonicClock.now()) else { return false }
            drawFrame()
            return unsent.isEmpty
        }
        if finished != true { wake.notify() }
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
    /// meanwhile, so the feed's thread draws nothing in between.
    private func finishUnsent() {
        let tail = screen.withLock { _ in unsent }
        guard !tail.isEmpty else { return }
        session.write(tail)
        screen.withLock { _ in unsent = [] }
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
            // Continued after a stop we didn't arrange (SIGSTOP): take the terminal back.
            hide()
            session.enter()
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
        encoder.invalidate()
        lastScene = nil
        lastTooSmall = nil
    }

    /// Composes the newest frame and offers its changed cells to the terminal; what it doesn't take at once
    /// waits in `unsent`. Called with `screen` held.
    private func drawFrame() {
        let grid: TerminalGrid
        if !TerminalSceneComposer.fits(columns: size.columns, rows: size.rows) {
            guard lastTooSmall != size else { return }
            lastTooSmall = size
            lastScene = nil
            grid = TerminalSceneComposer.tooSmall(columns: size.columns, rows: size.rows, depth: options.depth)
        } else {
            let frame = feed.latestFrame() ?? ShowFrame(index: 0, time: 0, levels: .zero, state: .stopped, title: "")
            var style = options.style
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
        }
        output.removeAll(keepingCapacity: true)
        encoder.encode(grid, into: &output)
        guard !output.isEmpty else { return }
        let written = output.withUnsafeBytes { terminal.write($0, patience: writePatience) }
        if written < output.count { unsent = Array(output[written...]) }
    }
}
