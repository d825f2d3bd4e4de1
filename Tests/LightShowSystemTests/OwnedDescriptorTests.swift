import Foundation
import LightShowSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct OwnedDescriptorTests {
    /// True while `fd` names an open descriptor.
    static func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) >= 0 }

    /// `/dev/null` opened at `number`: far above what the other tests running meanwhile are given (the lowest free
    /// numbers), so no other thread takes the number while a test watches it.
    static func openAt(_ number: Int32) -> Int32 {
        let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        return dup2(fd, number)
    }

    @Test func itClosesWhenItsOwnerGoes() throws {
        let number = Self.openAt(900)
        #expect(number == 900)
        do {
            let file = OwnedDescriptor(adopting: number)
            #expect(Self.isOpen(file.rawValue))
        }
        #expect(!Self.isOpen(number))
    }

    /// After an explicit close the number is free for a successor, which the owner's end must not close again.
    @Test func anExplicitCloseIsTheOnlyClose() throws {
        let number = Self.openAt(901)
        #expect(number == 901)
        do {
            let file = OwnedDescriptor(adopting: number)
            try file.close()
            #expect(!Self.isOpen(number))
            #expect(Self.openAt(number) == number)
        }
        #expect(Self.isOpen(number))
        close(number)
    }

    @Test func aReleasedDescriptorStaysOpen() throws {
        let number = try OwnedDescriptor.open("/dev/null", O_RDONLY).release()
        defer { close(number) }
        #expect(Self.isOpen(number))
    }

    @Test func itIsCloseOnExec() throws {
        let file = try OwnedDescriptor.open("/dev/null", O_RDONLY)
        #expect(fcntl(file.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func aMissingFileNamesThePath() throws {
        let path = NSTemporaryDirectory() + "/no-such-file-\(getpid())"
        #expect(throws: SystemCallError("open \(path)", code: ENOENT)) { _ = try OwnedDescriptor.open(path, O_RDONLY) }
    }
}
