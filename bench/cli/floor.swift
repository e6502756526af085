// The Swift floor of `make bench-cli`: floor.c step for step (read a 32-byte key file, open an
// SQLite database read-only, read one sealed row by primary key, open it with
// XChaCha20-Poly1305, print it), so the two differ only in language and runtime. No Foundation:
// it alone adds milliseconds to a process start, and the floor is what Swift costs without it.
// Built twice, with the standard library linked dynamically and with -static-stdlib, against
// the package's own module maps (Sources/CSQLite, Sources/CSodium).
//
// Usage: floor DATABASE KEYFILE ID
import CSQLite
import CSodium
import Glibc

func fail(_ what: String) -> Never {
    let line = Array("floor: \(what)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let id = Int64(arguments[3]) else { fail("usage: floor DATABASE KEYFILE ID") }
guard sodium_init() >= 0 else { fail("sodium_init failed") }
var key = [UInt8](repeating: 0, count: Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES))
let fd = open(arguments[2], O_RDONLY | O_CLOEXEC)
guard fd >= 0, key.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) == key.count else { fail("unable to read the key file") }
close(fd)

var db: OpaquePointer?
var statement: OpaquePointer?
guard sqlite3_open_v2(arguments[1], &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK,
      sqlite3_prepare_v2(db, "SELECT sealed FROM secrets WHERE id = ?", -1, &statement, nil) == SQLITE_OK,
      sqlite3_bind_int64(statement, 1, id) == SQLITE_OK,
      sqlite3_step(statement) == SQLITE_ROW
else { fail("unable to read the row") }

// The row is nonce ‖ ciphertext ‖ tag, as floor-setup.c seals it.
let nonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
let length = Int(sqlite3_column_bytes(statement, 0))
guard let sealed = sqlite3_column_blob(statement, 0)?.assumingMemoryBound(to: UInt8.self),
      length >= nonceBytes + Int(crypto_aead_xchacha20poly1305_ietf_ABYTES), length <= 4_096
else { fail("the row has the wrong length") }
var plain = [UInt8](repeating: 0, count: length)
var plainLength: UInt64 = 0
guard crypto_aead_xchacha20poly1305_ietf_decrypt(&plain, &plainLength, nil, sealed + nonceBytes, UInt64(length - nonceBytes),
                                                 nil, 0, sealed, key) == 0
else { fail("the row does not open with this key") }
sodium_memzero(&key, key.count)
plain[Int(plainLength)] = 0x0A
_ = plain.withUnsafeBytes { write(1, $0.baseAddress, Int(plainLength) + 1) }
sodium_memzero(&plain, plain.count)
sqlite3_finalize(statement)
sqlite3_close(db)
