import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// A negative return code from libasound (`-errno`), with the call that returned it.
struct ALSAError: Error, CustomStringConvertible {
    let code: Int32
    let call: String

    init(_ code: Int32, _ call: String) {
        self.code = code < 0 ? code : -code
        self.call = call
    }

    var description: String { "\(call): \(String(cString: snd_strerror(code)))" }

    /// An overrun: the device had audio the reader never took.
    static func overrun(_ call: String) -> ALSAError { ALSAError(-EPIPE, call) }

    var isOverrun: Bool { code == -EPIPE }

    /// Errors that `snd_pcm_recover` clears: overrun, suspend, an interrupted call.
    var isRecoverable: Bool { code == -EPIPE || code == -ESTRPIPE || code == -EINTR }  // os-idiom: ALSA's result, not errno

    /// Open errors that mean the name matches no device, rather than a device that is busy or broken.
    var isUnknownDevice: Bool { code == -ENOENT || code == -ENODEV || code == -ENXIO || code == -EINVAL }
}
