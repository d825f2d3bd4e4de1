#if canImport(Glibc)
import Glibc
#endif
import LightShowCore
import LightShowSystem

/// One client of the control socket, owned by the event loop thread.
final class ControlConnection {
    /// Above this much unsent output the client is not read from until it catches up.
    static let outputHighWater = 256 * 1024

    let id: UInt64
    /// The socket's number, for poll; only while open.
    let fd: Int32
    private var socket: OwnedDescriptor?
    /// A child of this process (the web server) connected it: it counts against `maxChildClients`.
    let isChild: Bool
    var input: [UInt8] = []
    /// Skipping the rest of an oversized line, up to its newline.
    var discarding = false
    var output: [UInt8] = []
    var outputOffset = 0
    /// A request is with the handler; later lines wait so replies keep their order.
    var inFlight = false
    /// What a `subscribe` set up: the pace of frames and what this client has been sent.
    var subscription: ShowEventPacer?
    /// The client shut down its sending side: answer what it sent, then close.
    private(set) var inputEnded = false
    private(set) var isClosed = false

    /// When the client last made progress: connected, had a complete request handled, or took output. A client
    /// idle (or half-way through a line) for the server's idle time is closed; subscribers and requests in the
    /// handler's hands are exempt.
    var lastActivity: Double

    init(id: UInt64, socket: consuming OwnedDescriptor, isChild: Bool = false, now: Double) {
        self.id = id
        fd = socket.rawValue
        self.socket = consume socket
        self.isChild = isChild
        lastActivity = now
    }

    /// When this client is due to be closed for idling, or nil while it is exempt.
    func idleDeadline(after seconds: Double) -> Double? {
        subscription == nil && !inFlight ? lastActivity + seconds : nil
    }

    var pendingOutput: Int { output.count - outputOffset }

    /// Reads from the client only while it keeps up with its replies and its input backlog is bounded.
    func wantsInput(maxLineBytes: Int) -> Bool {
        !isClosed && !inputEnded && pendingOutput <= Self.outputHighWater && input.count <= 2 * maxLineBytes
    }

    /// Done once its input has ended and every reply it asked for has been written (a subscriber's stream
    /// goes on until it hangs up).
    var isFinished: Bool {
        inputEnded && subscription == nil && !inFlight && pendingOutput == 0 && !input.contains(UInt8(ascii: "\n"))
    }

    func enqueue(_ line: [UInt8]) {
        output += line
    }

    /// Reads what is available. Returns false on a socket error; end of input is noted, not an error,
    /// and a last line without its newline still counts.
    func readAvailable(chunk: inout [UInt8]) -> Bool {
        for _ in 0..<4 {  // bounded, so one busy client can't starve the others
            switch try? FileDescriptorIO.read(fd, into: &chunk) {
            case .bytes(let count):
                input += chunk[0..<count]
                if count < chunk.count { return true }
            case .endOfFile:
                inputEnded = true
                if !input.isEmpty && input.last != UInt8(ascii: "\n") { input.append(UInt8(ascii: "\n")) }
                return true
            case .wouldBlock:
                return true
            case nil:
                return false
            }
        }
        return true
    }

    /// Writes as much pending output as the socket takes. Returns false once the client is gone.
    func flush() -> Bool {
        while outputOffset < output.count {
            let outcome = output.withUnsafeBytes { raw in
                try? FileDescriptorIO.writeSome(fd, UnsafeRawBufferPointer(rebasing: raw[outputOffset...]), kind: .socket)
            }
            guard case .wrote(let count) = outcome else { return outcome == .wouldBlock }
            outputOffset += count
            lastActivity = MonotonicClock.seconds()
        }
        output.removeAll(keepingCapacity: output.capacity <= 1 << 20)
        outputOffset = 0
        return true
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        socket = nil
    }
}
