import CredentialVault
import FuzzSupport
import Glibc
import SSHConfig

/// An ssh_config file as `import ssh-config` reads it: split into blocks (Includes followed),
/// every host it names resolved as ssh resolves it, and each turned into an import plan (token
/// expansion, ProxyJump, forwards, validation).
///
/// Layout: an alias field to resolve besides the names the file gives, then the file. The file
/// lives in a private home on tmpfs whose `~/.ssh` holds a few files to include (one includes
/// itself); an input whose Include names a path outside `~/.ssh` is skipped, so the fuzzer
/// never reads the rest of the machine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSHConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let alias = input.text()
    let text = input.rest()
    guard includesStayHome(String(decoding: text, as: UTF8.self)) else { return 0 }
    let path = Home.path + "/.ssh/config"
    Home.write(text, to: path)
    guard let file = try? SSHConfigFile(path: path, home: Home.path) else { return 0 }
    var names = Set([alias, "web-1", "db.internal"])
    for block in file.blocks { names.formUnion(block.concreteNames.prefix(8)) }
    for name in names.sorted().prefix(16) {
        let host = SSHConfigHost(alias: name, in: file)
        _ = SSHConfigHostPlan(host, home: Home.path, localUser: "fuzz")
    }
    return 0
}

/// False when a line's Include pattern could leave `~/.ssh` (absolute, `~`, `..`).
private func includesStayHome(_ text: String) -> Bool {
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
        guard let line = try? SSHConfigLine(raw, location: "fuzz"), line.keyword == "include" else { continue }
        if line.arguments.contains(where: { $0.hasPrefix("/") || $0.hasPrefix("~") || $0.contains("..") }) { return false }
    }
    return true
}

/// The private home: `~/.ssh/config` (the input), and files an Include can name.
private enum Home {
    static let path: String = {
        let home = "/dev/shm/credvault-fuzz-ssh-\(getpid())"
        mkdir(home, 0o700)
        mkdir(home + "/.ssh", 0o700)
        mkdir(home + "/.ssh/config.d", 0o700)
        write(Array("Host included\n  HostName included.example\n  User deploy\n  LocalForward 8080 localhost:80\n".utf8), to: home + "/.ssh/config.d/work")
        write(Array("Host *.lan\n  ProxyJump admin@gate.lan:2222\n".utf8), to: home + "/.ssh/config.d/lan.conf")
        write(Array("Host loop\n  Include loop.conf\n".utf8), to: home + "/.ssh/loop.conf")
        atexit {
            for file in ["/.ssh/config", "/.ssh/config.d/work", "/.ssh/config.d/lan.conf", "/.ssh/loop.conf"] { unlink(Home.path + file) }
            for directory in ["/.ssh/config.d", "/.ssh", ""] { rmdir(Home.path + directory) }
        }
        return home
    }()

    static func write(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(fd >= 0, "cannot write \(path)")
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
