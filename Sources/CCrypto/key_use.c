/* What is done with a key once OpenSSL holds it: checks, its public numbers, signing. */
#include "libcrypto.h"
#include <stdio.h>

int ccrypto_key_kind(const ccrypto_key *key) {
    const EVP_PKEY *pkey = (const EVP_PKEY *)key;
    if (crypto.EVP_PKEY_is_a(pkey, "RSA")) return CCRYPTO_KIND_RSA;
    if (crypto.EVP_PKEY_is_a(pkey, "EC")) return CCRYPTO_KIND_EC;
    if (crypto.EVP_PKEY_is_a(pkey, "DSA")) return CCRYPTO_KIND_DSA;
    if (crypto.EVP_PKEY_is_a(pkey, "ED25519")) return CCRYPTO_KIND_ED25519;
    return CCRYPTO_KIND_OTHER;
}

/* What OpenSSL's RSA check tests, except that p and q are prime (which costs a quarter of a
   second for RSA-3072): n = p·q, e·d ≡ 1 modulo p−1 and q−1, and iqmp·q ≡ 1 modulo p. A key that
   passes signs correctly; one with a damaged d or iqmp would otherwise sign wrongly or fail. */
static int check_rsa(EVP_PKEY *pkey, char *error, size_t error_length) {
    static const char *const names[6] = {"n", "e", "d", "rsa-factor1", "rsa-factor2", "rsa-coefficient1"};
    /* n, e, d, p, q, iqmp, then scratch: product, p−1, q−1. */
    BIGNUM *numbers[9] = {0};
    BN_CTX *scratch = NULL;
    int status = CCRYPTO_OK;
    for (int i = 0; i < 6 && status == CCRYPTO_OK; i++) {
        if (crypto.EVP_PKEY_get_bn_param(pkey, names[i], &numbers[i]) != 1) status = libcrypto_failure("EVP_PKEY_get_bn_param", error, error_length);
    }
    BIGNUM *n = numbers[0], *e = numbers[1], *d = numbers[2], *p = numbers[3], *q = numbers[4], *iqmp = numbers[5];
    if (status == CCRYPTO_OK) {
        int computed = (scratch = crypto.BN_CTX_secure_new()) && (numbers[6] = crypto.BN_secure_new()) &&
                       (numbers[7] = crypto.BN_dup(p)) && (numbers[8] = crypto.BN_dup(q)) &&
                       crypto.BN_sub_word(numbers[7], 1) && crypto.BN_sub_word(numbers[8], 1);
        BIGNUM *product = numbers[6], *p1 = numbers[7], *q1 = numbers[8];
        const char *broken = NULL;
        if (!computed || !crypto.BN_mul(product, p, q, scratch)) {
            status = libcrypto_failure("BN_mul", error, error_length);
        } else if (crypto.BN_cmp(product, n) != 0) {
            broken = "its primes do not multiply to its modulus";
        } else if (!crypto.BN_mod_mul(product, e, d, p1, scratch) || !crypto.BN_is_one(product) ||
                   !crypto.BN_mod_mul(product, e, d, q1, scratch) || !crypto.BN_is_one(product)) {
            broken = "its private exponent does not invert its public one";
        } else if (!crypto.BN_mod_mul(product, iqmp, q, p, scratch) || !crypto.BN_is_one(product)) {
            broken = "its CRT coefficient is not the inverse of q modulo p";
        }
        if (broken) {
            crypto.ERR_clear_error();
            snprintf(error, error_length, "%s", broken);
            status = CCRYPTO_FAILED;
        }
    }
    crypto.BN_CTX_free(scratch);
    crypto.BN_free(numbers[0]);
    crypto.BN_free(numbers[1]);
    for (int i = 2; i < 9; i++) crypto.BN_clear_free(numbers[i]);
    return status;
}

