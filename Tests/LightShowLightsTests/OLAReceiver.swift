import Foundation
import TestSupport
import Testing

/// A real sACN and Art-Net receiver: olad, as its `olad` user, in a private network namespace that this object
/// creates and deletes (README, "Real lights"). E1.31 listens on a veth pair (it won't bind to loopback), Art-Net on
/// 127.0.0.1 inside the namespace; OLA universe 1 takes E1.31 universe 1, universe 2 takes Art-Net port
/// address 2. Nothing here sends outside the namespace.
final class OLAReceiver: @unchecked Sendable {
    /// Root and every tool the recipe needs.
    static var isUsable: Bool {
        getuid() == 0 && ["/usr/bin/olad", "/usr/bin/ola_dev_info", "/usr/bin/ola_patch", "/usr/sbin/runuser", "/usr/bin/python3"]
            .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
            && ((try? ExternalTool.run("ip", ["-V"])) != nil)
            && ((try? ExternalTool.run("/usr/bin/python3", ["-c", "import ola.ClientWrapper"])) != nil)
    }

    let namespace: NetworkNamespace
    let directory: TemporaryDirectory
    private var olad: Process?
    private var monitor: Process?

    init() throws {
        namespace = try NetworkNamespace(prefix: "lstest")
        directory = try TemporaryDirectory("lightshow-ola")
        do {
            try setUp()
        } catch {
            tearDown()
            throw error
        }
    }

    deinit {
        tearDown()
    }

    var logPath: String { directory.file("olad.log") }

    /// Runs `arguments` inside the namespace to completion; its stdout (throws with stderr on failure).
    @discardableResult
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        try namespace.run(arguments, environment: environment)
    }

    /// Starts recording every DMX update of `universes` as JSON lines (`{"u":1,"d":[…]}`); returns once the
    /// client is registered.
    func startMonitor(universes: [Int]) throws {
        let script = directory.file("monitor.py")
        try Data(Self.monitorScript.utf8).write(to: URL(fileURLWithPath: script))
        let output = directory.file("monitor.jsonl")
        monitor = try start(["/usr/bin/python3", script] + universes.map(String.init), output: output)
        guard Wait.until(timeout: 15, { (try? String(contentsOfFile: output, encoding: .utf8))?.contains("ready") == true }) else {
            throw OLAFailure("the OLA monitor did not register: \(log())")
        }
    }

    /// The distinct successive states (first `channels` channels) the monitor saw for `universe`.
    func states(of universe: Int, channels: Int) -> [[Int]] {
        let text = (try? String(contentsOfFile: directory.file("monitor.jsonl"), encoding: .utf8)) ?? ""
        var states: [[Int]] = []
        for line in text.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["u"] as? Int == universe, let data = object["d"] as? [Int] else { continue }
            let state = (data + Array(repeating: 0, count: channels)).prefix(channels).map { $0 }
            if states.last != state { states.append(state) }
        }
        return states
    }

    func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    private func setUp() throws {
        try namespace.addMulticastLink()

        // Config before the first start; every plugin but E1.31 and Art-Net off, so olad starts fast and quiet.
        let conf = directory.file("conf")
        try FileManager.default.createDirectory(atPath: conf, withIntermediateDirectories: true)
        let others = ["dummy", "espnet", "ftdidmx", "gpio", "karate", "kinet", "milinst", "opendmx", "openpixelcontrol",
                      "osc", "pathport", "renard", "sandnet", "shownet", "spi", "stageprofi", "uartdmx", "usbdmx", "usbserial"]
        for plugin in others {
            try Data("enabled = false\n".utf8).write(to: URL(fileURLWithPath: "\(conf)/ola-\(plugin).conf"))
        }
        try Data("enabled = true\nip = 10.231.0.1\n".utf8).write(to: URL(fileURLWithPath: "\(conf)/ola-e131.conf"))
        try Data("enabled = true\nip = 127.0.0.1\nuse_loopback = true\n".utf8).write(to: URL(fileURLWithPath: "\(conf)/ola-artnet.conf"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        try ExternalTool.run("chown", ["-R", "olad", conf])

        olad = try start(["runuser", "-u", "olad", "--", "olad", "-c", conf, "--no-http", "-l", "3"], output: logPath)
        var devices = ""
        let ready = Wait.until(timeout: 20) {
            devices = (try? run(["ola_dev_info"])) ?? ""
            return devices.contains("E1.31") && devices.contains("ArtNet")
        }
        guard ready else { throw OLAFailure("olad did not come up: \(log())") }
        // Device numbers are handed out at start: find them by name.
        for (name, universe) in [("E1.31", 1), ("ArtNet", 2)] {
            guard let device = Self.deviceNumber(named: name, in: devices) else {
                throw OLAFailure("no \(name) device in:\n\(devices)")
            }
            try run(["ola_patch", "-d", String(device), "-p", "0", "-i", "-u", String(universe)])
        }
    }

    private static func deviceNumber(named name: String, in listing: String) -> Int? {
        for line in listing.split(separator: "\n") where line.hasPrefix("Device ") && line.contains(name) {
            return Int(line.dropFirst("Device ".count).prefix { $0.isNumber })
        }
        return nil
    }

    private func start(_ arguments: [String], output: String) throws -> Process {
        try namespace.start(arguments, output: output)
    }

    /// Stops what this receiver started (by process id: the monitor, olad, and anything else left in its own
    /// namespace), then deletes the namespace. Safe to call twice.
    private func tearDown() {
        for process in [monitor, olad].compactMap({ $0 }) where process.isRunning {
            process.terminate()
            _ = Wait.until(timeout: 5) { !process.isRunning }
        }
        monitor = nil
        olad = nil
        // Children of runuser live in the namespace too; deleting it kills those.
        namespace.delete()
    }

    private static let monitorScript = #"""
    import json, sys
    from ola.ClientWrapper import ClientWrapper
    wrapper = ClientWrapper()
    client = wrapper.Client()
    def recorder(universe):
        def record(data):
            print(json.dumps({"u": universe, "d": list(data[:16])}), flush=True)
        return record
    pending = set(map(int, sys.argv[1:]))
    def registered(universe):
        def done(status):
            pending.discard(universe)
            if not pending:
                print("ready", flush=True)
        return done
    for universe in list(pending):
        client.RegisterUniverse(universe, client.REGISTER, recorder(universe), registered(universe))
    wrapper.Run()
    """#
}

/// The OLA receiver could not be set up.
struct OLAFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
