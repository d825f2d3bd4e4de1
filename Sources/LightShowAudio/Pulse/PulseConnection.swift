import CPulse
import LightShowCore

/// One connection to a PulseAudio (or pipewire-pulse) server: owns the threaded mainloop and the context, and
/// frees both in `deinit`. Its callbacks run on the mainloop thread and only post `PulseEvent`s to the inbox.
///
/// Owned by one thread at a time (created where capture opens, then handed to the capture thread); every `pa_*`
/// call from outside the mainloop thread takes the mainloop lock, which is what makes the unchecked Sendable safe.
final class PulseConnection: @unchecked Sendable {
    let mainloop: OpaquePointer
    let context: OpaquePointer
    let inbox: PulseInbox
    private var started = false

    /// Creates the context and starts connecting (without autospawning a server); `.ready` or `.failed` follows.
    /// - Parameter server: a server address (`unix:/path`); nil = libpulse's default (`PULSE_SERVER`, the session's).
    init(inbox: PulseInbox, server: String? = nil) throws(LightShowError) {
        try PulseLibrary.load()
        guard let mainloop = pa_threaded_mainloop_new() else {
            throw LightShowError("input pulse: libpulse could not create its mainloop", exitStatus: .ioError)
        }
        guard let context = pa_context_new(pa_threaded_mainloop_get_api(mainloop), "lightshow") else {
            pa_threaded_mainloop_free(mainloop)
            throw LightShowError("input pulse: libpulse could not create a context", exitStatus: .ioError)
        }
        self.mainloop = mainloop
        self.context = context
        self.inbox = inbox
        pa_threaded_mainloop_set_name(mainloop, "ls-pulse-loop")
        let userdata = Unmanaged.passUnretained(inbox).toOpaque()
        pa_context_set_state_callback(context, { context, userdata in
            guard let context, let userdata else { return }
            let inbox = Unmanaged<PulseInbox>.fromOpaque(userdata).takeUnretainedValue()
            switch pa_context_get_state(context) {
            case PA_CONTEXT_READY: inbox.post(.ready)
            case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: inbox.post(.failed(PulseConnection.errorText(context)))
            default: break
            }
        }, userdata)
        pa_context_set_subscribe_callback(context, { _, event, _, userdata in
            guard let userdata else { return }
            let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
            let type = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
            // The default sink lives in the server's info; a sink or source coming or going may be ours.
            // A sink's "change" (volume, state) is left alone: it fires whenever anything plays.
            let relevant = facility == PA_SUBSCRIPTION_EVENT_SERVER.rawValue
                || (type != PA_SUBSCRIPTION_EVENT_CHANGE.rawValue
                    && (facility == PA_SUBSCRIPTION_EVENT_SINK.rawValue || facility == PA_SUBSCRIPTION_EVENT_SOURCE.rawValue))
            if relevant { Unmanaged<PulseInbox>.fromOpaque(userdata).takeUnretainedValue().post(.changed) }
        }, userdata)
        if pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            inbox.post(.failed(Self.errorText(context)))
        }
        if pa_threaded_mainloop_start(mainloop) < 0 {
            // Every stored property is set, so `deinit` runs after this throw and frees both (not started).
            throw LightShowError("input pulse: libpulse could not start its mainloop thread", exitStatus: .ioError)
        }
        started = true
    }

    deinit {
        // Callbacks cleared first, so nothing posts about a context being taken down on purpose.
        pa_threaded_mainloop_lock(mainloop)
        pa_context_set_state_callback(context, nil, nil)
        pa_context_set_subscribe_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
        pa_threaded_mainloop_unlock(mainloop)
        if started { pa_threaded_mainloop_stop(mainloop) }
        pa_threaded_mainloop_free(mainloop)
    }

    /// Runs `body` with the mainloop lock held (re-entrant: the mainloop's mutex is recursive).
    func locked<T>(_ body: () -> T) -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return body()
    }

    /// The server's name and version, e.g. `pulseaudio 16.1` (call once ready).
    var serverDescription: String {
        locked {
            let name = pa_context_get_server(context).map { String(cString: $0) } ?? "server"
            return SafeText.sanitized(name, limit: 200)
        }
    }

    /// Asks for news of the server (default sink), sinks and sources.
    func subscribe() {
        let mask = PA_SUBSCRIPTION_MASK_SERVER.rawValue | PA_SUBSCRIPTION_MASK_SINK.rawValue
            | PA_SUBSCRIPTION_MASK_SOURCE.rawValue
        locked { release(pa_context_subscribe(context, pa_subscription_mask_t(rawValue: mask), nil, nil)) }
    }

    /// Starts resolving what to record: `source` if given, else the monitor of the default sink.
    /// Posts `.resolved` or `.unresolved`.
    func resolve(source: String?) {
        let userdata = Unmanaged.passUnretained(inbox).toOpaque()
        locked {
            if let source {
                release(pa_context_get_source_info_by_name(context, source, { context, info, eol, userdata in
                    guard let userdata else { return }
                    let inbox = Unmanaged<PulseInbox>.fromOpaque(userdata).takeUnretainedValue()
                    if let info, let name = info.pointee.name {
                        inbox.post(.resolved(source: String(cString: name), sink: nil))
                    } else if eol < 0 {
                        inbox.post(PulseConnection.unresolved(context))
                    }
                }, userdata), orPost: userdata)
                return
            }
            release(pa_context_get_server_info(context, { context, info, userdata in
                guard let userdata else { return }
                let inbox = Unmanaged<PulseInbox>.fromOpaque(userdata).takeUnretainedValue()
                guard let info else { return inbox.post(PulseConnection.unresolved(context)) }
                guard let sink = info.pointee.default_sink_name else {
                    return inbox.post(.unresolved("the server has no default sink", noSuchEntity: true))
                }
                // Still on the mainloop thread with its lock held: chain the sink's lookup at once.
                let operation = pa_context_get_sink_info_by_name(context, sink, { context, info, eol, userdata in
                    guard let userdata else { return }
                    let inbox = Unmanaged<PulseInbox>.fromOpaque(userdata).takeUnretainedValue()
                    if let info, let monitor = info.pointee.monitor_source_name, let name = info.pointee.name {
                        inbox.post(.resolved(source: String(cString: monitor), sink: String(cString: name)))
                    } else if eol < 0 {
                        inbox.post(PulseConnection.unresolved(context))
                    }
                }, userdata)
                if let operation { pa_operation_unref(operation) } else { inbox.post(PulseConnection.unresolved(context)) }
            }, userdata), orPost: userdata)
        }
    }

    /// A started operation is followed through its callback; a refused one is reported at once.
    private func release(_ operation: OpaquePointer?, orPost userdata: UnsafeMutableRawPointer? = nil) {
        if let operation {
            pa_operation_unref(operation)
        } else if userdata != nil {
            inbox.post(Self.unresolved(context))
        }
    }

    static func unresolved(_ context: OpaquePointer?) -> PulseEvent {
        let code = context.map { pa_context_errno($0) } ?? 0
        return .unresolved(errorText(context), noSuchEntity: code == Int32(PA_ERR_NOENTITY.rawValue))
    }

    /// libpulse's text for the context's last error.
    static func errorText(_ context: OpaquePointer?) -> String {
        guard let context, let text = pa_strerror(pa_context_errno(context)) else { return "unknown error" }
        return String(cString: text)
    }
}
