import CTOML
import TOMLKit

#if canImport(Glibc)
import Glibc
#endif

/// A parsed TOML document that frees all it took when dropped. TOMLKit's `TOMLTable` never frees the toml++ table it
/// holds (its nested tables share the nodes, so it can't tell when to), and `TOMLTable(string:)` also drops the
/// buffer it allocates for a parse error: about 150 bytes a parse that a daemon reloading every 5 s piled up hour
/// after hour (heaptrack; Tests/Benchmarks/reload-memory.sh). So the text is parsed here through CTOML, into a buffer
/// freed at once, and its entries are copied into the document's own root; both toml++ tables are cleared and freed
/// (a cleared table owns no memory: freeing it returns the object TOMLKit allocated). TOMLKit keeps the root's pointer
/// internal, so it is found by reflection; should a later TOMLKit rename it (TOMLScalarTests would fail), only the
/// root stays allocated.
final class TOMLDocument {
    let root: TOMLTable

    init(parsing text: String) throws {
        let error = UnsafeMutablePointer<CTOMLParseError>.allocate(capacity: 1)
        defer { error.deallocate() }
        guard let parsed = text.withCString({ tableCreateFromString($0, error) }) else {
            free(UnsafeMutableRawPointer(mutating: error.pointee.description))
            // TOMLKit's own parse says why in its own error type; a bad file is rare, unlike a reload.
            _ = try TOMLTable(string: text)
            throw TOMLDocumentError.parserDisagrees
        }
        root = TOMLTable()
        if let target = Self.tablePointer(root) {
            Self.move(parsed, into: target)
        }
        Self.release(parsed)
    }

    deinit {
        if let table = Self.tablePointer(root) { Self.release(table) }
    }

    private static func tablePointer(_ table: TOMLTable) -> OpaquePointer? {
        Mirror(reflecting: table).descendant("tablePointer") as? OpaquePointer
    }

    /// Copies each of `source`'s entries (with everything under it) into `target`.
    private static func move(_ source: OpaquePointer, into target: OpaquePointer) {
        let count = tableSize(source)
        let keys = tableGetKeys(source)
        defer { free(UnsafeMutableRawPointer(mutating: keys)) }
        for index in 0..<count {
            let key = keys[index]
            if let node = tableGetNode(source, key) { tableInsertNode(target, key, node) }
            free(UnsafeMutableRawPointer(mutating: key))
        }
    }

    /// Frees every node of `table`, then the table itself.
    private static func release(_ table: OpaquePointer) {
        tableClear(table)
        free(UnsafeMutableRawPointer(table))
    }
}

/// CTOML refused a text that TOMLKit then parsed: they share one parser, so this would be a bug.
enum TOMLDocumentError: Error {
    case parserDisagrees
}
