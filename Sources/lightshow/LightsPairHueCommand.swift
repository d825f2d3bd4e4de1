import ArgumentParser
import LightShowCore
import LightShowLights
import LightShowSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct LightsPairHueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair-hue",
        abstract: "Pair with a Philips Hue bridge and list its entertainment areas.",
        discussion: """
        Press the bridge's link button when asked (lightshow keeps asking for 30 seconds). The keys and the bridge's \
        certificate fingerprint are stored in $STATE_DIRECTORY/hue/, else $XDG_STATE_HOME/lightshow/hue/, else \
        ~/.local/state/lightshow/hue/ (mode 0600), never in the config file: pair with the state directory the \
        daemon uses. The certificate is trusted on first use and checked from then on.

        Examples:
          lightshow lights pair-hue 192.168.1.30
          sudo STATE_DIRECTORY=/var/lib/lightshow lightshow lights pair-hue 192.168.1.30
        """
    )

    @Argument(help: ArgumentHelp("The bridge's host name or IP address, optionally with its HTTPS port.", valueName: "HOST[:PORT]"))
    var bridge: String

    func validate() throws {
        guard HostAndPort.parse(bridge, defaultPort: 443) != nil, bridge.unicodeScalars.allSatisfy({ scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-:[]".unicodeScalars.contains(scalar))
        }) else {
            throw ValidationError("expected the bridge as HOST or HOST:PORT such as 192.168.1.30, got \"\(SafeText.sanitized(bridge, limit: 80))\"")
        }
    }

    func run() async throws {
        try await reportingUserErrors {
            guard let (host, port) = HostAndPort.parse(bridge, defaultPort: 443) else { return }
            guard let state = LightsStateDirectory.path(environment: ProcessInfo.processInfo.environment) else {
                throw LightShowError("no state directory to keep the pairing in: set STATE_DIRECTORY, XDG_STATE_HOME or HOME", exitStatus: .config)
            }
            let pairer = HuePairer(host: host, port: port, store: HuePairingStore(stateDirectory: state))
            let areas = try await DedicatedThread.run(name: "ls-hue-pair") { () throws(LightShowError) in
                try pairer.pair { print($0) }
            }
            guard let first = areas.first else {
                print("The bridge has no entertainment areas yet: make one in the Hue app (Settings, Entertainment areas).")
                return
            }
            print("Entertainment areas:")
            for area in areas {
                for line in area.describe() { print("  " + line) }
            }
            print("""
                Use one in the config:
                  [[lights]]
                  protocol = "hue"
                  address = "\(bridge)"
                  area = "\(first.name.isEmpty ? first.id : first.name)"
                """)
        }
    }
}
