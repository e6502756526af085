/// Shell completion scripts, generated from the dispatch table so they offer exactly the
/// commands and options credctl accepts, and what each argument takes: host, identity and group
/// labels and secret addresses come from the vault as the user types, through the hidden
/// `credctl __complete` (it never unlocks), and fixed words (`bash zsh fish`) from the specs.
enum CompletionScript {
    static let shells = ["bash", "zsh", "fish"]

    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash()
        // zsh runs the bash function through its own emulation of `complete` and `compgen`.
        // Installed in $fpath, the file is the body of `_credctl`, run by the first Tab: that
        // run only defines the functions, so it then answers the Tab itself.
        case "zsh": "#compdef credctl\nautoload -U +X bashcompinit && bashcompinit\n" + bash()
            + "if [[ ${funcstack[1]-} == _credctl ]]; then _bash_complete -F _credctl; fi\n"
        case "fish": fish()
        default: nil
        }
    }

    static var specs: [CommandSpec] { CommandTable.all.map { $0.spec } }
    static var topLevel: [String] { unique(specs.map { $0.path[0] }) + ["help"] }

    /// Options that take a value, so that the value is not read as a command word.
    static var valueOptions: [String] {
        unique((GlobalOptions.specs + specs.flatMap(\.options)).filter { $0.value != nil }.map(\.name))
    }

    /// The options a command accepts, the global ones included.
    static func options(of spec: CommandSpec) -> [CommandSpec.Option] {
        spec.options + GlobalOptions.specs.filter { $0.name != "--json" || spec.printsData }
    }

    /// The subcommands of `group` (`add edit list show rm` for `host`).
    static func subcommands(of group: String) -> [CommandSpec] {
        specs.filter { $0.path.count > 1 && $0.path[0] == group }
    }

    /// Whether the option's value is a path: what the shell's own file completion offers.
    static func takesPath(_ option: CommandSpec.Option) -> Bool {
        ["FILE", "[FILE]", "DIR", "IN", "OUT"].contains(option.value ?? "")
    }

    static func unique(_ words: [String]) -> [String] {
        var seen: Set<String> = []
        return words.filter { seen.insert($0).inserted }
    }
}
