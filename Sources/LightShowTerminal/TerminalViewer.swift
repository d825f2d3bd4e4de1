#if canImport(Glibc)
import Glibc
#endif
public import LightShowCore
public import LightShowRender

/// The `watch` loop on its own thread: one `poll` waits for a key, a signal or a new frame (`FrameSignal`), so keys
/// act at once and the thread sleeps whenever nothing new is there to draw; a burst of frames is spaced out to the
/// frame rate. A frame is composed only when the scene or overlays changed, and sent as the encoder's changed
/// cells in one write.
/// Used by one thread at a time: handed to the viewer thread for `run`, read again only after it returns.
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
    private let composer = TerminalSceneComposer()
    private var encoder = TerminalEncoder()
    private var output: [UInt8] = []
    private var size: TerminalSize
    public private(set) var controls: ViewerControls
    /// What was drawn last, to skip frames that would change nothing.
    private var lastScene: Scene?
    private var lastOverlays: TerminalOverlays?
    private var lastTooSmall: TerminalSize?

    public init(session: TerminalSession, feed: any ShowFeed, options: Options) {
        self.session = session
        self.feed = feed
        self.options = options
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
        defer { session.leave() }
        let period = UInt64(1e9 / max(1, options.framesPerSecond))
        // Frames come on the audio's schedule; the cap only spaces out a burst, so it leaves room for jitter.
        let minimumGap = period * 3 / 4
        var lastDraw: UInt64 = 0
        // A frame that came too soon after the last waits for its slot, its signal left unread until then.
        var deferredUntil: UInt64?
        var descriptors = [
            pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
            pollfd(fd: session.signalDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: feed.frameSignal.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        drawFrame()
        while true {
            descriptors[2].fd = deferredUntil == nil ? feed.frameSignal.descriptor : -1
            for index in descriptors.indices { descriptors[index].revents = 0 }
            // Nothing to draw: sleep until a frame, a key or a signal comes (whole milliseconds, rounded up so
            // a deferred frame is never drawn early).
            let timeout: Int32 = deferredUntil.map { due -> Int32 in
                let now = Self.now()
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
                drawFrame()
            }
            let now = Self.now()
            if descriptors[2].revents != 0 {
                if now - lastDraw >= minimumGap { deferredUntil = now } else { deferredUntil = lastDraw + period }
            }
            if let due = deferredUntil, now >= due {
                deferredUntil = nil
                feed.frameSignal.consume()
                drawFrame()
                lastDraw = now
            }
        }
    }

    /// Returns true to quit.
    private func handleKey(_ key: Key) -> Bool {
        switch controls.handle(key) {
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
            size = session.size()
            redrawInFull()
        case SIGTSTP:
            session.suspend()
            size = session.size()
            redrawInFull()
        case SIGCONT:
            // Continued after a stop we didn't arrange (SIGSTOP): take the terminal back.
            session.enter()
            size = session.size()
            redrawInFull()
        case SIGINT, SIGTERM, SIGHUP:
            return .signal(number)
        case Int32(TerminalSignals.stopRequest):
            return .feedFailed
        default:
            break
        }
        return nil
    }

    private func redrawInFull() {
        encoder.invalidate()
        lastScene = nil
        lastTooSmall = nil
        drawFrame()
    }

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
        if !output.isEmpty { session.write(output) }
    }

    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
