/// One directive of an ssh_config file: `Keyword arguments…` or `Keyword=arguments…`, with
/// single or double quotes grouping words, a backslash escaping a quote, a backslash or (outside
/// quotes) a space, and an unquoted `#` word ending the line, as ssh reads it.
public struct SSHConfigLine: Sendable, Equatable {
    /// The keyword, lowercased (ssh's keywords are case-insensitive).
    public let keyword: String
    public let arguments: [String]
    /// `file:line`, for reports.
    public let location: String

    /// Nil for blank lines and comments.
    public init?(_ text: Substring, location: String) throws {
        var rest = text.drop { $0 == " " || $0 == "\t" }
        guard let first = rest.first, first != "#" else { return nil }
        let keyword = rest.prefix { $0 != " " && $0 != "\t" && $0 != "=" }
        rest = rest.dropFirst(keyword.count).drop { $0 == " " || $0 == "\t" }
        if rest.first == "=" { rest = rest.dropFirst() }
        self.keyword = keyword.lowercased()
        self.location = location
        arguments = try Self.words(rest, location: location)
    }

    private static func words(_ text: Substring, location: String) throws -> [String] {
        var words: [String] = []
        var current = "", inWord = false
        var quote: Character?
        var characters = text.makeIterator()
        while let character = characters.next() {
            if character == "\\" {
                var lookahead = characters
                if let next = lookahead.next(), next == "\"" || next == "'" || next == "\\" || (quote == nil && (next == " " || next == "\t")) {
                    current.append(next)
                    inWord = true
                    characters = lookahead
                    continue
                }
            }
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            switch character {
            case " ", "\t", "\r":
                if inWord { words.append(current); current = ""; inWord = false }
            case "\"", "'":
                quote = character
                inWord = true
            case "#" where !inWord:
                return words
            default:
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil else { throw SSHConfigError("\(location): unterminated quote.") }
        if inWord { words.append(current) }
        return words
    }
}
