import CTOML
import TOMLKit

/// A parsed TOML document that frees its nodes when dropped. TOMLKit's `TOMLTable` never frees the toml++ table it
/// parses (its nested tables share the nodes, so it can't tell when to): about 1 KB a parse of a small config, which
/// a daemon reloaded every 5 s piles up hour after hour (heaptrack). Clearing the root frees every node under it
/// once the sections have been read. TOMLKit keeps the pointer internal, so it is found by reflection; should a
/// later TOMLKit rename it, nothing is cleared and parsing works as before.
final class TOMLDocument {
    let root: TOMLTable

    init(parsing text: String) throws {
        root = try TOMLTable(string: text)
    }

    deinit {
        if let table = Mirror(reflecting: root).descendant("tablePointer") as? OpaquePointer {
            tableClear(table)
        }
    }
}
