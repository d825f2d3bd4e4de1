import LightShowSystem
import Foundation
import LightShowCore
import Testing
import TestSupport
@testable import LightShowControl

/// The socket file: where it goes, and what happens when something is already there.
@Suite struct ControlSocketFileTests {
    /// Leaves a socket file behind the way a crashed daemon does: bound, listened on, closed, never unlinked.
    static func leaveStaleSocket(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && listen(fd, 1) == 0)
        close(fd)
    }

    @Test func staleSocketIsReplacedAfterAFailedConnect() async throws {
        let dir = try TemporaryDirectory("ls-ctl")
        let path = dir.file("control.sock")
        try Self.leaveStaleSocket(at: path)
        #expect(access(path, F_OK) == 0)
        let server = try ControlServer(path: path, handler: RecordingHandler())
        server.start()
        defer { server.shutdown() }
        let client = try await AsyncClient(path: path)
        #expect(try await client.request("status")["ok"] == true)
    }

    @Test func liveSocketIsLeftAlone() async throws {
        let fixture = try ServerFixture()
        #expect(throws: SystemCallError.self) {
            _ = try ControlServer(path: fixture.path, handler: RecordingHandler())
        }
        let client = try await fixture.client()
        #expect(try await client.request("status")["ok"] == true)
    }

    @Test func otherFilesAreNeverRemoved() throws {
        let dir = try TemporaryDirectory("ls-ctl")
        let path = try dir.write("control.sock", Data("precious".utf8))
        #expect(throws: SystemCallError.self) {
            _ = try ControlServer(path: path, handler: RecordingHandler())
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
    }

    @Test func tooLongPathIsAnError() throws {
        let path = "/tmp/" + String(repeating: "d", count: 120) + "/control.sock"
        #expect(throws: SystemCallError.self) {
            _ = try ControlServer(path: path, handler: RecordingHandler())
        }
    }

    @Test func pathFollowsConfigThenRuntimeDirectoryThenXDG() throws {
        let env = ["RUNTIME_DIRECTORY": "/run/lightshow:/run/other", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(try ControlSocketPath.resolve(configured: "/srv/c.sock", environment: env) == "/srv/c.sock")
        #expect(try ControlSocketPath.resolve(configured: "", environment: env) == "/run/lightshow/control.sock")
        #expect(try ControlSocketPath.resolve(configured: "", environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
            == "/run/user/1000/lightshow/control.sock")
        #expect(try ControlSocketPath.resolve(configured: "", environment: [:], isRoot: true) == "/run/lightshow/control.sock")
        #expect(throws: LightShowError.self) {
            try ControlSocketPath.resolve(configured: "", environment: [:], isRoot: false)
        }
    }

    /// `--socket-group` with a configured socket in a directory that was already there (`/run`, `/tmp`): the
    /// socket gets the group, the directory keeps its own, though the daemon owns it.
    @Test func sharingLeavesADirectoryThatIsNotTheDaemonsOwn() throws {
        let dir = try TemporaryDirectory("ls-ctl")
        let path = dir.file("control.sock")
        #expect(try !ControlSocketPath.prepareDirectory(for: path))
        let server = try ControlServer(path: path, handler: RecordingHandler())
        defer { withExtendedLifetime(server) {} }
        var before = stat()
        #expect(stat(dir.path, &before) == 0)
        let group = before.st_gid == 0 ? gid_t(29) : 0
        try ControlSocketPath.share(path, withGroup: group, directoryToo: false)
        var directory = stat(), socket = stat()
        #expect(stat(dir.path, &directory) == 0 && stat(path, &socket) == 0)
        #expect(directory.st_gid == before.st_gid)
        #expect(socket.st_gid == group)
        // A directory made for the socket is its own, and goes to the group too.
        let own = dir.file("own/control.sock")
        #expect(try ControlSocketPath.prepareDirectory(for: own))
        let ownServer = try ControlServer(path: own, handler: RecordingHandler())
        defer { withExtendedLifetime(ownServer) {} }
        try ControlSocketPath.share(own, withGroup: group, directoryToo: true)
        #expect(stat(dir.file("own"), &directory) == 0 && directory.st_gid == group)
    }

    @Test func xdgDirectoryIsCreated() throws {
        let dir = try TemporaryDirectory("ls-ctl")
        let path = try ControlSocketPath.resolve(configured: "", environment: ["XDG_RUNTIME_DIR": dir.path])
        try ControlSocketPath.prepareDirectory(for: path)
        var info = stat()
        #expect(stat(dir.file("lightshow"), &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFDIR)
        try ControlSocketPath.prepareDirectory(for: path)  // already there: fine
    }
}
