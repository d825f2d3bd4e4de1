import CPulse
public import LightShowCore
import LightShowSystem

/// libpulse, opened the first time a PulseAudio input or device list is used rather than linked: lightshow starts
/// where libpulse0 isn't installed (a headless box driving lights from ALSA, a minimal container), and only the
/// PulseAudio features say it is missing. CPulse still provides the types and constants; the functions come from
/// here, through the same-named wrappers in PulseLibrary+Functions.swift.
public struct PulseLibrary: Sendable {
    static let soname = "libpulse.so.0"

    /// Opened once, on first use; the outcome is kept, so a missing library is reported the same way every time.
    private static let shared = DynamicLibrary.opened(soname, package: "libpulse0", neededBy: "PulseAudio") {
        library throws(DynamicLibraryError) in try PulseLibrary(library)
    }

    /// Opens libpulse unless it is open; every way into PulseAudio (`PulseConnection`) calls this first.
    public static func load() throws(LightShowError) {
        _ = try shared.get()
    }

    /// The open library. Reached only through the wrappers, after `load()` succeeded: a wrapper called before is a
    /// programming error.
    static var loaded: PulseLibrary {
        guard case .success(let library) = shared else { fatalError("libpulse used before PulseLibrary.load()") }
        return library
    }

    let pa_context_connect: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, pa_context_flags_t, UnsafePointer<pa_spawn_api>?) -> Int32
    let pa_context_disconnect: @convention(c) (OpaquePointer?) -> Void
    let pa_context_errno: @convention(c) (OpaquePointer?) -> Int32
    let pa_context_get_server: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    let pa_context_get_server_info: @convention(c) (OpaquePointer?, pa_server_info_cb_t?, UnsafeMutableRawPointer?) -> OpaquePointer?
    let pa_context_get_sink_info_by_name: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, pa_sink_info_cb_t?, UnsafeMutableRawPointer?) -> OpaquePointer?
    let pa_context_get_sink_info_list: @convention(c) (OpaquePointer?, pa_sink_info_cb_t?, UnsafeMutableRawPointer?) -> OpaquePointer?
    let pa_context_get_source_info_by_name: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, pa_source_info_cb_t?, UnsafeMutableRawPointer?) -> OpaquePointer?
    let pa_context_get_source_info_list: @convention(c) (OpaquePointer?, pa_source_info_cb_t?, UnsafeMutableRawPointer?) -> OpaquePointer?
    let pa_context_get_state: @convention(c) (OpaquePointer?) -> pa_context_state_t
    let pa_context_new: @convention(c) (UnsafeMutablePointer<pa_mainloop_api>?, UnsafePointer<CChar>?) -> OpaquePointer?
    let pa_context_set_state_callback: @convention(c) (OpaquePointer?, pa_context_notify_cb_t?, UnsafeMutableRawPointer?) -> Void
    let pa_context_set_subscribe_callback: @convention(c) (OpaquePointer?, pa_context_subscribe_cb_t?, UnsafeMutableRawPointer?) -> Void
    let pa_context_subscribe: @convention(c) (OpaquePointer?, pa_subscription_mask_t, pa_context_success_cb_t?, UnsafeMutableRawPointer?) -> OpaquePointer?
    let pa_context_unref: @convention(c) (OpaquePointer?) -> Void
    let pa_operation_unref: @convention(c) (OpaquePointer?) -> Void
    let pa_stream_connect_record: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<pa_buffer_attr>?, pa_stream_flags_t) -> Int32
    let pa_stream_disconnect: @convention(c) (OpaquePointer?) -> Int32
    let pa_stream_drop: @convention(c) (OpaquePointer?) -> Int32
    let pa_stream_get_context: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let pa_stream_get_device_name: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    let pa_stream_get_state: @convention(c) (OpaquePointer?) -> pa_stream_state_t
    let pa_stream_new: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<pa_sample_spec>?, UnsafePointer<pa_channel_map>?) -> OpaquePointer?
    let pa_stream_peek: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeRawPointer?>?, UnsafeMutablePointer<Int>?) -> Int32
    let pa_stream_set_read_callback: @convention(c) (OpaquePointer?, pa_stream_request_cb_t?, UnsafeMutableRawPointer?) -> Void
    let pa_stream_set_state_callback: @convention(c) (OpaquePointer?, pa_stream_notify_cb_t?, UnsafeMutableRawPointer?) -> Void
    let pa_stream_unref: @convention(c) (OpaquePointer?) -> Void
    let pa_strerror: @convention(c) (Int32) -> UnsafePointer<CChar>?
    let pa_threaded_mainloop_free: @convention(c) (OpaquePointer?) -> Void
    let pa_threaded_mainloop_get_api: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<pa_mainloop_api>?
    let pa_threaded_mainloop_lock: @convention(c) (OpaquePointer?) -> Void
    let pa_threaded_mainloop_new: @convention(c) () -> OpaquePointer?
    let pa_threaded_mainloop_set_name: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Void
    let pa_threaded_mainloop_start: @convention(c) (OpaquePointer?) -> Int32
    let pa_threaded_mainloop_stop: @convention(c) (OpaquePointer?) -> Void
    let pa_threaded_mainloop_unlock: @convention(c) (OpaquePointer?) -> Void

    private init(_ library: DynamicLibrary) throws(DynamicLibraryError) {
        pa_context_connect = try library.function("pa_context_connect")
        pa_context_disconnect = try library.function("pa_context_disconnect")
        pa_context_errno = try library.function("pa_context_errno")
        pa_context_get_server = try library.function("pa_context_get_server")
        pa_context_get_server_info = try library.function("pa_context_get_server_info")
        pa_context_get_sink_info_by_name = try library.function("pa_context_get_sink_info_by_name")
        pa_context_get_sink_info_list = try library.function("pa_context_get_sink_info_list")
        pa_context_get_source_info_by_name = try library.function("pa_context_get_source_info_by_name")
        pa_context_get_source_info_list = try library.function("pa_context_get_source_info_list")
        pa_context_get_state = try library.function("pa_context_get_state")
        pa_context_new = try library.function("pa_context_new")
        pa_context_set_state_callback = try library.function("pa_context_set_state_callback")
        pa_context_set_subscribe_callback = try library.function("pa_context_set_subscribe_callback")
        pa_context_subscribe = try library.function("pa_context_subscribe")
        pa_context_unref = try library.function("pa_context_unref")
        pa_operation_unref = try library.function("pa_operation_unref")
        pa_stream_connect_record = try library.function("pa_stream_connect_record")
        pa_stream_disconnect = try library.function("pa_stream_disconnect")
        pa_stream_drop = try library.function("pa_stream_drop")
        pa_stream_get_context = try library.function("pa_stream_get_context")
        pa_stream_get_device_name = try library.function("pa_stream_get_device_name")
        pa_stream_get_state = try library.function("pa_stream_get_state")
        pa_stream_new = try library.function("pa_stream_new")
        pa_stream_peek = try library.function("pa_stream_peek")
        pa_stream_set_read_callback = try library.function("pa_stream_set_read_callback")
        pa_stream_set_state_callback = try library.function("pa_stream_set_state_callback")
        pa_stream_unref = try library.function("pa_stream_unref")
        pa_strerror = try library.function("pa_strerror")
        pa_threaded_mainloop_free = try library.function("pa_threaded_mainloop_free")
        pa_threaded_mainloop_get_api = try library.function("pa_threaded_mainloop_get_api")
        pa_threaded_mainloop_lock = try library.function("pa_threaded_mainloop_lock")
        pa_threaded_mainloop_new = try library.function("pa_threaded_mainloop_new")
        pa_threaded_mainloop_set_name = try library.function("pa_threaded_mainloop_set_name")
        pa_threaded_mainloop_start = try library.function("pa_threaded_mainloop_start")
        pa_threaded_mainloop_stop = try library.function("pa_threaded_mainloop_stop")
        pa_threaded_mainloop_unlock = try library.function("pa_threaded_mainloop_unlock")
    }
}
