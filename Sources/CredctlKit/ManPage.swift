/// `credctl.1`, generated from the same specs as `--help`, so the two never disagree.
enum ManPage {
    static func render(date: String = "2026-11-29") -> String {
        var out = [
            ".TH CREDCTL 1 \"\(date)\" \"\(Help.version)\" \"User Commands\"",
            ".SH NAME", "credctl \\- SSH hosts and identities with end-to-end sealed credentials",
            ".SH SYNOPSIS", ".B credctl", "[\\-\\-vault \\fIDIR\\fR] [\\-\\-passphrase\\-file \\fIFILE\\fR | \\-\\-key\\-file \\fIFILE\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR]",
            ".SH DESCRIPTION",
            escape("credctl keeps SSH hosts, groups, identities and port forwards in a config track that holds no secret, and their passwords, private keys and passphrases sealed on a separate secret track, matched by reference key. A reference whose secret has not arrived on this device is reported as not yet synced (exit status 75), never as an empty password."),
            ".PP", escape(ReferenceText.secretInput),
            ".SH COMMANDS",
        ]
        for spec in CommandTable.all.map({ $0.spec }) {
            out.append(".SS " + escape(spec.name))
            out += spec.usage.map { ".B credctl \(escape($0))\n.br" }
            out += [".PP", escape(spec.overview)]
            for option in spec.options {
                out += [".TP", "\\fB\(escape(option.name))\\fR" + (option.value.map { " \\fI\(escape($0))\\fR" } ?? ""), escape(option.help)]
            }
            out += [".PP", "Examples:", ".RS", ".nf"] + spec.examples.map(escape) + [".fi", ".RE"]
        }
        out.append(".SH GLOBAL OPTIONS")
        for option in GlobalOptions.specs {
            out += [".TP", "\\fB\(escape(option.name))\\fR" + (option.value.map { " \\fI\(escape($0))\\fR" } ?? ""), escape(option.help)]
        }
        out += [".TP", "\\fB\\-\\-version\\fR", "Print the version.", ".SH ENVIRONMENT"]
        for variable in ReferenceText.environment { out += [".TP", "\\fB\(variable.name)\\fR", escape(variable.meaning)] }
        out.append(".SH EXIT STATUS")
        for exit in ReferenceText.exitStatuses { out += [".TP", "\\fB\(exit.status)\\fR", escape(exit.meaning)] }
        out += [".SH FILES", ".TP", "\\fI$XDG_DATA_HOME/credctl/config.sqlite\\fR", "Config records: no secrets; readable without unlocking.",
                ".TP", "\\fI$XDG_DATA_HOME/credctl/secrets.sqlite\\fR", "Sealed secret bodies, wrapped keys, deletion markers."]
        return out.joined(separator: "\n") + "\n"
    }

    /// Escapes text for roff: backslashes, hyphens that must stay hyphens, and a leading dot.
    static func escape(_ text: String) -> String {
        var escaped = text.replacingBackslashes().replacingHyphens()
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}

private extension String {
    func replacingBackslashes() -> String { split(separator: "\\", omittingEmptySubsequences: false).joined(separator: "\\e") }
    func replacingHyphens() -> String { split(separator: "-", omittingEmptySubsequences: false).joined(separator: "\\-") }
}
