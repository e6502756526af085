import Foundation

/// The model and the moves of `KillHarnessTests`: what each host must look like, which
/// operations run where, and the checks after each round. Passwords are never printed; a
/// violation names a host and a version number.
struct KillHarness {
    /// What a host looks like on a device.
    enum State: Equatable {
        case absent
        case noPassword
        case password(Int)
    }

    let devices: [CredctlRunner]
    private var generator: SplitMix
    /// Per label (`h…` hosts, `i…` identities): the owning device and the state it must end up
    /// in everywhere. An identity's state is `.password(k)`: it holds key file `k`.
    private var records: [String: (owner: Int, state: State)] = [:]
    /// Private key files identities are added from, and their bytes.
    let keyFiles: [(path: String, bytes: [UInt8])]
    private var nextLabel = 0
    private var nextVersion = 0
    private(set) var operations = 0
    private(set) var kills = 0
    private(set) var failpointKills = 0
    var violations: [String] = []
    /// Kills by operation (`host add`, `sync --compact`, …) and by where they landed.
    private(set) var killsByOperation: [String: Int] = [:]
    private(set) var killsByPhase: [KilledProcess.Phase: Int] = [:]
    /// Recent durations of each operation run to its end, so kills are spread over the time an
    /// operation really takes rather than bunched in process start-up.
    private var durations: [String: [Double]] = [:]
    private(set) var secondWriters = 0
    /// Devices that join by approval and are revoked again (`KillHarness+Membership`): how to make
    /// one, and the `init --join` arguments that name the remote.
    let joiner: (String) -> CredctlRunner
    let joinArguments: [String]
    var joiners = 0
    var rotations = 0
    /// Per device, the passphrase file that unlocks it now (nil before one was added), and how
    /// many times it was changed.
    var passphrases: [Int: String] = [:]
    var passphraseChanges = 0

    init(devices: [CredctlRunner], keyFiles: [(path: String, bytes: [UInt8])], seed: UInt64, joiner: @escaping (String) -> CredctlRunner, joinArguments: [String]) {
        self.devices = devices
        self.keyFiles = keyFiles
        self.joiner = joiner
        self.joinArguments = joinArguments
        generator = SplitMix(state: seed)
    }

    private static func secret(_ version: Int) -> [UInt8] { Array("kill-harness-secret-\(version)".utf8) }

    /// One random operation on a random device, killed with probability 3/5.
    mutating func step() throws {
        operations += 1
        let device = Int(generator.next() % 2)
        if generator.next() % 8 == 0 { return try identityStep(device) }
        // Membership changes, each killed at its own instants: a new epoch, or a device approved and revoked.
        switch generator.next() % 40 {
        case 0: return try rotate(device)
        case 1: return try approveAndRevoke(device)
        case 2, 3: return try changePassphrase(device)
        default: break
        }
        let owned = records.filter { $0.key.hasPrefix("h") && $0.value.owner == device && $0.value.state != .absent }.keys.sorted()
        // Few hosts keep each round's checks quick: past a dozen, removals take the place of adds.
        let roll = owned.count > 12 ? 5 + generator.next() % 5 : generator.next() % 10
        if roll < 2 || owned.isEmpty {
            nextLabel += 1
            nextVersion += 1
            let label = "h\(nextLabel)"
            try mutate(device, label, ["host", "add", label, "--hostname", "\(label).example", "--password-stdin"], input: Self.secret(nextVersion),
                       failpoint: "add-host.after-secret", before: .absent, after: .password(nextVersion))
        } else if roll < 4 {
            let label = owned[Int(generator.next() % UInt64(owned.count))]
            nextVersion += 1
            try mutate(device, label, ["host", "edit", label, "--password-stdin"], input: Self.secret(nextVersion),
                       failpoint: "update-host.after-secret", before: records[label]!.state, after: .password(nextVersion))
        } else if roll < 5 {
            let label = owned[Int(generator.next() % UInt64(owned.count))]
            try mutate(device, label, ["host", "edit", label, "--no-password"], failpoint: "clear-password.after-config",
                       before: records[label]!.state, after: .noPassword)
        } else if roll < 6 {
            let label = owned[Int(generator.next() % UInt64(owned.count))]
            try mutate(device, label, ["host", "rm", label], failpoint: "remove-host.after-config", before: records[label]!.state, after: .absent)
        } else if roll < 7 {
            _ = try run(device, ["migrate"], failpoint: nil)
        } else {
            // One sync in four also compacts: snapshot, published cursors, collection.
            let options = [["--zone", "config"], ["--zone", "secrets"], [], ["--compact"]][Int(generator.next() % 4)]
            _ = try run(device, ["sync"] + options, failpoint: nil)
        }
    }

