import Membership
import Replication
import Sodium
import XCTest

/// A join request reads back only as its own device's, for this vault, while it lives; every
/// member reads the name sealed to it, and both sides compute the same code.
final class JoinRequestTests: XCTestCase {
    private let vaultID = "6d1f7c1e-4b8a-4f0e-9a51-1b2c3d4e5f60"
    private let genesis = [UInt8](repeating: 3, count: 32)
    private let now: UInt64 = 1_800_000_000

    func testARequestReadsBackForEveryMemberWithTheSameCode() throws {
        let joiner = try DeviceKeys.generate(id: "dddddddd-0000-4000-8000-000000000000", deviceKey: try SecretBytes.random(count: 32))
        let a = try BoxKeyPair.generate(), b = try BoxKeyPair.generate()
        let members = ["aaaaaaaa-0000-4000-8000-000000000000": a.publicKey, "bbbbbbbb-0000-4000-8000-000000000000": b.publicKey]
        let object = try JoinRequest.object(keys: joiner, name: "work laptop", members: members, vaultID: vaultID, genesis: genesis, now: now)
        let name = JoinRequest.objectName(joiner.id)
        XCTAssertEqual(name, "requests/dddddddd-0000-4000-8000-000000000000.request")
        let read = try JoinRequest.read(object, objectName: name, vaultID: vaultID, genesis: genesis, now: now + 60)
        XCTAssertEqual(read.device, joiner.publicKeys(sealedName: []))
        XCTAssertEqual(try read.name(as: "aaaaaaaa-0000-4000-8000-000000000000", syncBox: a), "work laptop")
        XCTAssertEqual(try read.name(as: "bbbbbbbb-0000-4000-8000-000000000000", syncBox: b), "work laptop")
        XCTAssertThrowsError(try read.name(as: "aaaaaaaa-0000-4000-8000-000000000000", syncBox: b))
        XCTAssertEqual(read.verificationCode, try JoinRequest.read(object, objectName: name, vaultID: vaultID, genesis: genesis, now: now).verificationCode)
        XCTAssertFalse(String(decoding: object, as: UTF8.self).contains("work laptop"), "the name is never in clear")
    }

    func testRequestsThatAreNotThisVaultsOrNotTheirDevicesOrExpiredAreRefused() throws {
        let joiner = try DeviceKeys.generate(id: "dddddddd-0000-4000-8000-000000000000", deviceKey: try SecretBytes.random(count: 32))
        let object = try JoinRequest.object(keys: joiner, name: "laptop", members: [:], vaultID: vaultID, genesis: genesis, now: now)
        let name = JoinRequest.objectName(joiner.id)
        var altered = object
        altered[altered.count - 70] ^= 1
        let cases: [(bytes: [UInt8], name: String, vault: String, genesis: [UInt8], now: UInt64, reason: String)] = [
            (object, name, vaultID, [UInt8](repeating: 4, count: 32), now, "another vault's history"),
            (object, name, "another vault", genesis, now, "signature does not verify"),
            (object, JoinRequest.objectName("eeeeeeee-0000-4000-8000-000000000000"), vaultID, genesis, now, "not under its device's name"),
            (object, name, vaultID, genesis, now + JoinRequest.lifetime + 1, "has expired"),
            (object, name, vaultID, genesis, now - 2_000, "clocks of the two devices differ"),
            (altered, name, vaultID, genesis, now, "signature does not verify"),
            (Array(object.dropLast()), name, vaultID, genesis, now, "malformed"),
        ]
        for test in cases {
            XCTAssertThrowsError(try JoinRequest.read(test.bytes, objectName: test.name, vaultID: test.vault, genesis: test.genesis, now: test.now), test.reason) {
                XCTAssertEqual(($0 as? MembershipError)?.code, .joinRequest)
                XCTAssertTrue("\($0)".contains(test.reason), "\($0) for \(test.reason)")
            }
        }
        XCTAssertThrowsError(try JoinRequest.object(keys: joiner, name: "", members: [:], vaultID: vaultID, genesis: genesis, now: now))
        // The same body, signed by its own key, in a frame claiming an epoch and a roster.
        let body = try SignedFrame.parse(object).frame.body
        let reframed = SignedFrame(signer: joiner.id, epoch: 1, rosterLength: 3, rosterHead: genesis, previous: [UInt8](repeating: 0, count: 32), body: body)
            .signed(by: joiner.signing, at: SignedFrame.Place(vaultID: vaultID, genesis: genesis, objectName: name))
        XCTAssertThrowsError(try JoinRequest.read(reframed, objectName: name, vaultID: vaultID, genesis: genesis, now: now)) {
            XCTAssertTrue("\($0)".contains("not a request's"), "\($0)")
        }
    }
}
