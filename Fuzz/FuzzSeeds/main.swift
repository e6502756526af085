import Foundation

// Writes the seed corpora: `FuzzSeeds [DIRECTORY]` (default Fuzz/corpus), one folder per
// harness. Seeds are real objects made by the library itself (batches, snapshots, vault.json,
// config records), real keys made by ssh-keygen, and realistic files, each in the layout its
// harness reads (see the harness's doc comment). Files are named by their content, so running
// it again adds nothing twice.
let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Fuzz/corpus"
let seeds = SeedWriter(root: root)
do {
    try ReplicationSeeds.write(seeds)
    try KeySeeds.write(seeds)
    TextSeeds.write(seeds)
    try MembershipSeeds.write(seeds)
} catch {
    FileHandle.standardError.write(Data("FuzzSeeds: \(error)\n".utf8))
    exit(1)
}
print("seed corpora written under \(root)")
