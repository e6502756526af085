import Foundation
import XCTest

/// logind's signals lock the agent: `Session.Lock` and `Manager.PrepareForSleep(true)`, emitted on
/// a private system bus the test starts by a fake logind that owns `org.freedesktop.login1`.
final class AgentLogindTests: AgentTestCase {
    private var busPID: pid_t?

    override func tearDownWithError() throws {
        try super.tearDownWithError()
        if let busPID { kill(busPID, SIGTERM) }
    }

    private func startSystemBus() throws -> String {
        let socket = directory + "/system_bus"
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
              </policy>
            </busconfig>
            """
        try config.write(toFile: directory + "/system.conf", atomically: true, encoding: .utf8)
        // The daemon outlives this call: it must hold none of the pipes the test reads to their end
        // (Foundation leaves other descriptors open in children), so all past 2 are closed first.
        let pidFile = directory + "/bus.pid"
        let script = """
            for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null
            exec dbus-daemon --config-file="$1" --fork --print-pid > "$2" 2>/dev/null </dev/null
            """
        let started = try runApart(["/bin/bash", "-c", script, "bash", directory + "/system.conf", pidFile], environment: ["PATH": "/usr/bin:/bin"])
        busPID = pid_t(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertNotNil(busPID, started.stderr)
        return "unix:path=" + socket
    }

    /// Emits one of logind's signals as logind would: from the owner of its name.
    private func emit(_ what: String, bus: String) throws {
        let script = """
            import sys, dbus, dbus.service
            from dbus.mainloop.glib import DBusGMainLoop
            from gi.repository import GLib
            DBusGMainLoop(set_as_default=True)
            bus = dbus.SystemBus()
            name = dbus.service.BusName("org.freedesktop.login1", bus)
            class Session(dbus.service.Object):
                @dbus.service.signal("org.freedesktop.login1.Session", signature="")
                def Lock(self): pass
            class Manager(dbus.service.Object):
                @dbus.service.signal("org.freedesktop.login1.Manager", signature="b")
                def PrepareForSleep(self, start): pass
            if sys.argv[1] == "lock":
                Session(bus, "/org/freedesktop/login1/session/c1").Lock()
            else:
                Manager(bus, "/org/freedesktop/login1").PrepareForSleep(sys.argv[1] == "sleep")
            loop = GLib.MainLoop()
            GLib.timeout_add(300, loop.quit)
            loop.run()
            """
        let result = try runApart(["/usr/bin/python3", "-c", script, what], environment: ["PATH": "/usr/bin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": bus])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testTheSessionLockingAndTheMachineSleepingLockTheAgent() throws {
        let bus = try startSystemBus()
        credctl.environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus
        try unlock()
        usleep(300_000)  // the agent subscribes on its own thread
        try emit("wake", bus: bus)
        XCTAssertEqual(try agentState(), "unlocked", "waking from sleep locks nothing")
        try emit("lock", bus: bus)
        try waitForState("locked")
        assertStatus(try credctl.run("read", "cred://host/db/password"), 77)

        try unlock()
        XCTAssertEqual(try credctl.run("read", "cred://host/db/password").output, "s3cret")
        try emit("sleep", bus: bus)
        try waitForState("locked")
    }
}