int ccrypto_key_check(ccrypto_key *key, char *error, size_t error_length) {
    EVP_PKEY *pkey = (EVP_PKEY *)key;
    if (crypto.EVP_PKEY_is_a(pkey, "RSA")) return check_rsa(pkey, error, error_length);
    EVP_PKEY_CTX *context = crypto.EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
    if (!context) return libcrypto_failure("EVP_PKEY_CTX_new_from_pkey", error, error_length);
    int status = crypto.EVP_PKEY_pairwise_check(context) == 1 ? CCRYPTO_OK : libcrypto_failure("EVP_PKEY_pairwise_check", error, error_length);
    crypto.EVP_PKEY_CTX_free(context);
    return status;
}

int ccrypto_key_integer(const ccrypto_key *key, const char *name, uint8_t *out, size_t capacity, size_t *length,
                        char *error, size_t error_length) {
    BIGNUM *value = NULL;
    if (crypto.EVP_PKEY_get_bn_param((const EVP_PKEY *)key, name, &value) != 1) {
        return libcrypto_failure("EVP_PKEY_get_bn_param", error, error_length);
    }
    size_t size = ((size_t)crypto.BN_num_bits(value) + 7) / 8;
    int status = CCRYPTO_OK;
    if (size > capacity) {
        snprintf(error, error_length, "its %s is too large", name);
        status = CCRYPTO_FAILED;
    } else {
        *length = (size_t)crypto.BN_bn2bin(value, out);
    }
    crypto.BN_free(value);
    return status;
}

int ccrypto_key_ec_public(ccrypto_key *key, char *group, size_t group_capacity, uint8_t *point, size_t capacity,
                          size_t *length, char *error, size_t error_length) {
    EVP_PKEY *pkey = (EVP_PKEY *)key;
    size_t group_length = 0;
    if (crypto.EVP_PKEY_get_utf8_string_param(pkey, "group", group, group_capacity, &group_length) != 1) {
        return libcrypto_failure("EVP_PKEY_get_utf8_string_param", error, error_length);
    }
    /* SSH carries the point uncompressed; a PEM file may hold it compressed. */
    if (crypto.EVP_PKEY_set_utf8_string_param(pkey, "point-format", "uncompressed") != 1) {
        return libcrypto_failure("EVP_PKEY_set_utf8_string_param", error, error_length);
    }
    if (crypto.EVP_PKEY_get_octet_string_param(pkey, "encoded-pub-key", point, capacity, length) != 1) {
        return libcrypto_failure("EVP_PKEY_get_octet_string_param", error, error_length);
    }
    return CCRYPTO_OK;
}

int ccrypto_key_raw_private(const ccrypto_key *key, uint8_t *out, size_t capacity, size_t *length,
                            char *error, size_t error_length) {
    *length = capacity;
    if (crypto.EVP_PKEY_get_raw_private_key((const EVP_PKEY *)key, out, length) != 1) {
        return libcrypto_failure("EVP_PKEY_get_raw_private_key", error, error_length);
    }
    return CCRYPTO_OK;
}

int ccrypto_sign(ccrypto_key *key, const char *digest, const uint8_t *data, size_t length, uint8_t *signature,
                 size_t capacity, size_t *signature_length, char *error, size_t error_length) {
    EVP_MD_CTX *context = crypto.EVP_MD_CTX_new();
    if (!context) return libcrypto_failure("EVP_MD_CTX_new", error, error_length);
    int status = CCRYPTO_OK;
    *signature_length = capacity;
    if (crypto.EVP_DigestSignInit_ex(context, NULL, digest, NULL, NULL, (EVP_PKEY *)key, NULL) != 1) {
        status = libcrypto_failure("EVP_DigestSignInit_ex", error, error_length);
    } else if (crypto.EVP_DigestSign(context, signature, signature_length, data, length) != 1) {
        status = libcrypto_failure("EVP_DigestSign", error, error_length);
    }
    crypto.EVP_MD_CTX_free(context);
    return status;
}

void ccrypto_key_free(ccrypto_key *key) {
    crypto.EVP_PKEY_free((EVP_PKEY *)key);
}
