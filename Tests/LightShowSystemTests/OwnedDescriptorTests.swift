import Foundation
import LightShowSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct OwnedDescriptorTests {
    /// True while `fd` names an open descriptor.
    static func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) >= 0 }

    @Test func itClosesWhenItsOwnerGoes() throws {
        var number: Int32 = -1
        do {
            let file = try OwnedDescriptor.open("/dev/null", O_RDONLY)
            number = file.rawValue
            #expect(Self.isOpen(number))
        }
        #expect(!Self.isOpen(number))
    }

    /// After an explicit close its number is free: the next open reuses it, and the owner's end must not close that
    /// new descriptor a second time.
    @Test func anExplicitCloseIsTheOnlyClose() throws {
        let number: Int32
        let successor: Int32
        do {
            let file = try OwnedDescriptor.open("/dev/null", O_RDONLY)
            number = file.rawValue
            try file.close()
            #expect(!Self.isOpen(number))
            successor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
        defer { close(successor) }
        #expect(successor == number)
        #expect(Self.isOpen(successor))
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
