/// A value for each band, as properties: `bass`, `mid`, `treble`, reached by band through the subscript.
public protocol PerBand {
    associatedtype Element
    var bass: Element { get set }
    var mid: Element { get set }
    var treble: Element { get set }
}

extension PerBand {
    @inlinable public subscript(band: Band) -> Element {
        get {
            switch band {
            case .bass: bass
            case .mid: mid
            case .treble: treble
            }
        }
        set {
            switch band {
            case .bass: bass = newValue
            case .mid: mid = newValue
            case .treble: treble = newValue
            }
        }
    }
}
