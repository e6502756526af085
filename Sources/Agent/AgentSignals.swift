import Dispatch
import Glibc

/// SIGTERM, SIGINT and SIGHUP end the agent cleanly: keys wiped, socket removed.
public enum AgentSignals {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    public static func stopOnTermination(_ server: AgentServer) {
        for number in [SIGTERM, SIGINT, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue.global())
            source.setEventHandler { server.stop() }
            source.resume()
            sources.append(source)
        }
    }
}
