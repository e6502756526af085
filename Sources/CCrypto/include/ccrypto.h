#ifndef CCRYPTO_H
#define CCRYPTO_H
#include <stddef.h>
#include <stdint.h>

/// OpenSSL's libcrypto 3 (Debian's libssl3), opened with dlopen on first use like CCurl: credctl
/// does not link it, so only a process that opens an RSA, ECDSA or DSA key, a PEM key, or a key
/// file encrypted with AES or 3DES loads it. The OpenSSL declarations used are written out in
/// libcrypto.h, so building needs no OpenSSL headers. Every function that can fail returns one of
/// the codes below and, for CCRYPTO_FAILED, says why in `error` (OpenSSL's reason, never data).
/// Private key material handed in is copied into OpenSSL objects that clear it when freed.

#define CCRYPTO_OK 0
#define CCRYPTO_FAILED 1
/// libcrypto could not be loaded (`error` says why).
#define CCRYPTO_UNAVAILABLE 2
/// An AEAD tag did not verify.
#define CCRYPTO_AUTHENTICATION 3
/// A PEM key is encrypted and no passphrase was given.
#define CCRYPTO_NEED_PASSPHRASE 4
/// A PEM key is encrypted and did not open with the passphrase given.
#define CCRYPTO_BAD_PASSPHRASE 5

/// Whether libcrypto could be loaded; on failure `error` says why.
int ccrypto_available(char *error, size_t error_length);

/// Decrypts `length` bytes of `input` into `output` with the OpenSSL cipher named `cipher`
/// ("AES-256-CTR", "AES-128-CBC", "DES-EDE3-CBC", "AES-256-GCM", …), without padding. The key
/// and IV lengths must be the cipher's. For GCM, `tag` is checked (CCRYPTO_AUTHENTICATION).
int ccrypto_decrypt(const char *cipher, const uint8_t *key, size_t key_length, const uint8_t *iv, size_t iv_length,
                    const uint8_t *input, size_t length, const uint8_t *tag, size_t tag_length, uint8_t *output,
                    char *error, size_t error_length);

/// An unsigned big-endian integer (an SSH mpint's bytes, a leading zero allowed).
typedef struct {
    const uint8_t *bytes;
    size_t length;
} ccrypto_integer;

/// An OpenSSL private key (an EVP_PKEY); free with `ccrypto_key_free`.
typedef struct ccrypto_key ccrypto_key;

/// An RSA key from OpenSSH's fields in their order: n, e, d, iqmp, p, q. The CRT exponents
/// d mod (p-1) and d mod (q-1) are computed here.
int ccrypto_rsa_key(const ccrypto_integer fields[6], ccrypto_key **key, char *error, size_t error_length);

/// An ECDSA key on `group` ("P-256", "P-384", "P-521") from its public point and private scalar.
int ccrypto_ec_key(const char *group, const ccrypto_integer *point, const ccrypto_integer *scalar, ccrypto_key **key,
                   char *error, size_t error_length);

/// A DSA key from OpenSSH's fields in their order: p, q, g, y, x.
int ccrypto_dsa_key(const ccrypto_integer fields[5], ccrypto_key **key, char *error, size_t error_length);

/// A key from an OpenSSL PEM file (PKCS#1, SEC 1, DSA, PKCS#8, encrypted or not). `passphrase`
/// is NUL-terminated, or NULL when there is none; OpenSSL never prompts.
int ccrypto_pem_key(const uint8_t *pem, size_t length, const char *passphrase, ccrypto_key **key,
                    char *error, size_t error_length);

#define CCRYPTO_KIND_OTHER 0
#define CCRYPTO_KIND_RSA 1
#define CCRYPTO_KIND_EC 2
#define CCRYPTO_KIND_DSA 3
#define CCRYPTO_KIND_ED25519 4

/// The algorithm of `key`, one of the CCRYPTO_KIND_ values.
int ccrypto_key_kind(const ccrypto_key *key);

/// Checks that the private half of `key` belongs to its public half: for RSA n = p·q,
/// e·d ≡ 1 modulo p−1 and q−1, iqmp·q ≡ 1 modulo p; OpenSSL's pairwise check for ECDSA
/// (Q = d·G) and DSA (y = g^x mod p).
int ccrypto_key_check(ccrypto_key *key, char *error, size_t error_length);

/// A public integer of `key` ("n", "e"; "p", "q", "g", "pub"), big-endian without leading zeros.
int ccrypto_key_integer(const ccrypto_key *key, const char *name, uint8_t *out, size_t capacity, size_t *length,
                        char *error, size_t error_length);

/// An ECDSA key's group name (OpenSSL's, e.g. "prime256v1") and uncompressed public point.
int ccrypto_key_ec_public(ccrypto_key *key, char *group, size_t group_capacity, uint8_t *point, size_t capacity,
                          size_t *length, char *error, size_t error_length);

/// The raw private key of an Ed25519 key (its 32-byte seed), written into `out`.
int ccrypto_key_raw_private(const ccrypto_key *key, uint8_t *out, size_t capacity, size_t *length,
                            char *error, size_t error_length);

/// Signs `data` with `digest` ("SHA1", "SHA256", "SHA384", "SHA512"): PKCS#1 v1.5 for RSA, DER
/// (r, s) for ECDSA and DSA.
int ccrypto_sign(ccrypto_key *key, const char *digest, const uint8_t *data, size_t length, uint8_t *signature,
                 size_t capacity, size_t *signature_length, char *error, size_t error_length);

void ccrypto_key_free(ccrypto_key *key);

/// bcrypt_pbkdf's inner hash: 64 rounds of Eksblowfish keyed by the SHA-512 digests `sha2pass`
/// and `sha2salt` (64 bytes each), then 64 encryptions of "OxychromaticBlowfishSwatDynamite",
/// written as 32 bytes to `out`. Needs no library; wipes its state.
void ccrypto_bcrypt_hash(const uint8_t *sha2pass, const uint8_t *sha2salt, uint8_t *out);
#endif
