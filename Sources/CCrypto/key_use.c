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

/* n = p·q: cheap, unlike OpenSSL's RSA pairwise check, which tests both primes for primality
   (a quarter of a second for RSA-3072). A wrong d cannot leak a factor either way: OpenSSL
   verifies each CRT signature with e before returning it. */
static int check_rsa(EVP_PKEY *pkey, char *error, size_t error_length) {
    BIGNUM *n = NULL, *p = NULL, *q = NULL, *product = NULL;
    BN_CTX *scratch = NULL;
    int status = CCRYPTO_OK;
    if (crypto.EVP_PKEY_get_bn_param(pkey, "n", &n) != 1 || crypto.EVP_PKEY_get_bn_param(pkey, "rsa-factor1", &p) != 1 ||
        crypto.EVP_PKEY_get_bn_param(pkey, "rsa-factor2", &q) != 1) {
        status = libcrypto_failure("EVP_PKEY_get_bn_param", error, error_length);
    } else if (!(scratch = crypto.BN_CTX_secure_new()) || !(product = crypto.BN_secure_new()) ||
               crypto.BN_mul(product, p, q, scratch) != 1) {
        status = libcrypto_failure("BN_mul", error, error_length);
    } else if (crypto.BN_cmp(product, n) != 0) {
        snprintf(error, error_length, "its primes do not multiply to its modulus");
        status = CCRYPTO_FAILED;
    }
    crypto.BN_CTX_free(scratch);
    crypto.BN_free(n);
    crypto.BN_clear_free(p);
    crypto.BN_clear_free(q);
    crypto.BN_clear_free(product);
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
