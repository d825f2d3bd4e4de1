import CTOML
import TOMLKit

#if canImport(Glibc)
import Glibc
#endif

/// One TOML value read as a number, flag or string without TOMLKit's leak: its `int`, `double`, `bool` and
/// `string` copy the value into memory from malloc that nobody frees, tens of bytes a key on every reload. These
/// read the same node through CTOML and free the copy. TOMLKit keeps the node pointer internal, so it is found by
/// reflection; should a later TOMLKit rename it, TOMLKit's own getters are used.
struct TOMLScalar {
    private let value: any TOMLValueConvertible
    private let node: OpaquePointer?

    init(_ value: any TOMLValueConvertible) {
        self.value = value
        node = Mirror(reflecting: value.tomlValue).descendant("tomlValuePointer") as? OpaquePointer
    }

    /// Whether the node was found, so values are read without TOMLKit's leak.
    var readsTheNode: Bool { node != nil }

    var int: Int? {
        guard value.type == .int else { return nil }
        guard let node else { return value.int }
        return taking(nodeAsInt(node)) { Int($0.pointee) }
    }

    var double: Double? {
        guard value.type == .double else { return nil }
        guard let node else { return value.double }
        return taking(nodeAsDouble(node)) { $0.pointee }
    }

    var bool: Bool? {
        guard value.type == .bool else { return nil }
        guard let node else { return value.bool }
        return taking(nodeAsBool(node)) { $0.pointee }
    }

    var string: String? {
        guard value.type == .string else { return nil }
        guard let node else { return value.string }
        return taking(nodeAsString(node)) { String(cString: $0) }
    }

    /// Reads the C copy, then frees it.
    private func taking<C, T>(_ copy: UnsafePointer<C>?, _ read: (UnsafePointer<C>) -> T) -> T? {
        guard let copy else { return nil }
        defer { free(UnsafeMutableRawPointer(mutating: copy)) }
        return read(copy)
    }
}
