import Foundation
import XCTest

/// Every command, run as a user would, with its exact standard output, standard error and exit
/// status. Ids and temporary paths vary per run and are replaced by <id> and <dir>.
final class CredctlTranscriptTests: CredctlTestCase {
    private func normalized(_ text: String) -> String {
        var text = text.replacingOccurrences(of: directory, with: "<dir>")
        text = text.replacingOccurrences(of: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", with: "<id>", options: .regularExpression)
        return text
    }

    private func expect(_ arguments: [String], input: String = "", status: Int32 = 0, stdout: String, stderr: String = "",
                        file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try credctl.run(arguments, input: Array(input.utf8))
        assertStatus(result, status, file: file, line: line)
        XCTAssertEqual(normalized(result.output), stdout, "stdout of \(arguments)", file: file, line: line)
        XCTAssertEqual(normalized(result.stderr), stderr, "stderr of \(arguments)", file: file, line: line)
    }

    func testHostsGroupsAndForwards() throws {
        try expect(["init"], stdout: """
            Created vault <dir>/vault (device <id>); it unlocks with the key file <dir>/vault.key.
            Keep a copy of the key file somewhere safe: without it the vault cannot be opened.

            """)
        try expect(["group", "add", "prod"], stdout: "Added group 'prod'.\n")
        try expect(["group", "list"], stdout: "LABEL  PARENT  HOSTS\nprod   -       0\n")
        try expect(["host", "add", "web 1", "--hostname", "10.0.0.5", "--user", "deploy", "--group", "prod", "--password-stdin"], input: "pw\n",
                   stdout: "Added host 'web 1' (10.0.0.5:22, password).\n")
        try expect(["host", "add", "web 1", "--hostname", "10.0.0.6"], status: 65, stdout: "", stderr: """
            credctl: error: A host labelled 'web 1' already exists.
            credctl: hint: Choose another label or edit the existing host.

            """)
        try expect(["host", "edit", "web 1", "--port", "2222", "--label", "web-1"], stdout: "Updated host 'web-1'.\n")
        try expect(["host", "list"], stdout: "LABEL  ADDRESS        USER    AUTH      GROUP\nweb-1  10.0.0.5:2222  deploy  password  prod\n")
        try expect(["forward", "add", "web-1", "--local", "8080:localhost:80"], stdout: "Added local forward 8080:localhost:80 to 'web-1' (id <id>).\n")
        try expect(["forward", "list"], stdout: "ID" + String(repeating: " ", count: 36) + "HOST   KIND   SPEC\n<id>  web-1  local  8080:localhost:80\n")
        try expect(["host", "show", "web-1"], stdout: """
            Label:     web-1
            Id:        <id>
            Address:   10.0.0.5:2222
            User:      deploy
            Auth:      password
            Password:  stored
            Identity:  -
            Group:     prod
            Jump:      -
            Forward:   local 8080:localhost:80

            """)
        try expect(["resolve", "web-1"], stdout: """
            Host:      web-1
            Connect:   deploy@10.0.0.5:2222
            Forward:   local 8080:localhost:80
            Auth:      password (stored)
            (secrets hidden; add --reveal to print them)

            """)
        try expect(["read", "cred://host/web-1/password"], stdout: "pw")
        try expect(["group", "rm", "prod"], stdout: "Removed group 'prod'.\n")
        try expect(["host", "rm", "web-1"], stdout: "Removed host 'web-1'.\n")
        try expect(["host", "list"], stdout: "No hosts.\n")
        try expect(["forward", "list"], stdout: "No port forwards.\n")
        try expect(["host", "rm", "web-1"], status: 66, stdout: "", stderr: """
            credctl: error: No host 'web-1'.
            credctl: hint: List them with the host list command.

            """)
        try expect(["status"], stdout: """
            Vault:       <dir>/vault
            Vault id:    <id>
            Device id:   <id>
            Lock state:  locked (unlocks with keyfile)
            Secrets in:  secrets.sqlite
            Hosts:       0    Groups: 0    Identities: 0    Forwards: 0
            Secrets:     0 device-only, 0 syncable, 1 deletion markers
            Keyring:     unavailable (No desktop keyring: there is no session bus (Cannot autolaunch D-Bus without X11 $DISPLAY).)
            Agent:       not running (credctl unlock starts one)
            Zone config: localOnly (3 pending, 0 quarantined)
            Zone secrets: localOnly (0 pending, 0 quarantined)

            """)
    }

    func testIdentities() throws {
        try initVault()
        let key = directory + "/id_ecdsa"
        let keygen = Process()
        keygen.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        keygen.arguments = ["-q", "-t", "ecdsa", "-N", "key-pass", "-C", "me@laptop", "-f", key]
        try keygen.run()
        keygen.waitUntilExit()
        let publicKey = try String(contentsOfFile: key + ".pub", encoding: .utf8).trimmingCharacters(in: .newlines)
        try expect(["identity", "add", "laptop", "--private-key", key, "--user", "me", "--passphrase-stdin"], input: "key-pass\n",
                   stdout: "Added identity 'laptop' (ecdsa-sha2-nistp256, passphrase checked and stored).\n")
        try expect(["identity", "list"], stdout: "LABEL   TYPE                 USER  PASSPHRASE  CONFIRM\nlaptop  ecdsa-sha2-nistp256  me    stored      -\n")
        try expect(["identity", "show", "laptop"], stdout: """
            Label:       laptop
            Id:          <id>
            Type:        ecdsa-sha2-nistp256
            User:        me
            Private key: stored
            Passphrase:  stored
            Confirm use: no
            Public key:  \(publicKey)

            """)
        try expect(["read", "cred://identity/laptop/passphrase"], stdout: "key-pass")
        try expect(["identity", "add", "other", "--private-key", key + ".pub"], status: 65, stdout: "", stderr: """
            credctl: error: Unable to import private key '<dir>/id_ecdsa.pub': this is a public key; give the private key file.
            credctl: hint: The private key is usually the same path without .pub.

            """)
        try expect(["host", "add", "db", "--hostname", "db.internal", "--identity", "laptop"], stdout: "Added host 'db' (db.internal:22, publickey).\n")
        try expect(["identity", "rm", "laptop"], status: 1, stdout: "", stderr: """
            credctl: error: Identity 'laptop' is used by 'db'.
            credctl: hint: Give those hosts another identity or remove them first.

            """)
        try expect(["host", "rm", "db"], stdout: "Removed host 'db'.\n")
        try expect(["identity", "rm", "laptop"], stdout: "Removed identity 'laptop'.\n")
        try expect(["identity", "list", "--json"], stdout: "{\n  \"identities\": []\n}\n")
    }
}
