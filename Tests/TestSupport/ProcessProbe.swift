import Foundation

/// What /proc says about a process the tests did not start themselves (one in a tmux pane).
public enum ProcessProbe {
    /// The stat fields from the state on (field 3 of proc(5) is index 0); nil once the process is reaped.
    private static func stat(_ pid: pid_t) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(whereSeparator: { $0 == " " || $0 == "\n" })
    }

    /// True once `pid` is a zombie or gone.
    public static func hasExited(_ pid: pid_t) -> Bool {
        guard let fields = stat(pid) else { return true }
        return fields.first == "Z"
    }

    /// A zombie's wait status (proc(5) field 52), nil while it runs or once reaped.
    public static func waitStatus(ofZombie pid: pid_t) -> Int32? {
        guard let fields = stat(pid), fields.first == "Z", fields.count >= 50 else { return nil }
        return Int32(fields[49])
    }

    /// The first process below `pid` (depth first) whose command name is `name`.
    public static func descendant(of pid: pid_t, named name: String) -> pid_t? {
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ pid_t($0) }) {
            let command = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? ""
            if command.trimmingCharacters(in: .whitespacesAndNewlines) == name { return child }
            if let found = descendant(of: child, named: name) { return found }
        }
        return nil
    }
}
