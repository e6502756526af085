import SQLite

extension ConfigStore {
    /// Every stored record that breaks the rules a save and a merge hold records to now, in one
    /// read transaction. Each record is checked by the same `ConfigValidation.record`.
    public func ruleViolations() throws -> [RuleViolation] {
        try read("check stored records against the rules") { db in
            var found: [RuleViolation] = []
            let hosts = try all(db, Host.self)
            let hostLabels = Dictionary(hosts.map { ($0.id, $0.label) }, uniquingKeysWith: { first, _ in first })
            func check(_ record: any ConfigRecord, label: String) {
                do {
                    try ConfigValidation.record(record)
                } catch let error as ConfigError {
                    found.append(RuleViolation(kind: type(of: record).kind, label: CanonicalUUID.printable(label), reason: error.message))
                } catch {
                    found.append(RuleViolation(kind: type(of: record).kind, label: CanonicalUUID.printable(label), reason: "\(error)"))
                }
            }
            for host in hosts { check(host, label: host.label) }
            for identity in try all(db, Identity.self) { check(identity, label: identity.label) }
            for group in try all(db, HostGroup.self) { check(group, label: group.label) }
            for rule in try all(db, PortForwardRule.self) {
                check(rule, label: "\(hostLabels[rule.hostID] ?? "?") \(rule.kind.rawValue) \(rule.specification)")
            }
            for device in try all(db, Device.self) { check(device, label: device.displayName) }
            return found
        }
    }
}
