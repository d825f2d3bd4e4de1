import Foundation
import LightShowCore
import LightShowSystem

/// A UDP socket on 127.0.0.1 (a port the kernel picks) that collects datagrams with their arrival time:
/// the DDP receiver the tests read, since WLED has no Debian package.
public final class UDPReceiver: @unchecked Sendable {
    public struct Datagram: Sendable {
        public var bytes: [UInt8]
        /// CLOCK_MONOTONIC nanoseconds at arrival.
        public var time: UInt64
    }

    public let port: Int
    private let socket: UDPSocket
    private var received: [Datagram] = []

    public init() throws {
        socket = try UDPSocket(family: AF_INET)
        try socket.bind(to: InternetAddress(ipv4: "127.0.0.1", port: 0)!)
        port = Int(try socket.localAddress().description.split(separator: ":").last.flatMap { Int($0) } ?? 0)
    }

    /// Every datagram so far, once `condition` holds for them or `timeout` seconds pass.
    @discardableResult
    public func collect(timeout: Double, until condition: ([Datagram]) -> Bool = { _ in false }) -> [Datagram] {
        let deadline = MonotonicClock.now() + UInt64(timeout * 1e9)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            // Whatever is queued counts, even with no time left to wait.
            while let count = buffer.withUnsafeMutableBytes({ try? socket.receive(into: $0) }) ?? nil {
                received.append(Datagram(bytes: Array(buffer.prefix(count)), time: MonotonicClock.now()))
            }
            let now = MonotonicClock.now()
            guard !condition(received), now < deadline else { return received }
            var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            _ = Poll.wait(&descriptor, count: 1, timeout: .nanoseconds(Int64(deadline - now)))
        }
    }

    /// Forgets what arrived so far.
    public func reset() {
        received.removeAll()
    }
}

/// A parsed DDP packet: the header fields and the data they describe.
public struct DDPDatagram: Equatable {
    public var push: Bool
    public var sequence: UInt8
    public var dataType: UInt8
    public var destination: UInt8
    public var offset: Int
    public var data: [UInt8]

    /// Nil unless the header is version 1 and its length matches the data that follows.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 10, bytes[0] & 0xC0 == 0x40 else { return nil }
        let length = Int(bytes[8]) << 8 | Int(bytes[9])
        guard bytes.count == 10 + length else { return nil }
        push = bytes[0] & 0x01 != 0
        sequence = bytes[1] & 0x0F
        dataType = bytes[2]
        destination = bytes[3]
        offset = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
        data = Array(bytes[10...])
    }
}

/// DDP frames (packets up to and including one with PUSH), each put together as the controller's buffer would be.
public func ddpFrames(_ datagrams: [UDPReceiver.Datagram]) -> [(pixels: [Int: [UInt8]], sequence: UInt8, packets: Int, time: UInt64)] {
    var frames: [(pixels: [Int: [UInt8]], sequence: UInt8, packets: Int, time: UInt64)] = []
    var pixels: [Int: [UInt8]] = [:]
    var packets = 0
    for datagram in datagrams {
        guard let packet = DDPDatagram(datagram.bytes) else { continue }
        packets += 1
        for index in stride(from: 0, to: packet.data.count - 2, by: 3) {
            pixels[(packet.offset + index) / 3] = Array(packet.data[index..<index + 3])
        }
        if packet.push {
            frames.append((pixels, packet.sequence, packets, datagram.time))
            pixels = [:]
            packets = 0
        }
    }
    return frames
}
