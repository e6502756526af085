import Glibc
import Launch

/// Asks the user whether a key may sign, as OpenSSH's agent does for keys added with
/// `ssh-add -c`: the askpass program runs with `SSH_ASKPASS_PROMPT=confirm` and the prompt as
/// its argument; exit status 0 is yes. Anything else — no program that can ask, one that fails,
/// no answer within `timeoutSeconds` — is no.
public struct KeyUseConfirmation: Sendable {
    /// The variables the askpass program needs from the user's session, and only those.
    public static let variables = ["SSH_ASKPASS", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY"]
    /// Where Debian's ssh-askpass packages install the program.
    static let defaultProgram = "/usr/bin/ssh-askpass"
    static let timeoutSeconds = 60

    /// The program, or nil when nothing can ask.
    let program: String?
    private let environment: [String: String]

    /// `environment` holds the session's variables (those in `variables`; others are ignored).
    public init(environment: [String: String]) {
        let session = environment.filter { Self.variables.contains($0.key) && !$0.value.isEmpty }
        self.environment = session
        if let program = session["SSH_ASKPASS"] {
            self.program = program
        } else if session["DISPLAY"] != nil || session["WAYLAND_DISPLAY"] != nil, access(Self.defaultProgram, X_OK) == 0 {
            self.program = Self.defaultProgram
        } else {
            self.program = nil
        }
    }

    /// Whether a signature may be made: at once for a key that needs no confirmation asked for
    /// on this machine; else only when the user says yes. A forwarded request (another host
    /// asks, through agent forwarding) is always asked about.
    public func allows(label: String, fingerprint: String, confirmRequired: Bool, forwarded: Bool) -> Bool {
        guard confirmRequired || forwarded else { return true }
        return confirm(label: label, fingerprint: fingerprint, forwarded: forwarded)
    }

    /// Asks whether the key `label` with `fingerprint` (`SHA256:…`) may be used.
    public func confirm(label: String, fingerprint: String, forwarded: Bool = false) -> Bool {
        guard let program else { return false }
        var prompt = "Allow use of key \(Self.printable(label))?\nKey fingerprint \(fingerprint)."
        if forwarded { prompt += "\nAsked by another host, through agent forwarding." }
        var variables = environment.filter { $0.key != "SSH_ASKPASS" }
        variables["SSH_ASKPASS_PROMPT"] = "confirm"
        variables["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        guard let child = try? ChildProcess.spawn(program, [program, prompt], environment: try ChildEnvironment(variables), silent: true) else { return false }
        return child.wait(timeoutSeconds: Self.timeoutSeconds) == 0
    }

    /// A label as the prompt shows it: control characters (a synced label is another device's
    /// text) become `?`, so a label cannot forge lines of the prompt.
    static func printable(_ label: String) -> String {
        String(String.UnicodeScalarView(label.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
    }
}
