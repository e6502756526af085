import FuzzSupport
import Launch

/// A prompt as ssh or ssh-add (or anything else that runs `credctl` as its askpass) asks it,
/// matched against a stored password's account and against the key passphrase: a user field,
/// a host field, then the prompt. A password is only ever offered for a prompt that names its
/// own account.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAskpassPrompt(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let user = input.text(), host = input.text()
    let prompt = String(decoding: input.rest(), as: UTF8.self)
    if AskpassPrompt.password(user: user, host: host).matches(prompt) {
        FuzzFixtures.require(prompt.contains("\(user)@\(host.lowercased())"), "a password prompt matched without naming its account")
    }
    if AskpassPrompt.keyPassphrase.matches(prompt) {
        FuzzFixtures.require(prompt.hasPrefix("Enter passphrase for (stdin)"), "a passphrase prompt matched another prompt")
    }
    return 0
}
