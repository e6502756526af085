import Foundation
import Replication
import Sodium
import Synchronization
import XCTest
@testable import ConfigTrack
@testable import SecretTrack
import struct Identifiers.UUID

/// Devices with real stores syncing through a real directory remote, for the compaction tests.
class CompactionTestCase: XCTestCase {
    var directory = ""
    var remote: DirectoryRemote!
    let transport = try! SecretBytes.random(count: 32)
    let vaultKey = try! SecretBytes.random(count: 32)
    var now: CompactionPolicy {
        var policy = CompactionPolicy()
        policy.immediate = true
        return policy
    }

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "compaction-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/remote", withIntermediateDirectories: true)
        remote = DirectoryRemote(root: directory + "/remote")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func device(_ name: String) throws -> SimulatedDevice {
        try SimulatedDevice(name: name, directory: directory, vaultKey: vaultKey, skewMilliseconds: 0)
    }

    @discardableResult
    func sync(_ device: SimulatedDevice, policy: CompactionPolicy = CompactionPolicy()) throws -> [ZoneSyncReport] {
        try [device.configZone, device.secretZone].map { try ZoneEngine(store: $0, remote: remote, transportKey: transport, policy: policy).run() }
    }

    /// Equal replicas, said without printing them.
    func assertSame(_ device: SimulatedDevice, as reference: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let dump = try device.dump()
        XCTAssertTrue(dump == reference, "\(device.name) differs in \(Set(dump).symmetricDifference(reference).count) lines", file: file, line: line)
    }

    func batches(_ zone: String) throws -> [String: [UInt64]] {
        var result: [String: [UInt64]] = [:]
        for name in try remote.list(prefix: "zones/\(zone)/") {
            let parts = name.split(separator: "/")
            guard parts.count == 4, parts[3].hasSuffix(".batch"), let sequence = UInt64(parts[3].dropLast(6)) else { continue }
            result[String(parts[2]), default: []].append(sequence)
        }
        return result.mapValues { $0.sorted() }
    }
}
