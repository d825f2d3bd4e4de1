import Foundation
import TestSupport

/// A fake MPRIS player written with python3-dbus, on a test's session bus, for what real players do only now and
/// then: say everything wrong, or answer too late.
final class ScriptedPlayer: @unchecked Sendable {
    /// Says everything wrong: wrong types, a megabyte title full of control characters, nesting 30 variants deep,
    /// an endless stream of PropertiesChanged. Its `Behave` method turns it into a well-formed player, so a test
    /// can prove the client still follows after the abuse.
    static let hostile = #"""
import sys, dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
IFACE = "org.mpris.MediaPlayer2.Player"
state = {"good": False}

def props():
    if state["good"]:
        return {"PlaybackStatus": dbus.String("Playing", variant_level=1),
                "Metadata": dbus.Dictionary({"xesam:title": dbus.String("Fine Now", variant_level=1),
                                             "mpris:length": dbus.Int64(5000000, variant_level=1)}, signature="sv"),
                "Position": dbus.Int64(1000000), "CanControl": dbus.Boolean(True)}
    huge = "\x1b]0;pwned\x07\x1b[2J" + "A" * (1 << 20) + "\x9b31m"
    deep = dbus.String("deep", variant_level=30)
    wide = dbus.Array([dbus.String("x")] * 100000, signature="s")
    nested = dbus.Array([dbus.Array([dbus.Array([dbus.Int32(1)], signature="i")], signature="ai")], signature="aai")
    return {"PlaybackStatus": dbus.Int32(7),
            "Metadata": dbus.Dictionary({"xesam:title": dbus.String(huge), "xesam:artist": dbus.Int32(5),
                                         "mpris:length": dbus.String("long"), "xesam:url": deep,
                                         "x:wide": wide, "x:nested": nested, "x:deep": deep}, signature="sv"),
            "Position": dbus.Double(float("nan")), "CanControl": dbus.String("yes")}

class Player(dbus.service.Object):
    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return props() if interface == IFACE else {}

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return props()[name]

    @dbus.service.signal(dbus.PROPERTIES_IFACE, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    @dbus.service.method(IFACE)
    def Behave(self):
        state["good"] = True
        self.PropertiesChanged(IFACE, {"PlaybackStatus": "Playing"}, [])

bus = dbus.SessionBus()
name = dbus.service.BusName("org.mpris.MediaPlayer2." + sys.argv[1], bus)
player = Player(bus, "/org/mpris/MediaPlayer2")
def spam():
    # A flood of change signals, some with garbage for the interface name.
    for i in range(50):
        player.PropertiesChanged(IFACE if i % 2 else "\x01junk", {"PlaybackStatus": dbus.Int32(i)}, [])
    return not state["good"]
GLib.timeout_add(20, spam)
print("ready", flush=True)
GLib.MainLoop().run()
"""#

    /// Playing "Slow Tone", but its first `GetAll` answers only after 1.5 s (past the client's 1 s); 2.5 s after it
    /// starts it pauses and says so once, and then says nothing more.
    static let slow = #"""
import sys, time, dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
IFACE = "org.mpris.MediaPlayer2.Player"
state = {"status": "Playing", "calls": 0}

class Player(dbus.service.Object):
    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        state["calls"] += 1
        if state["calls"] == 1:
            time.sleep(1.5)
        return {"PlaybackStatus": dbus.String(state["status"], variant_level=1),
                "Metadata": dbus.Dictionary({"xesam:title": dbus.String("Slow Tone", variant_level=1)}, signature="sv"),
                "CanControl": dbus.Boolean(True)}

    @dbus.service.signal(dbus.PROPERTIES_IFACE, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

bus = dbus.SessionBus()
name = dbus.service.BusName("org.mpris.MediaPlayer2." + sys.argv[1], bus)
player = Player(bus, "/org/mpris/MediaPlayer2")
def pause():
    state["status"] = "Paused"
    player.PropertiesChanged(IFACE, {"PlaybackStatus": "Paused"}, [])
    return False
GLib.timeout_add(2500, pause)
GLib.MainLoop().run()
"""#

    let name: String
    private let process: Process
    private let directory: TemporaryDirectory

    /// Starts `script` (`ScriptedPlayer.hostile`, `.slow`) as `org.mpris.MediaPlayer2.<name>` on `bus`.
    init(_ script: String, name: String, bus: SessionBus) throws {
        self.name = name
        directory = try TemporaryDirectory()
        let path = try directory.write("player.py", Data(script.utf8))
        // Debian's python3, where python3-dbus and python3-gi live (a pyenv on the PATH has neither).
        process = try Launch.start(["/usr/bin/python3", path, name], environment: bus.environment,
                                   standardError: FileHandle.standardError)
    }

    /// Calls the hostile player's `Behave`: it turns well-formed and playing.
    func behave(on bus: SessionBus) throws {
        try ExternalTool.run("dbus-send", ["--session", "--type=method_call", "--print-reply",
                                           "--dest=org.mpris.MediaPlayer2.\(name)", "/org/mpris/MediaPlayer2",
                                           "org.mpris.MediaPlayer2.Player.Behave"], environment: bus.environment)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
