import ConfigTrack
import SSHConfig

extension Vault {
    /// Imports the Host blocks of an ssh_config file (its Includes followed) as hosts.
    ///
    /// Every name of a Host line that is not a pattern becomes a host labelled with it, with what
    /// ssh would use for that name: every block that applies, the first value of each keyword
    /// winning — so a `Host *` or `Host *.internal` block's User or Port reaches the hosts it
    /// matches, and `%h` and a HostName left out stand for that name. A name an earlier Host
    /// line already gave is skipped, as ssh skips it. IdentityFile keys become identities
    /// (their bodies sealed; a key already in the vault, by public key, is reused). A host with
    /// the same label is updated, not duplicated, and only forwards it lacks are added. ProxyJump
    /// becomes the jump chain (see `SSHConfigImporter+Jumps`). The file decides a host's
    /// HostName, Port, User and ProxyJump (one removed from the file is removed from the host);
    /// keys and forwards are only ever added.
    ///
    /// What the file says that the vault cannot hold is a problem of its host
    /// (`SSHConfigHostPlan`), as is a Match block (never evaluated: its criteria can run
    /// commands) and a Host block included inside another block (ssh never applies it alone).
    /// Pattern-only blocks are listed with a note: their settings reach the hosts they match. The
    /// whole import is planned before anything is written; when the plan has a problem, nothing
    /// is written, unless `skipUnsupported`: then what maps is imported, a host that cannot be
    /// imported at all is skipped, and the problems are reported as notes. With `dryRun`,
    /// nothing is written either way. Needs the vault unlocked to import a key.
    public func importSSHConfig(path: String, home: String, localUser: String, dryRun: Bool,
                                skipUnsupported: Bool) throws(VaultError) -> [SSHConfigImportEntry] {
        try VaultError.wrapping {
            let file: SSHConfigFile
            do { file = try SSHConfigFile(path: path, home: home) } catch let error as SSHConfigError {
                throw VaultError(.invalidInput, error.description)
            }
            var entries = try importHosts(of: file, home: home, localUser: localUser, dryRun: true)
            if !dryRun, skipUnsupported || entries.allSatisfy(\.problems.isEmpty) {
                entries = try importHosts(of: file, home: home, localUser: localUser, dryRun: false)
            }
            guard skipUnsupported else { return entries }
            return entries.map { entry in
                var entry = entry
                entry.notes += entry.problems
                entry.problems = []
                return entry
            }
        }
    }

    /// One pass over the file: with `dryRun` the plan, else the writes.
    private func importHosts(of file: SSHConfigFile, home: String, localUser: String, dryRun: Bool) throws -> [SSHConfigImportEntry] {
        // ssh ignores an Include that matches no file; so does the import, saying so.
        let missing = file.missingIncludes.map { SSHConfigImportEntry(name: "Include \($0)", action: .skipped, notes: ["matches no file"]) }
        var importer = try SSHConfigImporter(vault: self, file: file, home: home, localUser: localUser, dryRun: dryRun)
        var blocks: [SSHConfigImportEntry] = []
        for block in file.blocks where block.kind != .global && !block.isContinuation {
            if block.concreteNames.isEmpty { blocks.append(Self.entry(forBlockWithoutHosts: block)) }
            for name in block.concreteNames where importer.hostLineNames.insert(name.lowercased()).inserted {
                try importer.add(SSHConfigHostPlan(SSHConfigHost(alias: name, in: file), home: home, localUser: localUser))
            }
        }
        try importer.linkJumps()
        return missing + blocks + importer.entries
    }

    /// A Match block, or a Host block that configures no host on its own: a problem when its
    /// settings are lost (a Match block is never evaluated, as its criteria can run commands; a
    /// Host block included inside a Match block, or naming hosts but included inside another
    /// Host block, which ssh never applies alone), a note for a pattern block, whose settings
    /// reach the hosts it matches.
    private static func entry(forBlockWithoutHosts block: SSHConfigBlock) -> SSHConfigImportEntry {
        let name = block.patterns.joined(separator: " ")
        let names = block.patterns.filter { !$0.hasPrefix("!") && !$0.contains("*") && !$0.contains("?") }
        if block.kind == .match {
            return SSHConfigImportEntry(name: name, action: .skipped, problems: ["Match block not imported (never evaluated: its criteria can run commands)"])
        }
        if block.isInsideMatch || (block.isNested && !names.isEmpty) {
            return SSHConfigImportEntry(name: name, action: .skipped, problems: [
                "Host block not imported: included inside \(block.isInsideMatch ? "a Match" : "another Host") block, which ssh never applies to it alone",
            ])
        }
        return SSHConfigImportEntry(name: name, action: .skipped, notes: ["a pattern: its settings apply to the hosts it matches"])
    }
}
