import LightShowSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SystemCallErrorTests {
    @Test func currentNamesTheCallAndErrnosMessage() {
        let result = rmdir("/proc/no-such-directory-here")
        let error = SystemCallError.current("rmdir /proc/no-such-directory-here")
        #expect(result == -1)
        #expect(error.code == ENOENT)
        #expect(error.message == "No such file or directory")
        #expect(error.description == "rmdir /proc/no-such-directory-here: No such file or directory")
    }

    @Test func aCodeReportedSomeOtherWayHasTheSameMessage() {
        #expect(SystemCallError.message(for: ECONNREFUSED) == "Connection refused")
        #expect(SystemCallError("connect x", code: EACCES).description == "connect x: Permission denied")
    }
}
