/// An image the encoder can't write (empty, or too large for one PNG chunk).
public struct PNGError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
