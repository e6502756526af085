/* Private keys into OpenSSL: from OpenSSH's fields with OSSL_PARAM_BLD and EVP_PKEY_fromdata, or
   from a PEM file with OpenSSL's own reader. Private numbers go into BN_secure_new numbers, so the
   parameter block OpenSSL builds from them is cleared when freed (OSSL_PARAM_free), and the key
   clears its own copies (BN_clear_free) when the EVP_PKEY is freed. */
#include "libcrypto.h"
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* `field` as a new number; `secret` puts it in OpenSSL's secure (cleared-on-free) allocation. */
static BIGNUM *number(const ccrypto_integer *field, int secret) {
    if (field->length > INT_MAX) return NULL;
    BIGNUM *result = secret ? crypto.BN_secure_new() : crypto.BN_new();
    if (!result) return NULL;
    if (secret) crypto.BN_set_flags(result, FLAG_CONSTTIME);
    if (!crypto.BN_bin2bn(field->bytes, (int)field->length, result)) {
        crypto.BN_clear_free(result);
        return NULL;
    }
    return result;
}

/* A key of `algorithm` ("RSA", "EC", "DSA") from the parameters in `builder`, which is freed. */
static int from_parameters(const char *algorithm, OSSL_PARAM_BLD *builder, ccrypto_key **key, char *error, size_t error_length) {
    OSSL_PARAM *parameters = crypto.OSSL_PARAM_BLD_to_param(builder);
    crypto.OSSL_PARAM_BLD_free(builder);
    if (!parameters) return libcrypto_failure("OSSL_PARAM_BLD_to_param", error, error_length);
    int status = CCRYPTO_OK;
    EVP_PKEY *made = NULL;
    EVP_PKEY_CTX *context = crypto.EVP_PKEY_CTX_new_from_name(NULL, algorithm, NULL);
    if (!context) {
        status = libcrypto_failure("EVP_PKEY_CTX_new_from_name", error, error_length);
    } else if (crypto.EVP_PKEY_fromdata_init(context) != 1) {
        status = libcrypto_failure("EVP_PKEY_fromdata_init", error, error_length);
    } else if (crypto.EVP_PKEY_fromdata(context, &made, SELECT_KEYPAIR, parameters) != 1 || !made) {
        status = libcrypto_failure("EVP_PKEY_fromdata", error, error_length);
    }
    crypto.EVP_PKEY_CTX_free(context);
    crypto.OSSL_PARAM_free(parameters);
    *key = (ccrypto_key *)made;
    return status;
}

/* Frees the numbers of `count` fields (clearing them) and returns `status`. */
static int release(BIGNUM **numbers, int count, int status) {
    for (int i = 0; i < count; i++) crypto.BN_clear_free(numbers[i]);
    return status;
}

int ccrypto_rsa_key(const ccrypto_integer fields[6], ccrypto_key **key, char *error, size_t error_length) {
    *key = NULL;
    int status = libcrypto_load(error, error_length);
    if (status != CCRYPTO_OK) return status;
    /* n, e, d, iqmp, p, q, then d mod (p-1), d mod (q-1), p-1, q-1. */
    BIGNUM *numbers[10] = {0};
    for (int i = 0; i < 6; i++) {
        if (!(numbers[i] = number(&fields[i], i >= 2))) return release(numbers, 10, libcrypto_failure("BN_bin2bn", error, error_length));
    }
    BIGNUM *n = numbers[0], *e = numbers[1], *d = numbers[2], *iqmp = numbers[3], *p = numbers[4], *q = numbers[5];
    BN_CTX *scratch = crypto.BN_CTX_secure_new();
    if (!scratch) return release(numbers, 10, libcrypto_failure("BN_CTX_secure_new", error, error_length));
    int computed = (numbers[6] = crypto.BN_secure_new()) && (numbers[7] = crypto.BN_secure_new()) &&
                   (numbers[8] = crypto.BN_dup(p)) && (numbers[9] = crypto.BN_dup(q)) &&
                   (crypto.BN_set_flags(numbers[8], FLAG_CONSTTIME), crypto.BN_set_flags(numbers[9], FLAG_CONSTTIME), 1) &&
                   crypto.BN_sub_word(numbers[8], 1) && crypto.BN_sub_word(numbers[9], 1) &&
                   crypto.BN_div(NULL, numbers[6], d, numbers[8], scratch) && crypto.BN_div(NULL, numbers[7], d, numbers[9], scratch);
    crypto.BN_CTX_free(scratch);
    if (!computed) return release(numbers, 10, libcrypto_failure("BN_div", error, error_length));
    OSSL_PARAM_BLD *builder = crypto.OSSL_PARAM_BLD_new();
    if (!builder) return release(numbers, 10, libcrypto_failure("OSSL_PARAM_BLD_new", error, error_length));
    if (!crypto.OSSL_PARAM_BLD_push_BN(builder, "n", n) || !crypto.OSSL_PARAM_BLD_push_BN(builder, "e", e) ||
        !crypto.OSSL_PARAM_BLD_push_BN(builder, "d", d) || !crypto.OSSL_PARAM_BLD_push_BN(builder, "rsa-factor1", p) ||
        !crypto.OSSL_PARAM_BLD_push_BN(builder, "rsa-factor2", q) ||
        !crypto.OSSL_PARAM_BLD_push_BN(builder, "rsa-exponent1", numbers[6]) ||
        !crypto.OSSL_PARAM_BLD_push_BN(builder, "rsa-exponent2", numbers[7]) ||
        !crypto.OSSL_PARAM_BLD_push_BN(builder, "rsa-coefficient1", iqmp)) {
        crypto.OSSL_PARAM_BLD_free(builder);
        return release(numbers, 10, libcrypto_failure("OSSL_PARAM_BLD_push_BN", error, error_length));
    }
    return release(numbers, 10, from_parameters("RSA", builder, key, error, error_length));
}

