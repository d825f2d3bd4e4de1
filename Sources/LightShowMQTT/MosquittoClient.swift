import CMosquitto
import LightShowCore

/// One libmosquitto client (`struct mosquitto *`), freed in deinit. Used only on the thread that made it (the
/// connection's thread): libmosquitto runs its callbacks inside `loopRead` and friends, on the caller's thread, so
/// `onConnect`, `onDisconnect` and `onMessage` run there too and never race the rest of that thread's work.
final class MosquittoClient {
    let library: MosquittoLibrary
    private let handle: OpaquePointer

    /// The broker's CONNACK code: 0 is accepted.
    var onConnect: (Int32) -> Void = { _ in }
    /// 0 after our own `disconnect()`, anything else for a lost connection.
    var onDisconnect: (Int32) -> Void = { _ in }
    /// A message on a subscribed topic, its payload valid only during the call.
    var onMessage: (String, UnsafeRawBufferPointer) -> Void = { _, _ in }

    /// A clean-session client named `clientID`.
    init(library: MosquittoLibrary, clientID: String) throws(LightShowError) {
        self.library = library
        guard let handle = library.mosquitto_new(clientID, true, nil) else {
            throw LightShowError("MQTT: cannot create a client (out of memory or a bad client id)", exitStatus: .ioError)
        }
        self.handle = handle
        // The client reaches itself through libmosquitto's user pointer, set once self is whole. Unretained:
        // callbacks come only from calls made on this object, so it is alive for each of them.
        library.mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        setCallbacks()
    }

    deinit {
        library.mosquitto_destroy(handle)
    }

    private func setCallbacks() {
        library.mosquitto_connect_callback_set(handle) { _, user, code in
            MosquittoClient.from(user)?.onConnect(code)
        }
        library.mosquitto_disconnect_callback_set(handle) { _, user, code in
            MosquittoClient.from(user)?.onDisconnect(code)
        }
        library.mosquitto_message_callback_set(handle) { _, user, message in
            guard let client = MosquittoClient.from(user), let message = message?.pointee, let topic = message.topic else { return }
            let count = max(0, Int(message.payloadlen))
            client.onMessage(String(cString: topic), UnsafeRawBufferPointer(start: count > 0 ? message.payload : nil, count: count))
        }
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> MosquittoClient? {
        user.map { Unmanaged<MosquittoClient>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: - Set-up (before connecting)

    func setCredentials(username: String, password: String?) throws(LightShowError) {
        try check(library.mosquitto_username_pw_set(handle, username, password), "setting the user name")
    }

    /// What the broker publishes for us if the connection dies without a DISCONNECT.
    func setWill(topic: String, payload: [UInt8], retain: Bool) throws(LightShowError) {
        let code = payload.withUnsafeBytes { bytes in
            library.mosquitto_will_set(handle, topic, Int32(clamping: bytes.count), bytes.baseAddress, 1, retain)
        }
        try check(code, "setting the last will")
    }

    /// TLS with `caFile`, or with the system's certificate directory when it is empty.
    func enableTLS(caFile: String) throws(LightShowError) {
        let code = caFile.isEmpty
            ? library.mosquitto_tls_set(handle, nil, "/etc/ssl/certs", nil, nil, nil)
            : library.mosquitto_tls_set(handle, caFile, nil, nil, nil, nil)
        try check(code, "setting up TLS with \(caFile.isEmpty ? "/etc/ssl/certs" : caFile)")
    }

    // MARK: - The connection

    /// Resolves `host` and opens the TCP connection (blocking), then sends CONNECT; CONNACK arrives through
    /// `loopRead` and `onConnect`. Returns libmosquitto's code: 0 on success.
    func connect(host: String, port: Int, keepAliveSeconds: Int) -> Int32 {
        library.mosquitto_connect(handle, host, Int32(clamping: port), Int32(clamping: keepAliveSeconds))
    }

    func reconnect() -> Int32 { library.mosquitto_reconnect(handle) }
    func disconnect() -> Int32 { library.mosquitto_disconnect(handle) }

    /// The connection's socket, -1 while there is none.
    var socket: Int32 { library.mosquitto_socket(handle) }
    var wantsWrite: Bool { library.mosquitto_want_write(handle) }
    func loopRead() -> Int32 { library.mosquitto_loop_read(handle, 1) }
    func loopWrite() -> Int32 { library.mosquitto_loop_write(handle, 1) }
    /// Keep-alive pings and retries; due about once a second.
    func loopMisc() -> Int32 { library.mosquitto_loop_misc(handle) }

    /// Queues one message at QoS 0 (written now if the socket takes it, otherwise by `loopWrite`).
    func publish(topic: String, payload: [UInt8], retain: Bool) -> Int32 {
        payload.withUnsafeBytes { bytes in
            library.mosquitto_publish(handle, nil, topic, Int32(clamping: bytes.count), bytes.baseAddress, 0, retain)
        }
    }

    func subscribe(_ pattern: String) -> Int32 {
        library.mosquitto_subscribe(handle, nil, pattern, 0)
    }

    private func check(_ code: Int32, _ doing: String) throws(LightShowError) {
        guard code != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw LightShowError("MQTT: \(doing) failed: \(library.describe(code))", exitStatus: .config)
    }
}