    /// Adds an identity from one of the key files, or removes one this device added.
    private mutating func identityStep(_ device: Int) throws {
        let owned = records.filter { $0.key.hasPrefix("i") && $0.value.owner == device && $0.value.state != .absent }.keys.sorted()
        if !owned.isEmpty && generator.next() % 2 == 0 {
            let label = owned[Int(generator.next() % UInt64(owned.count))]
            try mutate(device, label, ["identity", "rm", label], failpoint: "remove-identity.after-config", before: records[label]!.state, after: .absent)
        } else {
            nextLabel += 1
            let label = "i\(nextLabel)", key = Int(generator.next() % UInt64(keyFiles.count))
            try mutate(device, label, ["identity", "add", label, "--private-key", keyFiles[key].path], failpoint: "add-identity.after-secret",
                       before: .absent, after: .password(key))
        }
    }

    /// Runs an operation that changes one record; after a kill, the device's own view must be the
    /// state before or after it, and becomes the expected state.
    private mutating func mutate(_ device: Int, _ label: String, _ arguments: [String], input: [UInt8] = [], failpoint: String,
                                 before: State, after: State) throws {
        let outcome = try run(device, arguments, input: input, failpoint: failpoint)
        if outcome.killed {
            let seen = try observe(device, label)
            if seen != before && seen != after { violations.append("\(label): killed \(arguments[1]) left \(seen), neither \(before) nor \(after)") }
            records[label] = (device, seen)
        } else if outcome.status == 0 {
            records[label] = (device, after)
        } else {
            violations.append("\(label): \(arguments.prefix(2).joined(separator: " ")) exited \(outcome.status)")
        }
    }

    mutating func run(_ device: Int, _ arguments: [String], input: [UInt8] = [], failpoint: String?) throws -> KilledProcess.Outcome {
        let operation = arguments.first == "sync" ? (arguments.contains("--compact") ? "sync --compact" : "sync") : arguments.prefix(2).joined(separator: " ")
        let kill: KilledProcess.Kill
        switch generator.next() % 5 {
        case 0 where failpoint != nil: kill = .failpoint(failpoint!)
        case 0, 1, 2, 3:
            // Anywhere in the time this operation has been taking (it first runs once whole, to
            // be timed), weighted toward later instants (the density rises linearly): process
            // start-up is the same short prefix of every operation, the vault work after it is
            // what the harness is for, and on a busy machine start-up stretches.
            let recent = (durations[operation] ?? []).sorted()
            guard !recent.isEmpty else { kill = .none; break }
            let span = recent[recent.count / 2] * 1.1
            let fraction = (Double(generator.next() % 1_000_000) / 1_000_000).squareRoot()
            kill = .after(microseconds: UInt32(fraction * span * 1_000_000))
        default: kill = .none
        }
        // One operation in six has a second writer on the same device at the same time: a new
        // host, never killed, which must land whatever happens to the first.
        let second = generator.next() % 6 == 0 ? try startSecondWriter(device) : nil
        let outcome = try KilledProcess.run(devices[device], arguments, input: input, kill: kill)
        if let second { finish(second, device) }
        if outcome.killed {
            kills += 1
            if case .failpoint = kill { failpointKills += 1 }
            killsByOperation[operation, default: 0] += 1
            if let phase = outcome.phase { killsByPhase[phase, default: 0] += 1 }
        } else if outcome.status == 0 {
            durations[operation, default: []] = Array((durations[operation] ?? []).suffix(19)) + [outcome.seconds]
        }
        return outcome
    }

