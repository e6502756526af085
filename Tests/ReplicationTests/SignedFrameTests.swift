import Replication
import Sodium
import XCTest

/// Objects are signed over their vault, history and name: any change, move or other key fails.
final class SignedFrameTests: XCTestCase {
    private let place = SignedFrame.Place(vaultID: "6d1f7c1e-4b8a-4f0e-9a51-1b2c3d4e5f60", genesis: [UInt8](repeating: 7, count: 32),
                                          objectName: "zones/config/aaaaaaaa-0000-4000-8000-000000000000/00000000000000000003.batch")
    private let frame = SignedFrame(signer: "aaaaaaaa-0000-4000-8000-000000000000", epoch: 2, rosterLength: 5, rosterHead: [UInt8](repeating: 1, count: 32),
                                    previous: [UInt8](repeating: 2, count: 32), body: Array("sealed batch bytes".utf8))

    func testASignedFrameReadsBackAndVerifiesOnlyWhereItWasSigned() throws {
        let key = try SigningKeyPair.generate()
        let bytes = frame.signed(by: key, at: place)
        let received = try SignedFrame.parse(bytes)
        XCTAssertEqual(received.frame, frame)
        XCTAssertTrue(received.verifies(at: place, publicKey: key.publicKey))
        XCTAssertFalse(received.verifies(at: place, publicKey: try SigningKeyPair.generate().publicKey), "another device's key")
        let elsewhere = [
            SignedFrame.Place(vaultID: place.vaultID, genesis: place.genesis, objectName: place.objectName.replacingOccurrences(of: "3.batch", with: "4.batch")),
            SignedFrame.Place(vaultID: "another vault", genesis: place.genesis, objectName: place.objectName),
            SignedFrame.Place(vaultID: place.vaultID, genesis: [UInt8](repeating: 8, count: 32), objectName: place.objectName),
        ]
        for other in elsewhere { XCTAssertFalse(received.verifies(at: other, publicKey: key.publicKey), "\(other)") }
    }

    /// Flipping any single byte either breaks the frame or its signature.
    func testEveryAlteredByteIsRefused() throws {
        let key = try SigningKeyPair.generate()
        let bytes = frame.signed(by: key, at: place)
        for index in bytes.indices {
            var altered = bytes
            altered[index] ^= 0x01
            if let received = try? SignedFrame.parse(altered) {
                XCTAssertFalse(received.verifies(at: place, publicKey: key.publicKey), "byte \(index)")
            }
        }
    }

    func testMalformedFramesAreRefusedWithAReason() throws {
        let bytes = frame.signed(by: try SigningKeyPair.generate(), at: place)
        var newer = bytes
        newer[2] = 9
        let foreign = SignedFrame(signer: "caf\u{e9}", epoch: 1, rosterLength: 1, rosterHead: frame.rosterHead, previous: frame.previous, body: [])
        for (bad, code) in [(Array(bytes.dropLast()), ReplicationError.Code.malformed), (bytes + [0], .malformed), ([UInt8](), .malformed),
                            (Array("CV".utf8) + bytes.dropFirst(2), .malformed), (newer, .unsupportedFormat),
                            (foreign.signed(by: try SigningKeyPair.generate(), at: place), .malformed)] {
            XCTAssertThrowsError(try SignedFrame.parse(bad)) { XCTAssertEqual(($0 as? ReplicationError)?.code, code, "\($0)") }
        }
    }
}
