import Foundation
import Synchronization

/// Samples every process's arguments and environment, again and again on a thread of its own,
/// while a command runs, so children that live a few milliseconds (`ssh-add`, an askpass
/// helper) are seen too. Records only where a secret was found, never what.
public final class ProcessSampler: @unchecked Sendable {
    private let state = Mutex<(running: Bool, samples: Int, programs: Set<String>, findings: [String])>((true, 0, [], []))
    private let done = DispatchSemaphore(value: 0)

    public init(secrets: [[UInt8]]) {
        let needles = SecretScan.needles(secrets)
        Thread.detachNewThread { [self] in
            while state.withLock({ $0.running }) {
                for process in SecretScan.processes() {
                    let found = SecretScan.find(needles, in: process.bytes)
                    state.withLock { state in
                        state.programs.insert(process.program)
                        let finding = found.map { "\($0) in the arguments or environment of pid \(process.pid) (\(process.program))" }
                        if let finding, !state.findings.contains(finding) { state.findings.append(finding) }
                    }
                }
                state.withLock { $0.samples += 1 }
                // A breath between passes: a child living a few milliseconds is still seen.
                usleep(500)
            }
            done.signal()
        }
    }

    /// Stops sampling; returns how many full passes over /proc were made, every program seen,
    /// and the findings.
    public func stop() -> (samples: Int, programs: Set<String>, findings: [String]) {
        state.withLock { $0.running = false }
        done.wait()
        return state.withLock { ($0.samples, $0.programs, $0.findings) }
    }
}
