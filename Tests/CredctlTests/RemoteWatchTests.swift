@testable import Agent
import Foundation
import XCTest
import struct Identifiers.UUID

/// What the agent's inotify watch on a directory remote counts as a change: another device's
/// object arriving (written, linked, or renamed into place), also in a folder made after the
/// watch began — never a temporary file, a removal, or this device's own objects; and a root
/// that goes ends the watch instead of failing it.
final class RemoteWatchTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "remote-watch-\(getpid())-\(UUID().uuidString)"
        for folder in ["zones/config/other", "zones/config/me", "roster"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    private func write(_ name: String) { XCTAssertTrue(FileManager.default.createFile(atPath: root + "/" + name, contents: Data([1, 2, 3]))) }

    /// Whether the watch sees a change within `seconds` (events are queued as the file system
    /// changes, so a short wait is enough for "no").
    private func sees(_ watch: RemoteWatch, within seconds: Double = 5) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if watch.wait(milliseconds: 100) { return true }
        }
        return false
    }

    func testOnlyAnotherDevicesArrivalsCount() throws {
        let watch = try RemoteWatch(root: root, device: "me")
        write("zones/config/me/00000000000000000001.batch")
        write("zones/config/other/.tmp-upload")
        write("roster/2.entry.part")
        XCTAssertFalse(sees(watch, within: 0.5), "own objects and temporary files")

        XCTAssertEqual(rename(root + "/zones/config/other/.tmp-upload", root + "/zones/config/other/00000000000000000001.batch"), 0)
        XCTAssertTrue(sees(watch), "a temporary file renamed into place")
        try FileManager.default.removeItem(atPath: root + "/zones/config/other/00000000000000000001.batch")
        XCTAssertFalse(sees(watch, within: 0.5), "a removal")
        XCTAssertEqual(link(root + "/zones/config/me/00000000000000000001.batch", root + "/roster/3.entry"), 0)
        XCTAssertTrue(sees(watch), "a hard link, as DirectoryRemote publishes")

        try FileManager.default.createDirectory(atPath: root + "/zones/secrets/newcomer", withIntermediateDirectories: true)
        XCTAssertTrue(sees(watch), "a new device's folder")
        XCTAssertFalse(sees(watch, within: 0.5))
        write("zones/secrets/newcomer/00000000000000000001.batch")
        XCTAssertTrue(sees(watch), "an object in a folder made after the watch began")
        XCTAssertNil(watch.ended)
    }

    func testARootThatGoesEndsTheWatchAndAMissingOneIsRefused() throws {
        let watch = try RemoteWatch(root: root, device: "me")
        try FileManager.default.moveItem(atPath: root, toPath: root + "-unmounted")
        defer { try? FileManager.default.removeItem(atPath: root + "-unmounted") }
        _ = sees(watch, within: 0.5)
        XCTAssertNotNil(watch.ended)

        XCTAssertThrowsError(try RemoteWatch(root: root, device: "me")) { error in
            let failure = error as? RemoteWatch.Failure
            XCTAssertEqual(failure?.limitReached, false)
            XCTAssertTrue(failure?.message.contains("no such file or directory") ?? false, "\(error)")
        }
    }
}
