import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private network namespace with its loopback up, made by `init` and deleted (with every process left in it)
/// by `delete()` or deinit: traffic a test makes there never leaves the machine's own stack. Needs root and `ip`.
public final class NetworkNamespace: @unchecked Sendable {
    public let name: String

    public init(prefix: String) throws {
        name = "\(prefix)\(getpid())x\(UInt32.random(in: 0...UInt32.max))"
        try ExternalTool.run("ip", ["netns", "add", name])
        do {
            try ExternalTool.run("ip", ["-n", name, "link", "set", "lo", "up"])
        } catch {
            delete()
            throw error
        }
    }

    deinit { delete() }

    /// `arguments` as a command line that runs inside the namespace.
    public func command(_ arguments: [String]) -> [String] {
        ["ip", "netns", "exec", name] + arguments
    }

    /// Runs `arguments` inside the namespace to completion; its stdout (throws with stderr on failure).
    @discardableResult
    public func run(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        try ExternalTool.run("ip", Array(command(arguments).dropFirst()), environment: environment)
    }

    /// Starts `arguments` inside the namespace, its stdout and stderr going to the file `output`.
    public func start(_ arguments: [String], output: String) throws -> Process {
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        return try Launch.start(command(arguments), standardOutput: handle, standardError: handle)
    }

    /// A veth pair inside the namespace, v0 at 10.231.0.1 and v1 at 10.231.0.2, with multicast routed out of v0:
    /// for receivers that won't join a group on loopback (OLA's E1.31, WLED's audio sync). Returns v0's address.
    @discardableResult
    public func addMulticastLink() throws -> String {
        let ns = ["-n", name]
        try ExternalTool.run("ip", ns + ["link", "add", "v0", "type", "veth", "peer", "name", "v1"])
        try ExternalTool.run("ip", ns + ["addr", "add", "10.231.0.1/24", "dev", "v0"])
        try ExternalTool.run("ip", ns + ["addr", "add", "10.231.0.2/24", "dev", "v1"])
        try ExternalTool.run("ip", ns + ["link", "set", "v0", "up"])
        try ExternalTool.run("ip", ns + ["link", "set", "v1", "up"])
        try ExternalTool.run("ip", ns + ["route", "add", "239.0.0.0/8", "dev", "v0"])
        return "10.231.0.1"
    }

    /// The resolv.conf that programs started through `ip netns exec` read (it mounts /etc/netns/NAME over /etc).
    public func setResolverConfiguration(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: "/etc/netns/\(name)", withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: "/etc/netns/\(name)/resolv.conf"))
    }

    /// Kills what still runs inside (`ip netns pids` names exactly those), then deletes the namespace and its
    /// /etc/netns directory. Safe to call twice.
    public func delete() {
        if let pids = try? ExternalTool.run("ip", ["netns", "pids", name]) {
            for pid in pids.split(separator: "\n").compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
        }
        _ = try? ExternalTool.run("ip", ["netns", "del", name])
        try? FileManager.default.removeItem(atPath: "/etc/netns/\(name)")
    }
}
