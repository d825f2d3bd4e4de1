import LightShowCore

/// One top-level table of the config file. Each lives in its own file under Sections/ and reads its keys
/// in one place; `ConfigurationLoader.sections` lists them.
protocol ConfigSection: Sendable {
    /// The table name, `input` for `[input]`.
    static var name: String { get }
    /// Reads the keys the file sets over `configuration` (which holds the defaults); unset keys stay as they are.
    static func read(_ section: SectionReader, into configuration: inout Configuration)
    /// Finds the section in the document's top level and reads it; an array of tables (`[[lights]]`) overrides
    /// this to read each entry.
    static func read(from top: SectionReader, into configuration: inout Configuration)
}

extension ConfigSection {
    static func read(from top: SectionReader, into configuration: inout Configuration) {
        top.section(name) { reader in read(reader, into: &configuration) }
    }
}
