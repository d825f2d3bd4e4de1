#if canImport(Glibc)
import Glibc
#endif
public import LightShowCore

/// A shared library opened at run time (dlopen), for a dependency only some features need: the program starts
/// where it isn't installed, and the feature says what is missing. Never closed: such libraries start threads and
/// register exit handlers, and unloading code under them is unsafe.
public struct DynamicLibrary: @unchecked Sendable {
    public let name: String
    private let handle: UnsafeMutableRawPointer

    /// Opens `name` (a soname such as `libpulse.so.0`); the error is dlerror's text.
    public init(_ name: String) throws(DynamicLibraryError) {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { throw DynamicLibraryError(name: name, reason: Self.lastError()) }
        self.name = name
        self.handle = handle
    }

    /// The function `symbol` as `Function`, a `@convention(c)` function type matching its C declaration.
    public func function<Function>(_ symbol: String, as type: Function.Type = Function.self) throws(DynamicLibraryError) -> Function {
        _ = dlerror()
        guard let address = dlsym(handle, symbol) else {
            throw DynamicLibraryError(name: name, reason: "no symbol \(symbol) (\(Self.lastError()))")
        }
        return unsafeBitCast(address, to: type)
    }

    /// Opens `soname` and looks up its functions with `bind`, for a caller's `static let`: kept there, the outcome is
    /// found once, and a missing library reads the same each time, naming the feature that needs it and the Debian
    /// package that has it.
    public static func opened<Functions>(
        _ soname: String, package: String, neededBy feature: String,
        _ bind: (DynamicLibrary) throws(DynamicLibraryError) -> Functions
    ) -> Result<Functions, LightShowError> {
        do throws(DynamicLibraryError) {
            return .success(try bind(DynamicLibrary(soname)))
        } catch {
            return .failure(LightShowError(
                "\(feature) needs \(soname) (Debian package \(package)), which could not be loaded: \(error.reason)",
                exitStatus: .ioError
            ))
        }
    }

    private static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown error"
    }
}

/// A library or one of its functions could not be loaded.
public struct DynamicLibraryError: Error, CustomStringConvertible {
    public let name: String
    public let reason: String
    public var description: String { "\(name): \(reason)" }
}
