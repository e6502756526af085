/* The C floor of `make bench-cli`: the least a whole process can do to hand out one stored
 * secret — read a 32-byte key file, open an SQLite database read-only, read one sealed row by
 * primary key, open it with XChaCha20-Poly1305 and print it. floor.swift does the same, step
 * for step, so the two differ only in language and runtime. The database comes from
 * floor-setup.c.
 *
 * Usage: floor DATABASE KEYFILE ID */
#include <sodium.h>
#include <sqlite3.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int fail(const char *what) {
    fprintf(stderr, "floor: %s\n", what);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 4) return fail("usage: floor DATABASE KEYFILE ID");
    if (sodium_init() < 0) return fail("sodium_init failed");
    unsigned char key[crypto_aead_xchacha20poly1305_ietf_KEYBYTES];
    int fd = open(argv[2], O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, key, sizeof key) != (ssize_t)sizeof key) return fail("unable to read the key file");
    close(fd);

    sqlite3 *db = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK
        || sqlite3_prepare_v2(db, "SELECT sealed FROM secrets WHERE id = ?", -1, &statement, NULL) != SQLITE_OK
        || sqlite3_bind_int64(statement, 1, strtoll(argv[3], NULL, 10)) != SQLITE_OK
        || sqlite3_step(statement) != SQLITE_ROW) return fail("unable to read the row");

    /* The row is nonce ‖ ciphertext ‖ tag, as floor-setup.c seals it. */
    const unsigned char *sealed = sqlite3_column_blob(statement, 0);
    int length = sqlite3_column_bytes(statement, 0);
    const int overhead = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES + crypto_aead_xchacha20poly1305_ietf_ABYTES;
    if (length < overhead || length > overhead + 4096) return fail("the row has the wrong length");
    unsigned char plain[4096];
    unsigned long long plainLength = 0;
    if (crypto_aead_xchacha20poly1305_ietf_decrypt(plain, &plainLength, NULL,
            sealed + crypto_aead_xchacha20poly1305_ietf_NPUBBYTES, length - crypto_aead_xchacha20poly1305_ietf_NPUBBYTES,
            NULL, 0, sealed, key) != 0) return fail("the row does not open with this key");
    sodium_memzero(key, sizeof key);
    fwrite(plain, 1, plainLength, stdout);
    fputc('\n', stdout);
    sodium_memzero(plain, sizeof plain);
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return 0;
}
