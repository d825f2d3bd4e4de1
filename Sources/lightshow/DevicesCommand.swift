import ArgumentParser
import LightShowAudio
import LightShowCore
import LightShowSystem

struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List capture inputs: PulseAudio/PipeWire sources for --input pulse:, ALSA devices for --input alsa:",
        discussion: """
        `--input pulse` records the monitor of the default sink (what plays) and follows it when the output \
        changes; `--input pulse:NAME` records one source. `alsa:pulse` goes through ALSA's pulse plugin, which \
        records the server's default source: on a desktop, the microphone.

        Examples:
          lightshow devices
          lightshow watch --input pulse
          lightshow watch --input pulse:alsa_output.pci-0000_00_1f.3.analog-stereo.monitor
          lightshow watch --input alsa:plughw:CARD=USB,DEV=0
        """
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        // Asking the sound server and ALSA blocks (a server that is slow to answer): on a thread of its own.
        let lines = try await DedicatedThread.complete(name: "ls-devices") { [self] in pulseLines() + [""] + alsaLines() }
        print(lines.joined(separator: "\n"))
    }

    private func pulseLines() -> [String] {
        let list: PulseDeviceList
        do {
            try PulseLibrary.load()
        } catch {
            return ["\(error.message): --input pulse is not available."]
        }
        do {
            list = try PulseDeviceList.current()
        } catch {
            return ["No PulseAudio or PipeWire server answers (\(SafeText.sanitized(error.message, limit: 200))): --input pulse has nothing to record."]
        }
        let all = list.monitors + list.sources
        let width = all.map { SafeText.sanitized($0.name, limit: 200).count }.max() ?? 0
        func line(_ device: PulseDeviceList.Device) -> String {
            let name = SafeText.sanitized(device.name, limit: 200)
            var notes: [String] = []
            if let sink = device.monitoredSink, sink == list.defaultSink { notes.append("what --input pulse records now") }
            if device.name == list.defaultSource { notes.append("default source") }
            let description = device.description + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
            return "  pulse:" + name + String(repeating: " ", count: width - name.count + 2) + description
        }
        var lines = ["Sound server: \(list.server)"]
        if let recorded = list.recordedByPulse {
            lines.append("--input pulse records \(SafeText.sanitized(recorded, limit: 200)), the monitor of the default sink, and follows it.")
        } else {
            lines.append("--input pulse has nothing to record now: the server has no default sink with a monitor.")
        }
        lines.append("")
        lines.append(list.monitors.isEmpty ? "No sink monitors." : "Sink monitors (what plays):")
        lines += list.monitors.map(line)
        lines.append(list.sources.isEmpty ? "No other sources." : "Sources (microphones and line inputs):")
        lines += list.sources.map(line)
        return lines
    }

    private func alsaLines() -> [String] {
        let list = ALSADeviceList.current()
        let width = (list.cardDevices + list.configuredDevices).map { $0.name.count }.max() ?? 0
        func line(_ device: ALSADeviceList.Device) -> String {
            let name = "alsa:" + device.name
            // A PCM that runs programs or writes files is the admin's to name; clients are never offered it.
            let risk = ALSAPCMDefinition.inspect(device.name).risk.map { " [not offered to clients: \($0)]" } ?? ""
            guard !device.description.isEmpty || !risk.isEmpty else { return "  " + name }
            return "  " + name + String(repeating: " ", count: width - device.name.count + 2) + device.description + risk
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
            lines.append("Capture devices from the ALSA configuration (alsa:pulse records the server's default source, often a microphone):")
            lines += list.configuredDevices.map(line)
        }
        return lines
    }
}
