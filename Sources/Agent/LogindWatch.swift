import CLogind

/// Locks the agent when logind says the session locks (`Session.Lock`, of any session: locking
/// too often only means being asked again) or the machine is about to sleep
/// (`Manager.PrepareForSleep(true)`). Without a system bus or GIO the agent locks on its timers
/// only, and says so (`status`).
enum LogindWatch {
    /// Starts watching for `server`; nil when watching, else why not.
    static func start(for server: AgentServer) -> String? {
        var error = [CChar](repeating: 0, count: 256)
        let context = Unmanaged.passRetained(server).toOpaque()
        guard clogind_watch({ context, _ in
            guard let context else { return }
            Unmanaged<AgentServer>.fromOpaque(context).takeUnretainedValue().lockNow()
        }, context, &error, UInt(error.count)) == 0 else {
            Unmanaged<AgentServer>.fromOpaque(context).release()
            return String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }
}
