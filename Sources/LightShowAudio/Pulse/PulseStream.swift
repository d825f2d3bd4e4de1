import CPulse
import LightShowCore
#if canImport(Glibc)
import Glibc
#endif

/// One record stream on a `PulseConnection`: 32-bit float samples from one source, in fragments of about 10 ms
/// with at most about 100 ms buffered by the server. Disconnected and freed in `deinit`.
final class PulseStream: @unchecked Sendable {
    /// What the callbacks reach: the inbox, and a scratch buffer only the mainloop thread touches.
    fileprivate final class Callbacks: @unchecked Sendable {
        let inbox: PulseInbox
        let channels: Int
        let id: Int
        var scratch: [Float] = []

        init(inbox: PulseInbox, channels: Int, id: Int) {
            self.inbox = inbox
            self.channels = channels
            self.id = id
        }
    }

    let source: String
    /// Tells this stream's events from those of the streams before it.
    let id: Int
    private let connection: PulseConnection
    private let stream: OpaquePointer
    private let callbacks: Callbacks

    /// Connects a record stream to `source`. `DONT_MOVE`: when the source vanishes the stream fails rather than
    /// being moved by the server onto the default source, which is the microphone.
    init(connection: PulseConnection, source: String, id: Int, sampleRate: Int, channels: Int) throws(LightShowError) {
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: UInt8(channels))
        let bytesPerSecond = UInt32(sampleRate * channels * MemoryLayout<Float>.size)
        var attributes = pa_buffer_attr(
            maxlength: bytesPerSecond / 10, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
            fragsize: bytesPerSecond / 100)
        let callbacks = Callbacks(inbox: connection.inbox, channels: channels, id: id)
        let userdata = Unmanaged.passUnretained(callbacks).toOpaque()
        let created: OpaquePointer? = connection.locked { () -> OpaquePointer? in
            guard let stream = pa_stream_new(connection.context, "lightshow", &spec, nil) else { return nil }
            pa_stream_set_state_callback(stream, { stream, userdata in
                guard let stream, let userdata else { return }
                let callbacks = Unmanaged<Callbacks>.fromOpaque(userdata).takeUnretainedValue()
                switch pa_stream_get_state(stream) {
                case PA_STREAM_READY:
                    let name = pa_stream_get_device_name(stream).map { String(cString: $0) } ?? ""
                    callbacks.inbox.post(.streamReady(stream: callbacks.id, source: name))
                case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
                    callbacks.inbox.post(.streamFailed(
                        stream: callbacks.id, PulseConnection.errorText(pa_stream_get_context(stream))))
                default:
                    break
                }
            }, userdata)
            pa_stream_set_read_callback(stream, { stream, _, userdata in
                guard let stream, let userdata else { return }
                Unmanaged<Callbacks>.fromOpaque(userdata).takeUnretainedValue().read(stream)
            }, userdata)
            let flags = pa_stream_flags_t(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_DONT_MOVE.rawValue)
            guard pa_stream_connect_record(stream, source, &attributes, flags) == 0 else {
                pa_stream_set_state_callback(stream, nil, nil)
                pa_stream_set_read_callback(stream, nil, nil)
                pa_stream_unref(stream)
                return nil
            }
            return stream
        }
        guard let created else {
            throw LightShowError(
                "input pulse: can't record \(SafeText.sanitized(source, limit: 200)): \(PulseConnection.errorText(connection.context))",
                exitStatus: .ioError)
        }
        self.source = source
        self.id = id
        self.connection = connection
        self.stream = created
        self.callbacks = callbacks
    }

    deinit {
        connection.locked {
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_read_callback(stream, nil, nil)
            // A stream that failed is disconnected already; either way the reference goes next.
            _ = pa_stream_disconnect(stream)
            pa_stream_unref(stream)
        }
        connection.inbox.discardAudio()
    }
}

extension PulseStream.Callbacks {
    /// Takes every fragment the stream holds: peek, copy, drop. NULL data with a length is a hole: dropped unread.
    fileprivate func read(_ stream: OpaquePointer) {
        while true {
            var data: UnsafeRawPointer?
            var bytes = 0
            guard pa_stream_peek(stream, &data, &bytes) == 0, bytes > 0 else { return }
            if let data {
                let count = bytes / MemoryLayout<Float>.size
                if scratch.count < count { scratch = [Float](repeating: 0, count: count) }
                // Copied byte-wise: nothing promises the server's memory block is aligned for Float.
                scratch.withUnsafeMutableBytes { _ = memcpy($0.baseAddress!, data, count * MemoryLayout<Float>.size) }
                scratch.withUnsafeBufferPointer { inbox.append(UnsafeBufferPointer(rebasing: $0.prefix(count)), channels: channels) }
            }
            // A drop that fails would leave the same fragment to peek for ever: stop until the next callback.
            guard pa_stream_drop(stream) == 0 else { return }
        }
    }
}
