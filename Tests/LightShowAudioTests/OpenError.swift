import LightShowAudio
import LightShowCore

/// The error `AudioSources.open` throws for `spec`, or nil when it opens.
func openError(_ spec: InputSpec, pcmFormat: PCMFormat = .mpdDefault) -> LightShowError? {
    do {
        _ = try AudioSources.open(spec, pcmFormat: pcmFormat)
        return nil
    } catch let error as LightShowError {
        return error
    } catch {
        return LightShowError("unexpected \(error)", exitStatus: .ok)
    }
}
