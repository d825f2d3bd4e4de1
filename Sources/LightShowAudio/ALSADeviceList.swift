import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// The capture devices ALSA knows: named PCMs from its configuration (hints) and the capture devices of each card.
public struct ALSADeviceList: Sendable {
    /// One capture PCM, with the name to paste after `--input alsa:`.
    public struct Device: Sendable, Equatable {
        public var name: String
        public var description: String
    }

    /// Sound cards present (`hw:` devices with capture).
    public var cardDevices: [Device]
    /// PCMs from the ALSA configuration (`default`, `pulse`, `dsnoop:…`) that can capture.
    public var configuredDevices: [Device]
    /// Number of sound cards found, with or without capture.
    public var cardCount: Int

    /// Reads the current list from libasound.
    public static func current() -> ALSADeviceList {
        var cards = 0
        var cardDevices: [Device] = []
        var card: Int32 = -1
        while snd_card_next(&card) == 0, card >= 0 {
            cards += 1
            cardDevices += captureDevices(ofCard: card)
        }
        return ALSADeviceList(cardDevices: cardDevices, configuredDevices: hints(), cardCount: cards)
    }

    /// PCM hints whose direction includes input.
    private static func hints() -> [Device] {
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) == 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var devices: [Device] = []
        var index = 0
        while let hint = hints[index] {
            index += 1
            let name = take(snd_device_name_get_hint(hint, "NAME"))
            let description = take(snd_device_name_get_hint(hint, "DESC")) ?? ""
            let direction = take(snd_device_name_get_hint(hint, "IOID"))
            // IOID is absent for PCMs that do both directions.
            guard let name, direction == nil || direction == "Input" else { continue }
            let oneLine = description.split(separator: "\n").map { $0.trimmingSpaces }.joined(separator: ", ")
            devices.append(Device(name: name, description: oneLine))
        }
        return devices
    }

    /// `hw:CARD=ID,DEV=N` for each capture device of `card`, and its `plughw:` twin that converts formats.
    private static func captureDevices(ofCard card: Int32) -> [Device] {
        var control: OpaquePointer?
        guard snd_ctl_open(&control, "hw:\(card)", 0) == 0, let control else { return [] }
        defer { snd_ctl_close(control) }
        var info: OpaquePointer?
        var pcmInfo: OpaquePointer?
        guard snd_ctl_card_info_malloc(&info) == 0, snd_pcm_info_malloc(&pcmInfo) == 0, let info, let pcmInfo else { return [] }
        defer {
            snd_ctl_card_info_free(info)
            snd_pcm_info_free(pcmInfo)
        }
        guard snd_ctl_card_info(control, info) == 0 else { return [] }
        let id = String(cString: snd_ctl_card_info_get_id(info))
        let cardName = String(cString: snd_ctl_card_info_get_name(info))
        var devices: [Device] = []
        var device: Int32 = -1
        while snd_ctl_pcm_next_device(control, &device) == 0, device >= 0 {
            snd_pcm_info_set_device(pcmInfo, UInt32(device))
            snd_pcm_info_set_subdevice(pcmInfo, 0)
            snd_pcm_info_set_stream(pcmInfo, SND_PCM_STREAM_CAPTURE)
            guard snd_ctl_pcm_info(control, pcmInfo) == 0 else { continue }
            let pcmName = String(cString: snd_pcm_info_get_name(pcmInfo))
            let description = "\(cardName): \(pcmName) (card \(card), device \(device))"
            devices.append(Device(name: "hw:CARD=\(id),DEV=\(device)", description: description + ", raw"))
            devices.append(Device(name: "plughw:CARD=\(id),DEV=\(device)", description: description + ", any format"))
        }
        return devices
    }

    /// Takes ownership of a malloc'ed C string.
    private static func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
