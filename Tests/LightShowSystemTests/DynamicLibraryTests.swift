import LightShowCore
import LightShowSystem
import Testing

@Suite struct DynamicLibraryTests {
    @Test func aPresentLibraryGivesItsFunctions() throws {
        let opened = DynamicLibrary.opened("libm.so.6", package: "libc6", neededBy: "Maths") {
            library throws(DynamicLibraryError) in
            try library.function("cos", as: (@convention(c) (Double) -> Double).self)
        }
        let cos = try opened.get()
        #expect(abs(cos(0) - 1) < 1e-12)
    }

    @Test func aMissingLibraryNamesTheFeatureTheFileAndThePackage() {
        let opened = DynamicLibrary.opened("libnothing-here.so.7", package: "libnothing7", neededBy: "Sparkles") {
            library throws(DynamicLibraryError) in library.name
        }
        guard case .failure(let error) = opened else {
            Issue.record("a library that isn't installed was opened")
            return
        }
        #expect(error.message.hasPrefix("Sparkles needs libnothing-here.so.7 (Debian package libnothing7)"))
        #expect(error.exitStatus == .ioError)
    }

    @Test func aMissingFunctionIsReportedWithItsName() {
        let opened = DynamicLibrary.opened("libm.so.6", package: "libc6", neededBy: "Maths") {
            library throws(DynamicLibraryError) in
            try library.function("no_such_function_here", as: (@convention(c) () -> Void).self)
        }
        guard case .failure(let error) = opened else {
            Issue.record("a function that doesn't exist was found")
            return
        }
        #expect(error.message.contains("no symbol no_such_function_here"))
    }
}
