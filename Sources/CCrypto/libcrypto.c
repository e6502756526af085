#include "libcrypto.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct libcrypto crypto;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[256];

static void load(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "libcrypto.so.3 could not be loaded (%s)", dlerror());
        return;
    }
#define SYMBOL(name) if (!(*(void **)&crypto.name = dlsym(library, #name))) { snprintf(load_error, sizeof load_error, "libcrypto.so.3 lacks %s", #name); return; }
    SYMBOL(ERR_peek_last_error) SYMBOL(ERR_reason_error_string) SYMBOL(ERR_clear_error)
    SYMBOL(EVP_CIPHER_fetch) SYMBOL(EVP_CIPHER_free) SYMBOL(EVP_CIPHER_get_key_length) SYMBOL(EVP_CIPHER_get_iv_length)
    SYMBOL(EVP_CIPHER_CTX_new) SYMBOL(EVP_CIPHER_CTX_free) SYMBOL(EVP_DecryptInit_ex2) SYMBOL(EVP_CIPHER_CTX_set_padding)
    SYMBOL(EVP_CIPHER_CTX_ctrl) SYMBOL(EVP_DecryptUpdate) SYMBOL(EVP_DecryptFinal_ex)
    SYMBOL(BN_new) SYMBOL(BN_secure_new) SYMBOL(BN_bin2bn) SYMBOL(BN_bn2bin) SYMBOL(BN_num_bits) SYMBOL(BN_set_flags)
    SYMBOL(BN_sub_word) SYMBOL(BN_div) SYMBOL(BN_mul) SYMBOL(BN_cmp) SYMBOL(BN_mod_mul) SYMBOL(BN_is_one) SYMBOL(BN_dup) SYMBOL(BN_free) SYMBOL(BN_clear_free)
    SYMBOL(BN_CTX_secure_new) SYMBOL(BN_CTX_free)
    SYMBOL(OSSL_PARAM_BLD_new) SYMBOL(OSSL_PARAM_BLD_push_BN) SYMBOL(OSSL_PARAM_BLD_push_utf8_string)
    SYMBOL(OSSL_PARAM_BLD_push_octet_string) SYMBOL(OSSL_PARAM_BLD_to_param) SYMBOL(OSSL_PARAM_BLD_free) SYMBOL(OSSL_PARAM_free)
    SYMBOL(EVP_PKEY_CTX_new_from_name) SYMBOL(EVP_PKEY_CTX_new_from_pkey) SYMBOL(EVP_PKEY_CTX_free)
    SYMBOL(EVP_PKEY_fromdata_init) SYMBOL(EVP_PKEY_fromdata) SYMBOL(EVP_PKEY_pairwise_check) SYMBOL(EVP_PKEY_is_a)
    SYMBOL(EVP_PKEY_get_bn_param) SYMBOL(EVP_PKEY_get_utf8_string_param) SYMBOL(EVP_PKEY_get_octet_string_param)
    SYMBOL(EVP_PKEY_set_utf8_string_param) SYMBOL(EVP_PKEY_get_raw_private_key) SYMBOL(EVP_PKEY_free)
    SYMBOL(BIO_new_mem_buf) SYMBOL(BIO_free) SYMBOL(PEM_read_bio_PrivateKey)
    SYMBOL(EVP_MD_CTX_new) SYMBOL(EVP_MD_CTX_free) SYMBOL(EVP_DigestSignInit_ex) SYMBOL(EVP_DigestSign)
#undef SYMBOL
    loaded = 1;
}

int libcrypto_load(char *error, size_t error_length) {
    pthread_once(&once, load);
    if (loaded) return CCRYPTO_OK;
    if (error && error_length) snprintf(error, error_length, "%s", load_error);
    return CCRYPTO_UNAVAILABLE;
}

int ccrypto_available(char *error, size_t error_length) {
    return libcrypto_load(error, error_length) == CCRYPTO_OK;
}

int libcrypto_failure(const char *function, char *error, size_t error_length) {
    unsigned long code = crypto.ERR_peek_last_error();
    const char *reason = code ? crypto.ERR_reason_error_string(code) : NULL;
    if (error && error_length) {
        if (reason) snprintf(error, error_length, "%s failed: %s", function, reason);
        else snprintf(error, error_length, "%s failed", function);
    }
    crypto.ERR_clear_error();
    return CCRYPTO_FAILED;
}
