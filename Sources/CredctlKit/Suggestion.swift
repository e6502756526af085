/// "did you mean …?" for a mistyped command or option: the known names nearest to it.
///
/// A word is near a name when a few edits turn one into the other (one for words of up to five
/// characters, two up to eight, three beyond; see `String.editDistance`), or when it could be a
/// short form of the name (`ls` for `list`). Near by edits beats short form; ties are all
/// offered, in help order.
enum Suggestion {
    /// `text` as a sentence that ends with the suggestion, if there is one:
    /// "Unknown command 'sycn'; did you mean `sync`?"
    static func message(_ text: String, suggesting names: [String]) -> String {
        guard let last = names.last else { return text + "." }
        let quoted = names.map { "`\($0)`" }
        let list = names.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or `\(last)`"
        return text + "; did you mean \(list)?"
    }

    /// The names nearest to `typed` (options are compared without their leading dashes).
    static func nearest(_ typed: String, among names: [String]) -> [String] {
        nearestCommands(to: [typed], among: names.map { [$0] }).map { $0[0] }
    }

    /// The commands nearest to the words typed, which may go on with arguments: a command
    /// matches when each of its words is near the typed word in its place. The command that
    /// explains more of the words wins (`hots lst` is `host list` rather than `host`), then the
    /// one with fewer edits.
    static func nearestCommands(to typed: [String], among commands: [[String]]) -> [[String]] {
        var best: [[String]] = []
        var bestScore = (words: 0, cost: Int.max)
        for command in commands where command.count <= typed.count {
            var cost = 0
            for (word, name) in zip(typed, command) {
                guard let wordCost = self.cost(word, name) else { cost = -1; break }
                cost += wordCost
            }
            guard cost >= 0 else { continue }
            if command.count > bestScore.words || (command.count == bestScore.words && cost < bestScore.cost) {
                best = [command]
                bestScore = (command.count, cost)
            } else if command.count == bestScore.words && cost == bestScore.cost {
                best.append(command)
            }
        }
        return best
    }

    /// Edits from `typed` to `name` when few enough; a short form costs more than any such typo.
    private static func cost(_ typed: String, _ name: String) -> Int? {
        let typed = String(typed.drop { $0 == "-" }), name = String(name.drop { $0 == "-" })
        let allowed = max(1, min(3, typed.count / 3))
        // Longer by more than the edits allowed: neither a typo nor a short form (and a huge
        // argument costs nothing to dismiss).
        guard typed.count <= name.count + allowed else { return nil }
        let distance = typed.editDistance(to: name)
        if distance <= allowed { return distance }
        return typed.abbreviates(name) ? allowed + 1 : nil
    }
}
