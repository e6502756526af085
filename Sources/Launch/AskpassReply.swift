/// The first byte of the askpass server's reply.
public enum AskpassReply: UInt8, Sendable {
    /// The answer follows.
    case answer = 0x41
    /// Nothing stored answers this prompt: ask the user on the terminal, if there is one.
    case askTerminal = 0x54
    /// The request is refused (unknown token, or another user).
    case refused = 0x4E
}
