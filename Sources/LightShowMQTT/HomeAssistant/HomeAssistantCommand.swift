public import LightShowControl
import LightShowCore

/// A message on one of lightshow's topics, read into what the daemon's command handler takes. Everything here came
/// from the broker: each field is checked, and a bad message is an error that names the topic and what was expected.
public enum HomeAssistantCommand: Equatable, Sendable {
    /// Control commands to run in order (the same ones `lightshow ctl` sends).
    case control([ControlRequest])
    /// Home Assistant (re)started: publish configs and states again.
    case homeAssistantOnline
    /// Nothing to do (Home Assistant going `offline`).
    case none

    public struct Invalid: Error, Equatable, Sendable {
        public var message: String
    }

    /// Longest input name accepted from the select.
    static let maximumInputBytes = 512

    public static func parse(_ message: MQTTMessage, topics: HomeAssistantTopics) -> Result<HomeAssistantCommand, Invalid> {
        let topic = message.topic
        switch topic {
        case topics.homeAssistantStatus:
            return .success(text(message) == HomeAssistantState.online ? .homeAssistantOnline : .none)
        case topics.playCommand:
            switch text(message) {
            case "ON": return .success(.control([ControlRequest(command: .play)]))
            case "OFF": return .success(.control([ControlRequest(command: .pause)]))
            default: return invalid(message, #"expected "ON" or "OFF""#)
            }
        case topics.reloadCommand:
            guard text(message) == "PRESS" else { return invalid(message, #"expected "PRESS""#) }
            return .success(.control([ControlRequest(command: .reload)]))
        case topics.inputCommand:
            guard message.payload.count <= maximumInputBytes, let name = text(message), !name.isEmpty else {
                return invalid(message, "expected an input name of at most \(maximumInputBytes) bytes")
            }
            return .success(.control([ControlRequest(command: .setInput, arguments: ["input": .string(name)])]))
        case topics.lightCommand:
            return light(message)
        default:
            return invalid(message, "not a topic lightshow listens to")
        }
    }

    /// Home Assistant's JSON light command: `state`, and optionally `brightness` (0…255) and `color` ({r,g,b}).
    /// Colour and brightness apply before the state, so "on at half brightness" starts at half brightness.
    private static func light(_ message: MQTTMessage) -> Result<HomeAssistantCommand, Invalid> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(message.payload)
        } catch {
            return invalid(message, "expected a JSON object like {\"state\":\"ON\"} (\(error.description))")
        }
        guard case .object(let object) = value else { return invalid(message, #"expected a JSON object like {"state":"ON"}"#) }
        var requests: [ControlRequest] = []
        if let color = object["color"] {
            guard let rgb = channels(color) else {
                return invalid(message, #"expected "color" as {"r":0-255,"g":0-255,"b":0-255}"#)
            }
            requests.append(ControlRequest(command: .setColor, arguments: ["color": .string(rgb.hex)]))
        }
        if let brightness = object["brightness"] {
            guard let level = brightness.numberValue, level.isFinite, (0...255).contains(level) else {
                return invalid(message, #"expected "brightness" as a number 0-255"#)
            }
            requests.append(ControlRequest(command: .setBrightness, arguments: ["brightness": .number(level / 255)]))
        }
        if let state = object["state"] {
            switch state.stringValue {
            case "ON": requests.append(ControlRequest(command: .play))
            case "OFF": requests.append(ControlRequest(command: .stop))
            default: return invalid(message, #"expected "state" as "ON" or "OFF""#)
            }
        }
        guard !requests.isEmpty else { return invalid(message, #"expected "state", "brightness" or "color""#) }
        return .success(.control(requests))
    }

    private static func channels(_ value: JSONValue) -> RGBColor? {
        var parts: [UInt8] = []
        for key in ["r", "g", "b"] {
            guard let number = value[key]?.numberValue, number.isFinite, (0...255).contains(number) else { return nil }
            parts.append(UInt8(number.rounded()))
        }
        return RGBColor(red: parts[0], green: parts[1], blue: parts[2])
    }

    private static func text(_ message: MQTTMessage) -> String? {
        String(validating: message.payload, as: UTF8.self)
    }

    private static func invalid(_ message: MQTTMessage, _ expected: String) -> Result<HomeAssistantCommand, Invalid> {
        .failure(Invalid(message: "MQTT \(SafeText.sanitized(message.topic, limit: 120)): \(expected)"))
    }
}
