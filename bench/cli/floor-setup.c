/* Creates what the floor programs (floor.c, floor.swift) read: a new 32-byte key file (mode
 * 0600) and a new SQLite database whose table `secrets` holds ROWS sealed random passwords, so
 * the floors look one up in a table as large as the largest vault they are compared with.
 *
 * Usage: floor-setup DATABASE KEYFILE ROWS */
#include <sodium.h>
#include <sqlite3.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int fail(const char *what) {
    fprintf(stderr, "floor-setup: %s\n", what);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 4) return fail("usage: floor-setup DATABASE KEYFILE ROWS");
    long rows = strtol(argv[3], NULL, 10);
    if (rows < 1 || sodium_init() < 0) return fail("ROWS must be positive (or sodium_init failed)");
    unsigned char key[crypto_aead_xchacha20poly1305_ietf_KEYBYTES];
    crypto_aead_xchacha20poly1305_ietf_keygen(key);
    int fd = open(argv[2], O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0 || write(fd, key, sizeof key) != (ssize_t)sizeof key || close(fd) != 0) return fail("unable to write the key file");

    sqlite3 *db = NULL;
    sqlite3_stmt *insert = NULL;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXCLUSIVE, NULL) != SQLITE_OK
        || sqlite3_exec(db, "CREATE TABLE secrets (id INTEGER PRIMARY KEY, sealed BLOB NOT NULL); BEGIN", NULL, NULL, NULL) != SQLITE_OK
        || sqlite3_prepare_v2(db, "INSERT INTO secrets (id, sealed) VALUES (?, ?)", -1, &insert, NULL) != SQLITE_OK) return fail("unable to create the database");
    for (long id = 1; id <= rows; id++) {
        /* A 24-character password, sealed as nonce ‖ ciphertext ‖ tag. */
        char password[25];
        unsigned char random[18];
        randombytes_buf(random, sizeof random);
        sodium_bin2base64(password, sizeof password, random, sizeof random, sodium_base64_VARIANT_ORIGINAL);
        unsigned char sealed[crypto_aead_xchacha20poly1305_ietf_NPUBBYTES + 24 + crypto_aead_xchacha20poly1305_ietf_ABYTES];
        randombytes_buf(sealed, crypto_aead_xchacha20poly1305_ietf_NPUBBYTES);
        crypto_aead_xchacha20poly1305_ietf_encrypt(sealed + crypto_aead_xchacha20poly1305_ietf_NPUBBYTES, NULL,
            (const unsigned char *)password, 24, NULL, 0, NULL, sealed, key);
        if (sqlite3_bind_int64(insert, 1, id) != SQLITE_OK || sqlite3_bind_blob(insert, 2, sealed, sizeof sealed, SQLITE_TRANSIENT) != SQLITE_OK
            || sqlite3_step(insert) != SQLITE_DONE || sqlite3_reset(insert) != SQLITE_OK) return fail("unable to insert a row");
    }
    sodium_memzero(key, sizeof key);
    sqlite3_finalize(insert);
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK || sqlite3_close(db) != SQLITE_OK) return fail("unable to commit");
    return 0;
}
