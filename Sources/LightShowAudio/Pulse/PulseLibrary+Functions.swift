import CPulse

// The libpulse functions lightshow calls, under their C names, each forwarding to `PulseLibrary`: declared in this
// module, they take precedence over CPulse's declarations, so the PulseAudio code reads as plain libpulse calls
// while nothing links against libpulse (a call that isn't wrapped here fails to link, which keeps it that way).

func pa_context_connect(_ c: OpaquePointer!, _ server: UnsafePointer<CChar>!, _ flags: pa_context_flags_t, _ api: UnsafePointer<pa_spawn_api>!) -> Int32 { PulseLibrary.loaded.pa_context_connect(c, server, flags, api) }
func pa_context_disconnect(_ c: OpaquePointer!) { PulseLibrary.loaded.pa_context_disconnect(c) }
func pa_context_errno(_ c: OpaquePointer!) -> Int32 { PulseLibrary.loaded.pa_context_errno(c) }
func pa_context_get_server(_ c: OpaquePointer!) -> UnsafePointer<CChar>! { PulseLibrary.loaded.pa_context_get_server(c) }
func pa_context_get_server_info(_ c: OpaquePointer!, _ cb: pa_server_info_cb_t!, _ userdata: UnsafeMutableRawPointer!) -> OpaquePointer! { PulseLibrary.loaded.pa_context_get_server_info(c, cb, userdata) }
func pa_context_get_sink_info_by_name(_ c: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ cb: pa_sink_info_cb_t!, _ userdata: UnsafeMutableRawPointer!) -> OpaquePointer! { PulseLibrary.loaded.pa_context_get_sink_info_by_name(c, name, cb, userdata) }
func pa_context_get_sink_info_list(_ c: OpaquePointer!, _ cb: pa_sink_info_cb_t!, _ userdata: UnsafeMutableRawPointer!) -> OpaquePointer! { PulseLibrary.loaded.pa_context_get_sink_info_list(c, cb, userdata) }
func pa_context_get_source_info_by_name(_ c: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ cb: pa_source_info_cb_t!, _ userdata: UnsafeMutableRawPointer!) -> OpaquePointer! { PulseLibrary.loaded.pa_context_get_source_info_by_name(c, name, cb, userdata) }
func pa_context_get_source_info_list(_ c: OpaquePointer!, _ cb: pa_source_info_cb_t!, _ userdata: UnsafeMutableRawPointer!) -> OpaquePointer! { PulseLibrary.loaded.pa_context_get_source_info_list(c, cb, userdata) }
func pa_context_get_state(_ c: OpaquePointer!) -> pa_context_state_t { PulseLibrary.loaded.pa_context_get_state(c) }
func pa_context_new(_ mainloop: UnsafeMutablePointer<pa_mainloop_api>!, _ name: UnsafePointer<CChar>!) -> OpaquePointer! { PulseLibrary.loaded.pa_context_new(mainloop, name) }
func pa_context_set_state_callback(_ c: OpaquePointer!, _ cb: pa_context_notify_cb_t!, _ userdata: UnsafeMutableRawPointer!) { PulseLibrary.loaded.pa_context_set_state_callback(c, cb, userdata) }
func pa_context_set_subscribe_callback(_ c: OpaquePointer!, _ cb: pa_context_subscribe_cb_t!, _ userdata: UnsafeMutableRawPointer!) { PulseLibrary.loaded.pa_context_set_subscribe_callback(c, cb, userdata) }
func pa_context_subscribe(_ c: OpaquePointer!, _ m: pa_subscription_mask_t, _ cb: pa_context_success_cb_t!, _ userdata: UnsafeMutableRawPointer!) -> OpaquePointer! { PulseLibrary.loaded.pa_context_subscribe(c, m, cb, userdata) }
func pa_context_unref(_ c: OpaquePointer!) { PulseLibrary.loaded.pa_context_unref(c) }
func pa_operation_unref(_ o: OpaquePointer!) { PulseLibrary.loaded.pa_operation_unref(o) }
func pa_stream_connect_record(_ s: OpaquePointer!, _ dev: UnsafePointer<CChar>!, _ attr: UnsafePointer<pa_buffer_attr>!, _ flags: pa_stream_flags_t) -> Int32 { PulseLibrary.loaded.pa_stream_connect_record(s, dev, attr, flags) }
func pa_stream_disconnect(_ s: OpaquePointer!) -> Int32 { PulseLibrary.loaded.pa_stream_disconnect(s) }
func pa_stream_drop(_ p: OpaquePointer!) -> Int32 { PulseLibrary.loaded.pa_stream_drop(p) }
func pa_stream_get_context(_ p: OpaquePointer!) -> OpaquePointer! { PulseLibrary.loaded.pa_stream_get_context(p) }
func pa_stream_get_device_name(_ s: OpaquePointer!) -> UnsafePointer<CChar>! { PulseLibrary.loaded.pa_stream_get_device_name(s) }
func pa_stream_get_state(_ p: OpaquePointer!) -> pa_stream_state_t { PulseLibrary.loaded.pa_stream_get_state(p) }
func pa_stream_new(_ c: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ ss: UnsafePointer<pa_sample_spec>!, _ map: UnsafePointer<pa_channel_map>!) -> OpaquePointer! { PulseLibrary.loaded.pa_stream_new(c, name, ss, map) }
func pa_stream_peek(_ p: OpaquePointer!, _ data: UnsafeMutablePointer<UnsafeRawPointer?>!, _ nbytes: UnsafeMutablePointer<Int>!) -> Int32 { PulseLibrary.loaded.pa_stream_peek(p, data, nbytes) }
func pa_stream_set_read_callback(_ p: OpaquePointer!, _ cb: pa_stream_request_cb_t!, _ userdata: UnsafeMutableRawPointer!) { PulseLibrary.loaded.pa_stream_set_read_callback(p, cb, userdata) }
func pa_stream_set_state_callback(_ s: OpaquePointer!, _ cb: pa_stream_notify_cb_t!, _ userdata: UnsafeMutableRawPointer!) { PulseLibrary.loaded.pa_stream_set_state_callback(s, cb, userdata) }
func pa_stream_unref(_ s: OpaquePointer!) { PulseLibrary.loaded.pa_stream_unref(s) }
func pa_strerror(_ error: Int32) -> UnsafePointer<CChar>! { PulseLibrary.loaded.pa_strerror(error) }
func pa_threaded_mainloop_free(_ m: OpaquePointer!) { PulseLibrary.loaded.pa_threaded_mainloop_free(m) }
func pa_threaded_mainloop_get_api(_ m: OpaquePointer!) -> UnsafeMutablePointer<pa_mainloop_api>! { PulseLibrary.loaded.pa_threaded_mainloop_get_api(m) }
func pa_threaded_mainloop_lock(_ m: OpaquePointer!) { PulseLibrary.loaded.pa_threaded_mainloop_lock(m) }
func pa_threaded_mainloop_new() -> OpaquePointer! { PulseLibrary.loaded.pa_threaded_mainloop_new() }
func pa_threaded_mainloop_set_name(_ m: OpaquePointer!, _ name: UnsafePointer<CChar>!) { PulseLibrary.loaded.pa_threaded_mainloop_set_name(m, name) }
func pa_threaded_mainloop_start(_ m: OpaquePointer!) -> Int32 { PulseLibrary.loaded.pa_threaded_mainloop_start(m) }
func pa_threaded_mainloop_stop(_ m: OpaquePointer!) { PulseLibrary.loaded.pa_threaded_mainloop_stop(m) }
func pa_threaded_mainloop_unlock(_ m: OpaquePointer!) { PulseLibrary.loaded.pa_threaded_mainloop_unlock(m) }
