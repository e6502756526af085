/// ssh_config's `%` tokens, for the few values imported: `%h` (the host name), `%d` (home),
/// `%u` (local user), `%r` (remote user), `%%`. Anything else cannot be known here: nil.
struct SSHConfigTokens {
    let values: [Character: String]

    func expand(_ text: String) -> String? {
        var result = ""
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == "%" else { result.append(character); continue }
            guard let token = iterator.next() else { return nil }
            if token == "%" { result.append("%"); continue }
            guard let value = values[token] else { return nil }
            result += value
        }
        return result
    }
}
