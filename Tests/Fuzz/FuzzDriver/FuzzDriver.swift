#if canImport(Glibc)
import Glibc
#endif
#if FUZZING
import CFuzzer
#endif

/// The one entry point every fuzz target shares. Built with `-DFUZZING -sanitize=fuzzer,address` (`make fuzz`),
/// it hands the process to libFuzzer's driver, which calls the target with coverage-guided inputs; built plainly
/// (`swift build`), it runs the target once on every file named on the command line (a seed corpus directory
/// or files), so the corpora double as regression inputs without libFuzzer.
///
/// SwiftPM gives an executable its own `main`, so the driver is entered through `LLVMFuzzerRunDriver` (libFuzzer's
/// API for programs with a main of their own) rather than libFuzzer's `main`.
public enum FuzzDriver {
    nonisolated(unsafe) static var target: ((UnsafeRawBufferPointer) -> Void)?

    public static func main(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
        target = body
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
        #else
        var inputs = 0
        for argument in CommandLine.arguments.dropFirst() where !argument.hasPrefix("-") {
            for path in files(at: argument) {
                guard let bytes = contents(of: path) else { continue }
                bytes.withUnsafeBytes { body($0) }
                inputs += 1
            }
        }
        print("\(CommandLine.arguments[0]): ran \(inputs) inputs without libFuzzer (build with make fuzz to fuzz)")
        exit(0)
        #endif
    }

    /// `path` itself, or the regular files in it when it is a directory.
    static func files(at path: String) -> [String] {
        guard let directory = opendir(path) else { return [path] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(path + "/" + name) }
        }
        return names.sorted()
    }

    static func contents(of path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }
}

/// libFuzzer's callback: one input, 0 to go on.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.target?(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

