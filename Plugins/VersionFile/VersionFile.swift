import Foundation
import PackagePlugin

/// Generates `Version.swift` (`let lightshowVersion = "…"`) from the package's `VERSION` file, the one place the
/// version is written (`make deb` reads it too). A build-tool plugin rather than a Makefile step, so a plain
/// `swift build`, a clean clone and a source tarball all print the same `lightshow --version`.
@main
struct VersionFile: BuildToolPlugin {
    /// Takes the first line of VERSION ($1) and writes the Swift file ($2). Only the characters of a Debian upstream
    /// version, starting with a digit, are accepted: the string lands in Swift source and in the package's version.
    private static let script = #"""
        v=$(head -n 1 "$1") || exit 1
        case "$v" in
            [0-9]*) case "$v" in *[!0-9A-Za-z.+~]*) v=bad ;; esac ;;
            *) v=bad ;;
        esac
        if [ "$v" = bad ]; then
            echo "$1: error: expected a version such as 1.2.3 (digits, letters, '.', '+', '~'; starting with a digit)" >&2
            exit 1
        fi
        printf '// Generated from VERSION by the VersionFile plugin.\nlet lightshowVersion = "%s"\n' "$v" >"$2"
        """#

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let input = context.package.directoryURL.appending(path: "VERSION")
        let output = context.pluginWorkDirectoryURL.appending(path: "Version.swift")
        return [
            .buildCommand(
                displayName: "Generating Version.swift from VERSION",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", Self.script, "VersionFile", input.path, output.path],
                inputFiles: [input],
                outputFiles: [output]
            ),
        ]
    }
}
