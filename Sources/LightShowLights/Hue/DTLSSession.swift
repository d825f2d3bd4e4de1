#if canImport(Glibc)
import Glibc
#endif
import COpenSSL
import LightShowCore
import LightShowSystem

/// One DTLS 1.2 client connection with a pre-shared key (TLS_PSK_WITH_AES_128_GCM_SHA256), over a connected,
/// non-blocking UDP socket: what the Hue Entertainment API streams over. Owns its OpenSSL context, connection and
/// socket, freed in deinit (after a close_notify). Used by one thread at a time.
final class DTLSSession {
    private let library: OpenSSLLibrary
    private let socket: UDPSocket
    private let context: OpenSSLLibrary.Handle
    private let connection: OpenSSLLibrary.Handle
    /// The datagram BIO (owned by the connection once set): its byte count tells whether the peer answered at all.
    private let bio: OpenSSLLibrary.Handle
    /// The identity and key the PSK callback hands OpenSSL, reachable from the connection's ex_data slot 0.
    private let credentials: Unmanaged<PSKCredentials>
    private var established = false

    private final class PSKCredentials {
        let identity: [UInt8]
        let key: [UInt8]
        init(identity: [UInt8], key: [UInt8]) {
            self.identity = identity
            self.key = key
        }
    }

    /// A session to `destination` (not yet connected: see `handshake`).
    init(library: OpenSSLLibrary, destination: InternetAddress, identity: String, key: [UInt8]) throws(DTLSFailure) {
        self.library = library
        do {
            socket = try UDPSocket(family: destination.family)
            try socket.connect(to: destination)
        } catch {
            throw DTLSFailure(.unreachable, "\(error)")
        }
        guard let context = library.SSL_CTX_new(library.DTLS_client_method()) else {
            throw DTLSFailure(.setup, library.takeErrors() ?? "SSL_CTX_new failed")
        }
        self.context = context
        credentials = Unmanaged.passRetained(PSKCredentials(identity: Array(identity.utf8), key: key))
        _ = library.SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(DTLS1_2_VERSION), nil)
        _ = library.SSL_CTX_ctrl(context, SSL_CTRL_SET_MAX_PROTO_VERSION, Int(DTLS1_2_VERSION), nil)
        library.SSL_CTX_set_psk_client_callback(context, Self.pskCallback)
        guard library.SSL_CTX_set_cipher_list(context, "PSK-AES128-GCM-SHA256") == 1,
              let connection = library.SSL_new(context) else {
            let reason = library.takeErrors() ?? "SSL_new failed"
            library.SSL_CTX_free(context)
            credentials.release()
            throw DTLSFailure(.setup, reason)
        }
        self.connection = connection
        _ = library.SSL_set_ex_data(connection, 0, credentials.toOpaque())
        // The BIO borrows the descriptor (BIO_NOCLOSE): the socket closes it.
        guard let bio = library.BIO_new_dgram(socket.fd, BIO_NOCLOSE) else {
            let reason = library.takeErrors() ?? "BIO_new_dgram failed"
            library.SSL_free(connection)
            library.SSL_CTX_free(context)
            credentials.release()
            throw DTLSFailure(.setup, reason)
        }
        self.bio = bio
        destination.withSockaddr { address, _ in
            _ = library.BIO_ctrl(bio, BIO_CTRL_DGRAM_SET_CONNECTED, 0, UnsafeMutableRawPointer(mutating: address))
        }
        library.SSL_set_bio(connection, bio, bio)
    }

    deinit {
        if established { _ = library.SSL_shutdown(connection) }
        library.SSL_free(connection)
        library.SSL_CTX_free(context)
        credentials.release()
        library.ERR_clear_error()
    }

    /// Runs the handshake until it completes or `deadline` (monotonic nanoseconds) passes, retransmitting on
    /// DTLS's own timer while it waits.
    func handshake(until deadline: UInt64) throws(DTLSFailure) {
        while true {
            library.ERR_clear_error()
            let result = library.SSL_connect(connection)
            if result == 1 {
                established = true
                return
            }
            let code = library.SSL_get_error(connection, result)
            guard code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE else { throw failure(code: code, during: "handshake") }
            let now = MonotonicClock.now()
            guard now < deadline else {
                // DTLS drops records it can't decrypt without a word, so a wrong key shows as a peer that answered
                // our first flight and then never finished.
                if library.BIO_number_read(bio) > 0 {
                    throw DTLSFailure(.rejectedKey, "the handshake started but never finished, as when the keys differ")
                }
                throw DTLSFailure(.timedOut, "no answer")
            }
            var timer = timeval()
            let timed = library.SSL_ctrl(connection, DTLS_CTRL_GET_TIMEOUT, 0, &timer) > 0
            var until = deadline
            if timed {
                let nanoseconds = UInt64(max(0, timer.tv_sec)) * 1_000_000_000 + UInt64(max(0, timer.tv_usec)) * 1000
                until = min(deadline, now &+ nanoseconds)
            }
            var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            if Poll.wait(&descriptor, count: 1, until: until) == 0, timed {
                _ = library.SSL_ctrl(connection, DTLS_CTRL_HANDLE_TIMEOUT, 0, nil)
            }
        }
    }

    /// Sends one record. A full socket buffer drops it (`false`): the next frame replaces it anyway.
    @discardableResult
    func write(_ bytes: [UInt8]) throws(DTLSFailure) -> Bool {
        library.ERR_clear_error()
        let result = bytes.withUnsafeBytes { library.SSL_write(connection, $0.baseAddress, Int32(clamping: $0.count)) }
        if result > 0 { return true }
        let code = library.SSL_get_error(connection, result)
        if code == SSL_ERROR_WANT_WRITE || code == SSL_ERROR_WANT_READ { return false }
        throw failure(code: code, during: "send")
    }

    /// Reads what the peer sent without waiting (nothing, normally): throws when it closed the stream (an alert,
    /// close_notify) or the kernel reported it unreachable.
    func checkPeer() throws(DTLSFailure) {
        var buffer = [UInt8](repeating: 0, count: 512)
        for _ in 0..<4 {
            library.ERR_clear_error()
            let result = buffer.withUnsafeMutableBytes { library.SSL_read(connection, $0.baseAddress, Int32($0.count)) }
            if result > 0 { continue }
            let code = library.SSL_get_error(connection, result)
            if code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE { return }
            throw failure(code: code, during: "receive")
        }
    }

    private func failure(code: Int32, during step: String) -> DTLSFailure {
        let systemError = SystemCallError.current(step)
        let queued = library.takeErrors()
        switch code {
        case SSL_ERROR_ZERO_RETURN:
            return DTLSFailure(.closedByPeer, "the bridge closed the stream")
        case SSL_ERROR_SYSCALL where queued == nil:
            let reason = systemError.code == 0 ? "connection closed" : systemError.message
            return DTLSFailure(systemError.code == ECONNREFUSED ? .unreachable : .network, "\(step): \(reason)")
        default:
            let text = queued ?? "error \(code)"
            // A peer that can't decrypt our Finished (a wrong key) answers with one of these alerts.
            let keyAlerts = ["decrypt error", "bad record mac", "decryption failed", "unknown psk identity", "handshake failure"]
            let kind: DTLSFailure.Kind = keyAlerts.contains { text.contains($0) } ? .rejectedKey : .protocolError
            return DTLSFailure(kind, "\(step): \(text)")
        }
    }

    /// OpenSSL asks for the identity and key during the handshake: both come from the connection's credentials.
    private static let pskCallback: OpenSSLLibrary.PSKClientCallback = { connection, _, identity, maximumIdentity, key, maximumKey in
        guard let library = try? OpenSSLLibrary.load(), let identity, let key,
              let raw = library.SSL_get_ex_data(connection, 0) else { return 0 }
        let credentials = Unmanaged<PSKCredentials>.fromOpaque(raw).takeUnretainedValue()
        guard credentials.identity.count < Int(maximumIdentity), credentials.key.count <= Int(maximumKey) else { return 0 }
        for (offset, byte) in credentials.identity.enumerated() { identity[offset] = CChar(bitPattern: byte) }
        identity[credentials.identity.count] = 0
        for (offset, byte) in credentials.key.enumerated() { key[offset] = byte }
        return UInt32(credentials.key.count)
    }
}

/// Why a DTLS session failed, sorted by what the user (or the reconnect loop) should do about it.
struct DTLSFailure: Error, CustomStringConvertible {
    enum Kind: Sendable {
        /// Nothing answers at the address (ICMP port unreachable): the bridge is down or restarting.
        case unreachable
        /// No answer before the deadline.
        case timedOut
        /// The peer refused our key or identity: pairing again is the fix.
        case rejectedKey
        /// The peer ended the stream (close_notify).
        case closedByPeer
        case network
        case protocolError
        /// OpenSSL itself could not be set up.
        case setup
    }

    let kind: Kind
    let detail: String

    init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    var description: String { detail }
}
