import Glibc
import Launch
import Sodium

/// `credctl` run by ssh or ssh-add as their `SSH_ASKPASS`: asks the `credctl ssh` that started
/// them (`AskpassServer`) for the answer to the prompt, with the token it was given. A prompt
/// no stored secret answers goes to the user's terminal, as ssh would have asked it there.
/// Prints the answer and a newline; exits 1 when there is none.
enum AskpassClient {
    static func run(prompt: String, socket path: String, token: String, environment: [String: String]) -> Int32 {
        // A notification (a security key waiting for a touch): nothing to answer.
        if environment["SSH_ASKPASS_PROMPT"] == "none" { return 0 }
        switch ask(prompt: prompt, socket: path, token: token) {
        case .answered(let secret):
            Output.secret(secret)
            Output.out("\n")
            return 0
        case .refused:
            return 1
        case .terminal:
            let question = AskpassPrompt.isQuestion(prompt)
            guard let answer = try? TerminalPrompt.ask(prompt: prompt, echo: question, what: "answer") else { return 1 }
            Output.secret(answer)
            Output.out("\n")
            return 0
        }
    }

    private enum Outcome {
        case answered(SecretBytes)
        case terminal
        case refused
    }

    private static func ask(prompt: String, socket path: String, token: String) -> Outcome {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .terminal }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return .terminal }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return .terminal }
        let request = Array((token + "\n" + prompt).utf8)
        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return .terminal }
            sent += n
        }
        shutdown(fd, Int32(SHUT_WR))
        var head: UInt8 = 0
        guard recv(fd, &head, 1, 0) == 1, let kind = AskpassReply(rawValue: head) else { return .terminal }
        switch kind {
        case .refused: return .refused
        case .askTerminal: return .terminal
        case .answer:
            guard let answer = try? SecretInput.readAll(fd: fd, what: "answer") else { return .refused }
            return .answered(answer)
        }
    }
}
