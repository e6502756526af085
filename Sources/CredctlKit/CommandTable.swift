/// The single dispatch table: every command `credctl` knows, in help order.
enum CommandTable {
    static var all: [any Command.Type] {[
        InitCommand.self, StatusCommand.self,
        HostAddCommand.self, HostEditCommand.self, HostListCommand.self, HostShowCommand.self, HostRemoveCommand.self,
        IdentityAddCommand.self, IdentityEditCommand.self, IdentityListCommand.self, IdentityShowCommand.self, IdentityRemoveCommand.self,
        GroupAddCommand.self, GroupListCommand.self, GroupRemoveCommand.self,
        ForwardAddCommand.self, ForwardListCommand.self, ForwardRemoveCommand.self,
        ResolveCommand.self, ReadCommand.self, RemoteSetCommand.self, RemoteUpgradeCommand.self, SyncCommand.self, AgentCommand.self, UnlockCommand.self, LockCommand.self, DeviceListCommand.self, DeviceRequestsCommand.self, DeviceApproveCommand.self, DeviceRejectCommand.self, DeviceRevokeCommand.self, DeviceRenameCommand.self, VaultRotateCommand.self, RecoveryKeyRotateCommand.self, QuarantineListCommand.self, QuarantineDiscardCommand.self,
        ConflictsListCommand.self, ConflictsShowCommand.self, ConflictsRestoreCommand.self, MigrateCommand.self, SecretPinCommand.self, UnlockMethodSetCommand.self, UnlockMethodAddCommand.self, UnlockMethodRemoveCommand.self, PassphraseChangeCommand.self,
        SSHCommand.self, RunCommand.self, InjectCommand.self, ImportKeyringCommand.self, ImportSSHConfigCommand.self, ExportSSHConfigCommand.self,
        CompletionCommand.self,
    ]}

    /// Commands for credctl's own scripts, not for people: dispatched like the others, but left
    /// out of help, the man page, the completion lists and "did you mean" suggestions.
    static var hidden: [any Command.Type] { [CompleteCommand.self] }

    /// The groups of subcommands (`host`, `identity`, …), in help order.
    static var groups: [String] {
        var seen: Set<String> = []
        return all.map { $0.path }.filter { $0.count > 1 }.map { $0[0] }.filter { seen.insert($0).inserted }
    }
}
