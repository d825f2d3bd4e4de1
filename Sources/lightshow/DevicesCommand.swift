import ArgumentParser
import LightShowAudio
import LightShowCore

struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List ALSA capture devices, with names to paste after --input alsa:",
        discussion: """
        Examples:
          lightshow devices
          lightshow watch --input alsa:plughw:CARD=USB,DEV=0
        """
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let list = ALSADeviceList.current()
        let width = (list.cardDevices + list.configuredDevices).map { $0.name.count }.max() ?? 0
        func line(_ device: ALSADeviceList.Device) -> String {
            let name = "alsa:" + device.name
            guard !device.description.isEmpty else { return "  " + name }
            return "  " + name + String(repeating: " ", count: width - device.name.count + 2) + device.description
        }
        var lines: [String] = []
        if list.cardCount == 0 {
            lines.append("No sound card found: only the devices of the ALSA configuration below can capture.")
        } else if list.cardDevices.isEmpty {
            lines.append("\(list.cardCount) sound card(s) found, none with a capture device.")
        } else {
            lines.append("Sound card capture devices:")
            lines += list.cardDevices.map(line)
        }
        lines.append("")
        if list.configuredDevices.isEmpty {
            lines.append("The ALSA configuration defines no capture device.")
        } else {
            lines.append("Capture devices from the ALSA configuration (alsa:pulse captures from PulseAudio/PipeWire):")
            lines += list.configuredDevices.map(line)
        }
        print(lines.joined(separator: "\n"))
    }
}
