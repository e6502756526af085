/* The core of bcrypt_pbkdf (OpenBSD, used by OpenSSH for encrypted key files): the "bcrypt hash"
   of a SHA-512'd passphrase and salt, built on Eksblowfish. Written here from the published
   definitions (Schneier's Blowfish, Provos and Mazieres' expensive key schedule, and OpenBSD's
   bcrypt_pbkdf(3)) rather than in Swift, because a debug Swift build runs this tight loop far
   too slowly; Package.swift compiles this target with -O2 even in debug builds. The SHA-512
   steps and the PBKDF2-like outer loop are in Swift (SSHKeys' BcryptPBKDF). */
#include "ccrypto.h"
#include "blowfish_pi.h"
#include <string.h>

typedef struct {
    uint32_t p[18];
    uint32_t s[4][256];
} blowfish;

static inline uint32_t feistel(const blowfish *state, uint32_t x) {
    return ((state->s[0][x >> 24] + state->s[1][(x >> 16) & 0xff]) ^ state->s[2][(x >> 8) & 0xff]) + state->s[3][x & 0xff];
}

/* One 64-bit block, as two big-endian halves. Two rounds per pass, so the halves never swap. */
static inline void encipher(const blowfish *state, uint32_t *left, uint32_t *right) {
    uint32_t l = *left, r = *right;
    for (int i = 0; i < 16; i += 2) {
        l ^= state->p[i];
        r ^= feistel(state, l);
        r ^= state->p[i + 1];
        l ^= feistel(state, r);
    }
    *left = r ^ state->p[17];
    *right = l ^ state->p[16];
}

/* The next 32 bits of `data` read as a big-endian stream that wraps around. */
static inline uint32_t next_word(const uint8_t *data, size_t length, size_t *position) {
    uint32_t word = 0;
    for (int i = 0; i < 4; i++) {
        word = word << 8 | data[*position];
        *position = (*position + 1) % length;
    }
    return word;
}

/* Eksblowfish's key expansion: XOR the key into P, then re-key P and the S-boxes with the
   running encryption of a block that absorbs the salt (when there is one) before each step. */
static void expand(blowfish *state, const uint8_t *salt, size_t salt_length, const uint8_t *key, size_t key_length) {
    size_t position = 0;
    for (int i = 0; i < 18; i++) state->p[i] ^= next_word(key, key_length, &position);
    uint32_t left = 0, right = 0;
    position = 0;
    uint32_t *tables[5] = {state->p, state->s[0], state->s[1], state->s[2], state->s[3]};
    for (int table = 0; table < 5; table++) {
        int count = table == 0 ? 18 : 256;
        for (int i = 0; i < count; i += 2) {
            if (salt) {
                left ^= next_word(salt, salt_length, &position);
                right ^= next_word(salt, salt_length, &position);
            }
            encipher(state, &left, &right);
            tables[table][i] = left;
            tables[table][i + 1] = right;
        }
    }
}

void ccrypto_bcrypt_hash(const uint8_t *sha2pass, const uint8_t *sha2salt, uint8_t *out) {
    static const char magic[] = "OxychromaticBlowfishSwatDynamite";
    blowfish state;
    memcpy(state.p, blowfish_pi, sizeof state.p);
    memcpy(state.s, blowfish_pi + 18, sizeof state.s);
    expand(&state, sha2salt, 64, sha2pass, 64);
    for (int i = 0; i < 64; i++) {
        expand(&state, NULL, 0, sha2salt, 64);
        expand(&state, NULL, 0, sha2pass, 64);
    }
    uint32_t block[8];
    size_t position = 0;
    for (int i = 0; i < 8; i++) block[i] = next_word((const uint8_t *)magic, sizeof magic - 1, &position);
    for (int round = 0; round < 64; round++) {
        for (int i = 0; i < 8; i += 2) encipher(&state, &block[i], &block[i + 1]);
    }
    /* bcrypt_pbkdf writes each word little-endian. */
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)block[i];
        out[4 * i + 1] = (uint8_t)(block[i] >> 8);
        out[4 * i + 2] = (uint8_t)(block[i] >> 16);
        out[4 * i + 3] = (uint8_t)(block[i] >> 24);
    }
    explicit_bzero(&state, sizeof state);
    explicit_bzero(block, sizeof block);
}
