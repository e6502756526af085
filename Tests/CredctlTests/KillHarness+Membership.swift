import Foundation

/// The harness's membership moves: a vault rotation, and a device that asks to join, is approved
/// and is revoked again — the approval and the revocation each killed at a failpoint or a random
/// instant, then finished by running it again, as a user would. Whatever a kill left, both
/// devices must go on syncing, reading every secret, and agreeing.
extension KillHarness {
    mutating func rotate(_ device: Int) throws {
        let outcome = try run(device, ["vault", "rotate"], failpoint: "epoch.after-entry")
        if !outcome.killed && outcome.status != 0 { violations.append("vault rotate exited \(outcome.status)") }
        rotations += 1
    }

    mutating func approveAndRevoke(_ device: Int) throws {
        joiners += 1
        let name = "joiner-\(joiners)"
        let newcomer = joiner(name)
        let asked = try newcomer.run(["init", "--join"] + joinArguments + ["--name", name])
        guard asked.status == 75, let code = Self.code(in: asked.output) else {
            violations.append("\(name): init --join exited \(asked.status), not 75 with a code")
            return
        }
        // Approving, killed or not; run again it approves what is pending or shows the code again.
        _ = try run(device, ["device", "approve", code, "--yes"], failpoint: "approve.after-entry")
        let approved = try devices[device].run("device", "approve", code, "--yes")
        guard approved.status == 0, let confirmation = approved.output.split(separator: " ").last.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) else {
            violations.append("\(name): approving again exited \(approved.status)")
            return
        }
        let joined = try newcomer.run(["init", "--join"] + joinArguments + ["--confirm", confirmation])
        guard joined.status == 0 else {
            violations.append("\(name): confirming exited \(joined.status)")
            return
        }
        // Revoking from either device, killed or not; run again until it is no member.
        let revoker = Int(next() % UInt64(devices.count))
        _ = try run(revoker, ["device", "revoke", name, "--yes"], failpoint: "epoch.after-entry")
        if try isMember(name, on: revoker) {
            let again = try devices[revoker].run("device", "revoke", name, "--yes")
            if again.status != 0 { violations.append("\(name): revoking again exited \(again.status): \(again.stderr)") }
        }
        let told = try newcomer.run("sync")
        if told.status != 77 { violations.append("\(name): a revoked device's sync exited \(told.status), not 77") }
    }

    /// Adds a passphrase beside the device's key file the first time, then changes it, killed or
    /// not: afterwards exactly one of the old and the new passphrase unlocks, and the key file still does.
    mutating func changePassphrase(_ device: Int) throws {
        let directory = (devices[device].vault as NSString).deletingLastPathComponent
        passphraseChanges += 1
        let next = directory + "/passphrase-\(device)-\(passphraseChanges)"
        FileManager.default.createFile(atPath: next, contents: Data("passphrase \(passphraseChanges) of device \(device)".utf8), attributes: [.posixPermissions: 0o600])
        guard let current = passphrases[device] else {
            let added = try devices[device].run("unlock-method", "add", "passphrase", "--new-passphrase-file", next)
            if added.status != 0 { violations.append("unlock-method add passphrase exited \(added.status): \(added.stderr)") }
            passphrases[device] = next
            return
        }
        let outcome = try run(device, ["passphrase", "change", "--new-passphrase-file", next], failpoint: nil)
        if !outcome.killed && outcome.status != 0 { violations.append("passphrase change exited \(outcome.status)") }
        var byPassphrase = devices[device]
        byPassphrase.environment["CREDCTL_KEY_FILE"] = nil
        let opens = try [current, next].filter { try byPassphrase.run("--passphrase-file", $0, "migrate").status == 0 }
        guard opens.count == 1, let now = opens.first else {
            violations.append("device \(device): after passphrase change, \(opens.count) of the old and new passphrases unlock")
            return
        }
        if !outcome.killed && now != next { violations.append("device \(device): the new passphrase does not unlock after passphrase change") }
        passphrases[device] = now
        if try devices[device].run("migrate").status != 0 { violations.append("device \(device): the key file no longer unlocks after passphrase change") }
    }

    private func isMember(_ name: String, on device: Int) throws -> Bool {
        _ = try devices[device].run("sync")
        let listed = try JSONSerialization.jsonObject(with: Data(try devices[device].run("device", "list", "--json").stdout)) as? [String: Any]
        return ((listed?["devices"] as? [[String: Any]]) ?? []).contains { $0["name"] as? String == name && $0["state"] as? String == "member" }
    }

    private static func code(in output: String) -> String? {
        guard let range = output.range(of: "[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}", options: .regularExpression) else { return nil }
        return String(output[range])
    }
}
