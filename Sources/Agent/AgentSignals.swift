import CPosix
import Glibc
import SystemErrors
import Threads

/// SIGTERM, SIGINT and SIGHUP end the agent cleanly: keys wiped, socket removed.
///
/// A signal handler may do almost nothing safely, so the handler (in C, `CPosix`) only writes the
/// signal's number to a pipe; a thread of its own reads it and stops the server.
public enum AgentSignals {
    public static func stopOnTermination(_ server: AgentServer) throws(AgentError) {
        var ends: [Int32] = [-1, -1]
        guard cposix_pipe_cloexec(&ends) == 0 else { throw AgentError("Cannot watch for termination signals (\(SystemError.describe(errno))).") }
        let reading = ends[0]
        let started = DetachedThread.start {
            var number: UInt8 = 0
            while true {
                let count = read(reading, &number, 1)
                if count == 1 { server.stop() } else if count < 0 && errno == EINTR { continue } else { return }
            }
        }
        guard started else {
            close(reading)
            close(ends[1])
            throw AgentError("Cannot start a thread to watch for termination signals.")
        }
        guard cposix_forward_stop_signals(ends[1]) == 0 else {
            throw AgentError("Cannot watch for termination signals (\(SystemError.describe(errno))).")
        }
    }
}
