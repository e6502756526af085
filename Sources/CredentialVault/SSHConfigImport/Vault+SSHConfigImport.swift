import ConfigTrack
import FoundationEssentials
import SSHConfig

extension Vault {
    /// Imports the Host blocks of an ssh_config file (its Includes followed) as hosts.
    ///
    /// Each Host line's first name that is not a pattern becomes a host labelled with it (its
    /// other names are noted), with what ssh would use for it: every block that applies, the
    /// first value of each keyword winning — so a `Host *` or `Host *.internal` block's User or
    /// Port reaches the hosts it matches. Pattern-only blocks and Match blocks are reported and
    /// not imported. IdentityFile keys become identities (their bodies sealed; a key already in
    /// the vault, by public key, is reused). A host with the same label is updated, not
    /// duplicated, and only forwards it lacks are added. ProxyJump links to a host of that name
    /// in the file or the vault, when the user and port it gives (if any) are that host's. The file
    /// decides a host's HostName, Port, User and ProxyJump (one removed from the file is removed
    /// from the host); keys and forwards are only ever added. With `dryRun`, nothing is written.
    /// Needs the vault unlocked to import a key.
    public func importSSHConfig(path: String, home: String, localUser: String, dryRun: Bool) throws(VaultError) -> [SSHConfigImportEntry] {
        try VaultError.wrapping {
            let file: SSHConfigFile
            do { file = try SSHConfigFile(path: path, home: home) } catch let error as SSHConfigError {
                throw VaultError(.invalidInput, error.description)
            }
            var entries: [SSHConfigImportEntry] = file.missingIncludes.map {
                SSHConfigImportEntry(name: "Include \($0)", action: .skipped, endpoint: nil, notes: ["matches no file"], importsKey: false)
            }
            var importer = SSHConfigImporter(vault: self, dryRun: dryRun, hosts: try config.hosts(), identities: try config.identities())
            var seen: Set<String> = []
            for block in file.blocks where block.kind != .global && !block.isContinuation {
                let names = block.concreteNames.filter { !seen.contains($0.lowercased()) }
                guard let alias = names.first else {
                    let why = block.kind == .match ? "Match blocks are not evaluated"
                        : block.isNested ? "included inside another Host or Match block, which ssh never applies to it alone"
                        : "a pattern: its settings apply to the hosts it matches"
                    if block.concreteNames.isEmpty { entries.append(SSHConfigImportEntry(name: block.patterns.joined(separator: " "), action: .skipped, endpoint: nil, notes: [why], importsKey: false)) }
                    continue
                }
                names.forEach { seen.insert($0.lowercased()) }
                var plan = SSHConfigHostPlan(SSHConfigHost(alias: alias, in: file), home: home, localUser: localUser)
                if names.count > 1 { plan.notes.append("other names on its Host line not imported: \(names.dropFirst().joined(separator: " "))") }
                try importer.add(plan)
            }
            try importer.linkJumps()
            return entries + importer.entries
        }
    }
}
