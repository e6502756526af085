import Foundation
import XCTest

/// `credctl sync --compact` on a directory remote: three devices, a fourth joining after the
/// collection (the same scenario runs against SeaweedFS in `S3SyncTests`).
final class CompactionCommandTests: TwoDeviceTestCase {
    func testThreeDevicesCompactAndAFourthJoiningLaterConverges() throws {
        let scenario = CompactionScenario(
            device: { CredctlRunner(vault: self.directory + "/" + $0, keyFile: self.directory + "/" + $0 + ".key") },
            joinArguments: [remote, "--sync-passphrase-file", syncPassphrase],
            names: { try Self.files(under: self.remote) })
        try scenario.run(first: a, in: self)
    }

    /// Relative paths of the regular files below `root`.
    static func files(under root: String) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var names: [String] = []
        while let name = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue { names.append(name) }
        }
        return names.sorted()
    }
}