int ccrypto_ec_key(const char *group, const ccrypto_integer *point, const ccrypto_integer *scalar, ccrypto_key **key,
                   char *error, size_t error_length) {
    *key = NULL;
    int status = libcrypto_load(error, error_length);
    if (status != CCRYPTO_OK) return status;
    BIGNUM *private = number(scalar, 1);
    if (!private) return libcrypto_failure("BN_bin2bn", error, error_length);
    OSSL_PARAM_BLD *builder = crypto.OSSL_PARAM_BLD_new();
    if (!builder) return release(&private, 1, libcrypto_failure("OSSL_PARAM_BLD_new", error, error_length));
    if (!crypto.OSSL_PARAM_BLD_push_utf8_string(builder, "group", group, 0) ||
        !crypto.OSSL_PARAM_BLD_push_octet_string(builder, "pub", point->bytes, point->length) ||
        !crypto.OSSL_PARAM_BLD_push_BN(builder, "priv", private)) {
        crypto.OSSL_PARAM_BLD_free(builder);
        return release(&private, 1, libcrypto_failure("OSSL_PARAM_BLD_push", error, error_length));
    }
    return release(&private, 1, from_parameters("EC", builder, key, error, error_length));
}

int ccrypto_dsa_key(const ccrypto_integer fields[5], ccrypto_key **key, char *error, size_t error_length) {
    *key = NULL;
    int status = libcrypto_load(error, error_length);
    if (status != CCRYPTO_OK) return status;
    static const char *const names[5] = {"p", "q", "g", "pub", "priv"};
    BIGNUM *numbers[5] = {0};
    OSSL_PARAM_BLD *builder = crypto.OSSL_PARAM_BLD_new();
    if (!builder) return libcrypto_failure("OSSL_PARAM_BLD_new", error, error_length);
    for (int i = 0; i < 5; i++) {
        if (!(numbers[i] = number(&fields[i], i == 4)) || !crypto.OSSL_PARAM_BLD_push_BN(builder, names[i], numbers[i])) {
            crypto.OSSL_PARAM_BLD_free(builder);
            return release(numbers, 5, libcrypto_failure("OSSL_PARAM_BLD_push_BN", error, error_length));
        }
    }
    return release(numbers, 5, from_parameters("DSA", builder, key, error, error_length));
}

/* What the PEM reader's passphrase callback is given, and whether OpenSSL asked for it. */
typedef struct {
    const char *passphrase;
    int asked;
} passphrase_request;

/* Never prompts: without a passphrase it fails, so OpenSSL reports the key as unreadable. */
static int give_passphrase(char *buffer, int size, int writing, void *context) {
    passphrase_request *request = context;
    request->asked = 1;
    if (!request->passphrase) return -1;
    size_t length = strlen(request->passphrase);
    if (size < 0 || length > (size_t)size) return -1;
    memcpy(buffer, request->passphrase, length);
    return (int)length;
}

int ccrypto_pem_key(const uint8_t *pem, size_t length, const char *passphrase, ccrypto_key **key,
                    char *error, size_t error_length) {
    *key = NULL;
    int status = libcrypto_load(error, error_length);
    if (status != CCRYPTO_OK) return status;
    if (length > INT_MAX) {
        snprintf(error, error_length, "the PEM data is too long");
        return CCRYPTO_FAILED;
    }
    BIO *input = crypto.BIO_new_mem_buf(pem, (int)length);
    if (!input) return libcrypto_failure("BIO_new_mem_buf", error, error_length);
    passphrase_request request = {passphrase, 0};
    EVP_PKEY *made = crypto.PEM_read_bio_PrivateKey(input, NULL, give_passphrase, &request);
    crypto.BIO_free(input);
    if (made) {
        *key = (ccrypto_key *)made;
        crypto.ERR_clear_error();
        return CCRYPTO_OK;
    }
    if (request.asked) {
        crypto.ERR_clear_error();
        return passphrase ? CCRYPTO_BAD_PASSPHRASE : CCRYPTO_NEED_PASSPHRASE;
    }
    return libcrypto_failure("PEM_read_bio_PrivateKey", error, error_length);
}
