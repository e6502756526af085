#include "libcrypto.h"
#include <limits.h>
#include <stdio.h>

int ccrypto_decrypt(const char *cipher_name, const uint8_t *key, size_t key_length, const uint8_t *iv, size_t iv_length,
                    const uint8_t *input, size_t length, const uint8_t *tag, size_t tag_length, uint8_t *output,
                    char *error, size_t error_length) {
    int status = libcrypto_load(error, error_length);
    if (status != CCRYPTO_OK) return status;
    if (length > INT_MAX || tag_length > 16) {
        snprintf(error, error_length, "the data is too long to decrypt");
        return CCRYPTO_FAILED;
    }
    EVP_CIPHER *cipher = crypto.EVP_CIPHER_fetch(NULL, cipher_name, NULL);
    if (!cipher) return libcrypto_failure("EVP_CIPHER_fetch", error, error_length);
    EVP_CIPHER_CTX *context = crypto.EVP_CIPHER_CTX_new();
    int written = 0, final = 0;
    if (!context) {
        status = libcrypto_failure("EVP_CIPHER_CTX_new", error, error_length);
    } else if ((size_t)crypto.EVP_CIPHER_get_key_length(cipher) != key_length ||
               (size_t)crypto.EVP_CIPHER_get_iv_length(cipher) != iv_length) {
        snprintf(error, error_length, "%s takes another key or IV length", cipher_name);
        status = CCRYPTO_FAILED;
    } else if (crypto.EVP_DecryptInit_ex2(context, cipher, key, iv, NULL) != 1) {
        status = libcrypto_failure("EVP_DecryptInit_ex2", error, error_length);
    } else if (crypto.EVP_CIPHER_CTX_set_padding(context, 0) != 1) {
        status = libcrypto_failure("EVP_CIPHER_CTX_set_padding", error, error_length);
    } else if (tag_length && crypto.EVP_CIPHER_CTX_ctrl(context, CTRL_AEAD_SET_TAG, (int)tag_length, (void *)tag) != 1) {
        status = libcrypto_failure("EVP_CIPHER_CTX_ctrl", error, error_length);
    } else if (crypto.EVP_DecryptUpdate(context, output, &written, input, (int)length) != 1) {
        status = libcrypto_failure("EVP_DecryptUpdate", error, error_length);
    } else if (crypto.EVP_DecryptFinal_ex(context, output + written, &final) != 1) {
        /* With padding off, only a GCM tag that does not verify fails here. */
        if (tag_length) {
            crypto.ERR_clear_error();
            status = CCRYPTO_AUTHENTICATION;
        } else {
            status = libcrypto_failure("EVP_DecryptFinal_ex", error, error_length);
        }
    } else if ((size_t)(written + final) != length) {
        snprintf(error, error_length, "%s decrypted %d of %zu bytes", cipher_name, written + final, length);
        status = CCRYPTO_FAILED;
    }
    /* Freeing the context clears its key schedule. */
    crypto.EVP_CIPHER_CTX_free(context);
    crypto.EVP_CIPHER_free(cipher);
    return status;
}
