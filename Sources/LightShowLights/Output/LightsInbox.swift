public import LightShowCore
import LightShowSystem

/// What `lights test` shows: one band of one output lit at full level in `color`, every other light black.
public struct LightsTestStep: Sendable, Equatable {
    /// Position in the configured list, counting from 0.
    public var output: Int
    public var band: Band
    public var color: RGBColor
    /// Hue: the one channel of the area to light (it follows `band`); nil lights every channel of the band.
    /// WLED audio sync: the GEQ channel (0…15) to light, in place of the band.
    public var channel: Int?

    public init(output: Int, band: Band, color: RGBColor, channel: Int? = nil) {
        self.output = output
        self.band = band
        self.color = color
        self.channel = channel
    }
}

/// The newest thing to show: a frame of the show, or a step of `lights test` (nil: everything black).
enum LightsInput: Sendable, Equatable {
    case frame(ShowFrame)
    case test(LightsTestStep?)
}

/// Colours the outputs paint with: the bands' and the background's, replaced together on reload.
struct LightPalette: Sendable, Equatable {
    var bands: BandsSettings
    var background: BackgroundSettings
}

/// Everything the callers and the sender thread share, behind one lock. Callers only store the newest value
/// and wake the thread, so the engine never waits on the network.
struct LightsInbox: Sendable {
    var input: LightsInput?
    /// Monotonic nanoseconds when `input` arrived.
    var arrival: UInt64 = 0
    /// A reload's outputs, colours and `[output] delay` (nanoseconds), not yet taken by the thread.
    var reload: (plans: [LightOutputPlan], palette: LightPalette, delay: UInt64)?
    var stopping = false
    /// The thread has been woken and hasn't looked yet: another wake-up would only cost a system call.
    var wakePending = false
    var statuses: [LightOutputStatus] = []
    /// Turns of the sender's loop: lets tests see that nothing wakes it while everything is dark.
    var turns = 0
}
