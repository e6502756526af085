import Membership
import Sodium
import XCTest

/// A device's key file: what opens without unlocking, what needs the device key, and that a
/// damaged or swapped file is refused rather than half read.
final class DeviceKeysTests: XCTestCase {
    private let id = "aaaaaaaa-0000-4000-8000-000000000000"

    func testTheFileReadsBackAndTheLockedHalvesNeedTheDeviceKey() throws {
        let deviceKey = try SecretBytes.random(count: 32)
        let keys = try DeviceKeys.generate(id: id, deviceKey: deviceKey)
        let read = try DeviceKeys(decoding: try keys.encoded())
        XCTAssertEqual(read.id, id)
        XCTAssertEqual(read.publicKeys(sealedName: [1]), keys.publicKeys(sealedName: [1]))
        let message = Array("an object".utf8)
        XCTAssertTrue(SigningKeyPair.verify(read.signing.sign(message), of: message, publicKey: keys.signing.publicKey), "the signing key opens without unlocking")
        XCTAssertEqual(try read.rosterKey(deviceKey: deviceKey).publicKey, keys.rosterPublicKey)
        XCTAssertEqual(try read.vaultBox(deviceKey: deviceKey).publicKey, keys.vaultBoxPublicKey)
        let other = try SecretBytes.random(count: 32)
        XCTAssertThrowsError(try read.rosterKey(deviceKey: other)) { XCTAssertEqual(($0 as? SodiumError)?.code, .authenticationFailed) }
        XCTAssertThrowsError(try read.vaultBox(deviceKey: other)) { XCTAssertEqual(($0 as? SodiumError)?.code, .authenticationFailed) }
    }

    /// The sealed halves name their device: a file whose id was changed opens neither.
    func testSealedHalvesAreBoundToTheirDevice() throws {
        let deviceKey = try SecretBytes.random(count: 32)
        let file = try DeviceKeys.generate(id: id, deviceKey: deviceKey).encoded()
        let renamed = try file.withUnsafeBytes { bytes -> SecretBytes in
            var copy = Array(bytes)
            copy[4] = UInt8(ascii: "b")
            return try SecretBytes(copying: copy)
        }
        let read = try DeviceKeys(decoding: renamed)
        XCTAssertNotEqual(read.id, id)
        XCTAssertThrowsError(try read.rosterKey(deviceKey: deviceKey))
        XCTAssertThrowsError(try read.vaultBox(deviceKey: deviceKey))
    }

    func testAnIdThatIsNoDeviceIdMakesNoKeys() throws {
        for id in ["", String(repeating: "x", count: 200), "caf\u{e9}"] {
            XCTAssertThrowsError(try DeviceKeys.generate(id: id, deviceKey: try SecretBytes.random(count: 32))) {
                XCTAssertEqual(($0 as? MembershipError)?.code, .damagedDeviceKeys)
            }
        }
    }

    func testADamagedFileIsRefused() throws {
        let file = try DeviceKeys.generate(id: id, deviceKey: try SecretBytes.random(count: 32)).encoded()
        let bytes = file.withUnsafeBytes { Array($0) }
        var badID = bytes
        badID[4] = 0x20
        for bad in [Array(bytes.dropLast()), bytes + [0], [], Array(bytes.prefix(3)), [0x43, 0x4B, 2] + bytes.dropFirst(3), badID] {
            XCTAssertThrowsError(try DeviceKeys(decoding: try SecretBytes(copying: bad))) {
                XCTAssertEqual(($0 as? MembershipError)?.code, .damagedDeviceKeys, "\($0)")
            }
        }
    }
}
