import Foundation
import FuzzSupport
import Sodium

/// Writes seed files into `<root>/<harness>/`, each named by the hash of its bytes.
struct SeedWriter {
    let root: String

    func write(_ harness: String, _ bytes: [UInt8]) {
        let directory = root + "/" + harness
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let name = GenericHash.hash(bytes).prefix(8).map { String($0, radix: 16).leftPadded }.joined()
        FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(bytes))
    }

    func write(_ harness: String, _ build: (inout FuzzInputWriter) -> Void) {
        var writer = FuzzInputWriter()
        build(&writer)
        write(harness, writer.bytes)
    }
}

extension String {
    fileprivate var leftPadded: String { count < 2 ? "0" + self : self }
}
