import Foundation
import Replication
import XCTest
@testable import ConfigTrack

/// An identity's confirmation is a field group of its own: set on one device while another
/// renames the identity, both hold everywhere, in every order of syncs — snapshots included,
/// which carry it in format 3.
extension FieldMergeTests {
    func testAConfirmationAndAConcurrentRenameBothHoldInEveryOrder() throws {
        for order in Self.orders {
            try reset()
            let made = try a.save(Identity(label: "laptop", keyType: .ed25519,
                                           publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me"))
            for store in [a!, b!, c!] { try sync(store) }
            var asks = try XCTUnwrap(try a.identity(id: made.id))
            asks.confirm = true
            try a.save(asks)
            usleep(2_000)
            var renamed = try XCTUnwrap(try b.identity(id: made.id))
            renamed.label = "work-laptop"
            try b.save(renamed)  // later, but of another group
            try syncAll(in: order)
            for store in [a!, b!] {
                let identity = try XCTUnwrap(try store.identity(id: made.id))
                XCTAssertEqual(identity.label, "work-laptop", "\(order): the rename holds")
                XCTAssertTrue(identity.confirm, "\(order): the confirmation holds")
                XCTAssertEqual(try store.conflicts(), [], "\(order): nothing lost, nothing kept")
                XCTAssertEqual(try store.counts().pendingChanges, 0, order)
            }
        }
    }

    /// Two devices that set it each their way: the later holds everywhere, and the device whose
    /// setting lost keeps it as a conflict of the `confirm` group, as any other field.
    func testTheLosingConfirmationIsKeptWhereItWasMade() throws {
        let made = try a.save(Identity(label: "laptop", keyType: .ed25519,
                                       publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me", confirm: true))
        for store in [a!, b!] { try sync(store) }
        XCTAssertTrue(try XCTUnwrap(try b.identity(id: made.id)).confirm)
        var off = try XCTUnwrap(try a.identity(id: made.id))
        off.confirm = false
        try a.save(off)
        usleep(2_000)
        var renamed = try XCTUnwrap(try b.identity(id: made.id))
        renamed.confirm = false
        try b.save(renamed)
        renamed = try XCTUnwrap(try b.identity(id: made.id))
        renamed.confirm = true
        try b.save(renamed)  // off and on again, later: wins
        for store in [a!, b!, a!] { try sync(store) }
        for store in [a!, b!] { XCTAssertTrue(try XCTUnwrap(try store.identity(id: made.id)).confirm) }
        let kept = try a.conflicts()
        XCTAssertEqual(kept.map(\.group), ["confirm"])
        XCTAssertEqual(kept.first?.kept, [.integer(0)])
        XCTAssertEqual(kept.first?.winner, [.integer(1)])
        XCTAssertEqual(try b.conflicts(), [])
    }
}
