import Foundation
import XCTest
@testable import CredentialVault

/// A `remote set` cut short: after this vault took another vault's key but before its binding
/// was rewritten, nothing is sent to the old remote; after a rebind's binding was saved but
/// before its requeue, the next sync finishes the requeue.
final class InterruptedRemoteSetTests: VaultTestCase {
    func testAnInterruptedAdoptionStopsUploadsToTheOldRemote() throws {
        let vault = try makeVault()
        let remote = directory + "/remote"
        try vault.setRemote(directory: remote)
        try vault.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        // What the interrupted adoption leaves: the new id and key, the old binding.
        try vault.secrets.adoptVault(id: "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f", vaultKey: try .random(count: 32))
        let outcomes = try vault.sync()
        XCTAssertEqual(outcomes.map(\.state), [.needsAttention, .needsAttention])
        XCTAssertTrue(outcomes.first?.reason?.contains("--merge") == true, "\(outcomes)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: remote + "/zones"), "nothing sent")
    }

    func testARequeueCutShortIsFinishedByTheNextSync() throws {
        let vault = try makeVault()
        let remote = directory + "/remote"
        guard case .created(let recoveryKey) = try vault.setRemote(directory: remote) else { return XCTFail("the remote existed") }
        try vault.addHost(Host(label: "web", hostname: "web.example"), password: try secret("pw"))
        _ = try vault.sync()
        // The remote loses its objects; a rebind saved its binding and died before requeueing.
        try FileManager.default.removeItem(atPath: remote + "/zones")
        let path = vaultPath + "/remote.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"location\"", with: "\"requeue_pending\" : true,\n  \"location\"").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(try vault.status().zones.map(\.pendingChanges), [0, 0], "nothing queued before")
        let outcomes = try vault.sync()
        XCTAssertEqual(outcomes.map(\.state), [.available, .available])
        XCTAssertGreaterThan(outcomes.map(\.sentChanges).reduce(0, +), 1, "every record sent again")
        XCTAssertFalse(try String(contentsOfFile: path, encoding: .utf8).contains("requeue_pending"))
        let joined = try Vault.join(at: directory + "/second", remote: .directory(remote), join: JoinCredentials(recoveryKey: recoveryKey),
                                    key: .keyFile(path: directory + "/second.key"), kdf: .insecureForTesting()).vault
        _ = try joined.sync()
        XCTAssertEqual(try joined.hosts().map(\.label), ["web"])
    }
}