    private mutating func startSecondWriter(_ device: Int) throws -> (process: Process, label: String, version: Int) {
        nextLabel += 1
        nextVersion += 1
        let label = "h\(nextLabel)"
        let process = Process(), input = Pipe()
        process.executableURL = URL(fileURLWithPath: devices[device].executable)
        process.arguments = ["host", "add", label, "--hostname", "\(label).example", "--password-stdin"]
        process.environment = devices[device].environment
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(Self.secret(nextVersion)))
        try input.fileHandleForWriting.close()
        return (process, label, nextVersion)
    }

    private mutating func finish(_ second: (process: Process, label: String, version: Int), _ device: Int) {
        second.process.waitUntilExit()
        secondWriters += 1
        if second.process.terminationStatus == 0 {
            records[second.label] = (device, .password(second.version))
        } else {
            violations.append("\(second.label): a second writer's host add exited \(second.process.terminationStatus)")
        }
    }

    /// The closing summary: kills per operation and per phase.
    var summary: String {
        let operations = killsByOperation.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let phases = KilledProcess.Phase.allCases.map { "\($0.rawValue) \(killsByPhase[$0] ?? 0)" }.joined(separator: ", ")
        return "kills per operation: \(operations); per phase: \(phases); \(secondWriters) operations had a second writer beside them"
    }

    /// How `label` looks on `device`: absent, without a password, or which version it opens to.
    private mutating func observe(_ device: Int, _ label: String, listed: Set<String>? = nil) throws -> State {
        let identity = label.hasPrefix("i")
        if let listed {
            if !listed.contains(label) { return .absent }
        } else if try devices[device].run(identity ? "identity" : "host", "show", label).status == 66 {
            return .absent
        }
        if identity {
            let read = try devices[device].run("read", "cred://identity/\(label)/privkey")
            guard read.status == 0, let key = keyFiles.firstIndex(where: { $0.bytes == read.stdout }) else {
                violations.append("\(label) on device \(device): its key reads as status \(read.status), matching no key file")
                return .noPassword
            }
            return .password(key)
        }
        let read = try devices[device].run("read", "cred://host/\(label)/password")
        // Only "no password" stands for one: not synced yet (75), deleted (66 with another
        // message), locked (77) or damaged (1) are each a violation of their own.
        if read.status == 66, read.stderr.contains("has no password:") { return .noPassword }
        guard read.status == 0 else {
            violations.append("\(label) on device \(device): its password reads as status \(read.status): \(read.stderr.split(separator: "\n").first ?? "")")
            return .noPassword
        }
        let text = read.output
        guard text.hasPrefix("kill-harness-secret-"), let version = Int(text.dropFirst("kill-harness-secret-".count)) else {
            violations.append("\(label): opens to bytes no operation wrote")
            return .noPassword
        }
        return .password(version)
    }

    /// The next number of the run's generator.
    mutating func next() -> UInt64 { generator.next() }

    /// Both devices sync, unkilled, until a round moves nothing.
    mutating func settle() throws {
        for _ in 0..<6 {
            var moved = false
            for device in devices {
                let result = try device.run("sync", "--json")
                guard result.status == 0 else { violations.append("sync exited \(result.status): \(result.stderr)"); return }
                let zones = (try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])?["zones"] as? [[String: Any]] ?? []
                moved = moved || zones.contains { ($0["applied"] as? Int ?? 0) + ($0["sent"] as? Int ?? 0) > 0 }
            }
            if !moved { return }
        }
        violations.append("sync did not settle within six rounds")
    }

    /// Every host looks as expected on both devices; no other host exists; journals are empty.
    mutating func check() {
        for (index, device) in devices.enumerated() {
            var labels: Set<String> = []
            for (kind, key) in [("host", "hosts"), ("identity", "identities")] {
                let listed = (try? JSONSerialization.jsonObject(with: Data(device.run(kind, "list", "--json").stdout)) as? [String: Any])?[key] as? [[String: Any]]
                labels.formUnion((listed ?? []).compactMap { $0["label"] as? String })
            }
            let expected = Set(records.filter { $0.value.state != .absent }.keys)
            if labels != expected { violations.append("device \(index) lists \(labels.sorted()), expected \(expected.sorted())") }
            for (label, expected) in records.sorted(by: { $0.key < $1.key }) {
                guard let seen = try? observe(index, label, listed: labels) else { violations.append("\(label): unreadable on device \(index)"); continue }
                if seen != expected.state {
                    let kind = expected.state == .absent || expected.state == .noPassword ? "resurrected" : "lost or mixed up"
                    violations.append("\(label) on device \(index): \(kind): \(seen), expected \(expected.state)")
                }
            }
            guard let status = try? JSONSerialization.jsonObject(with: Data(device.run("status", "--json").stdout)) as? [String: Any],
                  let zones = status["zones"] as? [[String: Any]] else { violations.append("status failed on device \(index)"); continue }
            for zone in zones where (zone["pending_changes"] as? Int ?? -1) != 0 {
                violations.append("device \(index) zone \(zone["name"] ?? "?"): \(zone["pending_changes"] ?? "?") changes never drained")
            }
        }
    }
}

/// A small seeded generator, so a failing run replays from its seed.
struct SplitMix {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
