import CMosquitto
import LightShowCore
import LightShowSystem

/// libmosquitto, opened the first time MQTT is switched on rather than linked: a lightshow without `[mqtt] broker`
/// neither loads nor needs it (a box without libmosquitto1 runs everything else). CMosquitto provides the types and
/// constants; the functions come from here.
struct MosquittoLibrary: Sendable {
    static let soname = "libmosquitto.so.1"

    /// Opened and initialised once, on first use; the outcome is kept, so a missing library reads the same each time.
    private static let shared = DynamicLibrary.opened(soname, package: "libmosquitto1", neededBy: "MQTT") {
        library throws(DynamicLibraryError) in
        let mosquitto = try MosquittoLibrary(library)
        _ = mosquitto.mosquitto_lib_init()
        return mosquitto
    }

    /// The open library, or why it can't be opened.
    static func load() throws(LightShowError) -> MosquittoLibrary {
        try shared.get()
    }

    typealias Handle = OpaquePointer
    typealias ConnectCallback = @convention(c) (Handle?, UnsafeMutableRawPointer?, Int32) -> Void
    typealias MessageCallback = @convention(c) (Handle?, UnsafeMutableRawPointer?, UnsafePointer<mosquitto_message>?) -> Void
    typealias PasswordCallback = @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32

    let mosquitto_lib_init: @convention(c) () -> Int32
    let mosquitto_new: @convention(c) (UnsafePointer<CChar>?, Bool, UnsafeMutableRawPointer?) -> Handle?
    let mosquitto_destroy: @convention(c) (Handle?) -> Void
    let mosquitto_user_data_set: @convention(c) (Handle?, UnsafeMutableRawPointer?) -> Void
    let mosquitto_username_pw_set: @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let mosquitto_will_set: @convention(c) (Handle?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool) -> Int32
    let mosquitto_tls_set: @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, PasswordCallback?) -> Int32
    let mosquitto_connect: @convention(c) (Handle?, UnsafePointer<CChar>?, Int32, Int32) -> Int32
    let mosquitto_reconnect: @convention(c) (Handle?) -> Int32
    let mosquitto_disconnect: @convention(c) (Handle?) -> Int32
    let mosquitto_publish: @convention(c) (Handle?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool) -> Int32
    let mosquitto_subscribe: @convention(c) (Handle?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32) -> Int32
    let mosquitto_loop_read: @convention(c) (Handle?, Int32) -> Int32
    let mosquitto_loop_write: @convention(c) (Handle?, Int32) -> Int32
    let mosquitto_loop_misc: @convention(c) (Handle?) -> Int32
    let mosquitto_socket: @convention(c) (Handle?) -> Int32
    let mosquitto_want_write: @convention(c) (Handle?) -> Bool
    let mosquitto_connect_callback_set: @convention(c) (Handle?, ConnectCallback?) -> Void
    let mosquitto_disconnect_callback_set: @convention(c) (Handle?, ConnectCallback?) -> Void
    let mosquitto_message_callback_set: @convention(c) (Handle?, MessageCallback?) -> Void
    let mosquitto_strerror: @convention(c) (Int32) -> UnsafePointer<CChar>?
    let mosquitto_connack_string: @convention(c) (Int32) -> UnsafePointer<CChar>?

    private init(_ library: DynamicLibrary) throws(DynamicLibraryError) {
        mosquitto_lib_init = try library.function("mosquitto_lib_init")
        mosquitto_new = try library.function("mosquitto_new")
        mosquitto_destroy = try library.function("mosquitto_destroy")
        mosquitto_user_data_set = try library.function("mosquitto_user_data_set")
        mosquitto_username_pw_set = try library.function("mosquitto_username_pw_set")
        mosquitto_will_set = try library.function("mosquitto_will_set")
        mosquitto_tls_set = try library.function("mosquitto_tls_set")
        mosquitto_connect = try library.function("mosquitto_connect")
        mosquitto_reconnect = try library.function("mosquitto_reconnect")
        mosquitto_disconnect = try library.function("mosquitto_disconnect")
        mosquitto_publish = try library.function("mosquitto_publish")
        mosquitto_subscribe = try library.function("mosquitto_subscribe")
        mosquitto_loop_read = try library.function("mosquitto_loop_read")
        mosquitto_loop_write = try library.function("mosquitto_loop_write")
        mosquitto_loop_misc = try library.function("mosquitto_loop_misc")
        mosquitto_socket = try library.function("mosquitto_socket")
        mosquitto_want_write = try library.function("mosquitto_want_write")
        mosquitto_connect_callback_set = try library.function("mosquitto_connect_callback_set")
        mosquitto_disconnect_callback_set = try library.function("mosquitto_disconnect_callback_set")
        mosquitto_message_callback_set = try library.function("mosquitto_message_callback_set")
        mosquitto_strerror = try library.function("mosquitto_strerror")
        mosquitto_connack_string = try library.function("mosquitto_connack_string")
    }

    /// libmosquitto's text for an error code.
    func describe(_ code: Int32) -> String {
        mosquitto_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// libmosquitto's text for a CONNACK refusal code.
    func describeRefusal(_ code: Int32) -> String {
        mosquitto_connack_string(code).map { String(cString: $0) } ?? "refused (\(code))"
    }
}
