import CPosix
import Glibc
import Sodium
import Synchronization
import SystemErrors
import Threads
import UnixSockets

/// Answers ssh's and ssh-add's password prompts from stored secrets without handing the secrets
/// to them: a child gets only a socket path and a token (`CREDCTL_ASKPASS_SOCKET`,
/// `CREDCTL_ASKPASS_TOKEN`) and runs `credctl` as its `SSH_ASKPASS`, which asks here.
///
/// The socket lives in a fresh 0700 directory and accepts only this user (`SO_PEERCRED`). Each
/// secret answers the first prompt it matches, once. Any later prompt matching an answer
/// already given (a wrong stored password, or a server asking again on purpose) goes to the
/// user's terminal, never to the next stored secret with the same prompt. `stop()` removes the
/// socket and its directory.
public final class AskpassServer: @unchecked Sendable {
    public static let socketVariable = "CREDCTL_ASKPASS_SOCKET"
    public static let tokenVariable = "CREDCTL_ASKPASS_TOKEN"
    /// The longest request read: a token line and a prompt.
    static let requestLimit = 8_192

    private struct Grant {
        let prompt: AskpassPrompt
        let secret: SecretBytes
        var used = false
    }

    public let socketPath: String
    private let directory: String
    private let listener: Int32
    private let grants = Mutex<[String: [Grant]]>([:])
    private let done = Completion()

    /// Listens in a new private directory under `parent` (`$XDG_RUNTIME_DIR`, else `/tmp`).
    public init(parent: String) throws {
        var template = Array("\(parent)/credctl-askpass-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw LaunchError("Cannot create a private directory in \(parent) (\(SystemError.describe(errno))).") }
        directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        socketPath = directory + "/askpass.sock"
        do {
            listener = try UnixSocket.listen(at: socketPath)
        } catch {
            rmdir(directory)
            throw LaunchError("Cannot listen on the askpass socket: \(error)")
        }
        guard DetachedThread.start({ [self] in serve() }) else {
            close(listener)
            unlink(socketPath)
            rmdir(directory)
            throw LaunchError("Cannot start a thread to answer password prompts.")
        }
    }

    /// A new token whose prompts `answers` may answer, once each.
    public func grant(_ answers: [(prompt: AskpassPrompt, secret: SecretBytes)]) throws -> String {
        let token = try SecretBytes.random(count: 24).withUnsafeBytes { $0.map { byte in String(byte, radix: 16).leftPadded(to: 2) }.joined() }
        grants.withLock { $0[token] = answers.map { Grant(prompt: $0.prompt, secret: $0.secret) } }
        return token
    }

    /// The variables a child needs to ask here with `token`.
    public func environment(token: String, askpass program: String) -> [String: String] {
        ["SSH_ASKPASS": program, "SSH_ASKPASS_REQUIRE": "force", Self.socketVariable: socketPath, Self.tokenVariable: token]
    }

    /// Stops answering, removes the socket and its directory, and forgets every secret.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        done.wait()
        unlink(socketPath)
        rmdir(directory)
        grants.withLock { $0.removeAll() }
    }

    private func serve() {
        defer { done.signal() }
        while true {
            let connection = cposix_accept_cloexec(listener)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            answer(connection)
            close(connection)
        }
    }

    private func answer(_ connection: Int32) {
        guard UnixSocket.peerIsThisUser(connection) else { return reply(connection, .refused, nil) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1_024)
        while request.count < Self.requestLimit {
            let n = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            request += chunk[..<n]
        }
        guard let newline = request.firstIndex(of: 0x0A) else { return reply(connection, .refused, nil) }
        let token = String(decoding: request[..<newline], as: UTF8.self)
        let prompt = String(decoding: request[(newline + 1)...], as: UTF8.self)
        let outcome: (AskpassReply, SecretBytes?) = grants.withLock { grants in
            guard var list = grants[token] else { return (.refused, nil) }
            let matching = list.indices.filter { list[$0].prompt.matches(prompt) }
            guard let index = matching.first, !list[index].used else { return (.askTerminal, nil) }
            list[index].used = true
            grants[token] = list
            return (.answer, list[index].secret)
        }
        reply(connection, outcome.0, outcome.1)
    }

    private func reply(_ connection: Int32, _ kind: AskpassReply, _ secret: SecretBytes?) {
        var head = kind.rawValue
        _ = send(connection, &head, 1, Int32(MSG_NOSIGNAL))
        secret?.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = send(connection, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                guard n > 0 else { return }
                offset += n
            }
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
