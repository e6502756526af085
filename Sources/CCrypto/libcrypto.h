#ifndef CCRYPTO_LIBCRYPTO_H
#define CCRYPTO_LIBCRYPTO_H
/* The part of OpenSSL 3's API this target calls, declared by hand so that no OpenSSL header is
   needed to build: every OpenSSL type is opaque except OSSL_PARAM, which is never looked into. The
   functions are reached through `crypto`, filled by dlopen/dlsym in libcrypto.c. */
#include "ccrypto.h"

typedef struct bignum_st BIGNUM;
typedef struct bignum_ctx BN_CTX;
typedef struct bio_st BIO;
typedef struct evp_cipher_st EVP_CIPHER;
typedef struct evp_cipher_ctx_st EVP_CIPHER_CTX;
typedef struct evp_md_ctx_st EVP_MD_CTX;
typedef struct evp_pkey_st EVP_PKEY;
typedef struct evp_pkey_ctx_st EVP_PKEY_CTX;
typedef struct ossl_param_st OSSL_PARAM;
typedef struct ossl_param_bld_st OSSL_PARAM_BLD;
typedef int pem_password_cb(char *buf, int size, int rwflag, void *userdata);

/* evp.h: EVP_PKEY_KEYPAIR = public | private | all parameters; EVP_CTRL_AEAD_SET_TAG. */
#define SELECT_KEYPAIR 0x87
#define CTRL_AEAD_SET_TAG 0x11
/* bn.h: BN_FLG_CONSTTIME, so arithmetic on secret numbers takes constant-time paths. */
#define FLAG_CONSTTIME 0x04

struct libcrypto {
    unsigned long (*ERR_peek_last_error)(void);
    const char *(*ERR_reason_error_string)(unsigned long);
    void (*ERR_clear_error)(void);

    EVP_CIPHER *(*EVP_CIPHER_fetch)(void *, const char *, const char *);
    void (*EVP_CIPHER_free)(EVP_CIPHER *);
    int (*EVP_CIPHER_get_key_length)(const EVP_CIPHER *);
    int (*EVP_CIPHER_get_iv_length)(const EVP_CIPHER *);
    EVP_CIPHER_CTX *(*EVP_CIPHER_CTX_new)(void);
    void (*EVP_CIPHER_CTX_free)(EVP_CIPHER_CTX *);
    int (*EVP_DecryptInit_ex2)(EVP_CIPHER_CTX *, const EVP_CIPHER *, const unsigned char *, const unsigned char *, const OSSL_PARAM *);
    int (*EVP_CIPHER_CTX_set_padding)(EVP_CIPHER_CTX *, int);
    int (*EVP_CIPHER_CTX_ctrl)(EVP_CIPHER_CTX *, int, int, void *);
    int (*EVP_DecryptUpdate)(EVP_CIPHER_CTX *, unsigned char *, int *, const unsigned char *, int);
    int (*EVP_DecryptFinal_ex)(EVP_CIPHER_CTX *, unsigned char *, int *);

    BIGNUM *(*BN_new)(void);
    BIGNUM *(*BN_secure_new)(void);
    BIGNUM *(*BN_bin2bn)(const unsigned char *, int, BIGNUM *);
    int (*BN_bn2bin)(const BIGNUM *, unsigned char *);
    int (*BN_num_bits)(const BIGNUM *);
    void (*BN_set_flags)(BIGNUM *, int);
    int (*BN_sub_word)(BIGNUM *, unsigned long);
    int (*BN_div)(BIGNUM *, BIGNUM *, const BIGNUM *, const BIGNUM *, BN_CTX *);
    int (*BN_mul)(BIGNUM *, const BIGNUM *, const BIGNUM *, BN_CTX *);
    int (*BN_cmp)(const BIGNUM *, const BIGNUM *);
    int (*BN_mod_mul)(BIGNUM *, const BIGNUM *, const BIGNUM *, const BIGNUM *, BN_CTX *);
    int (*BN_is_one)(const BIGNUM *);
    BIGNUM *(*BN_dup)(const BIGNUM *);
    void (*BN_free)(BIGNUM *);
    void (*BN_clear_free)(BIGNUM *);
    BN_CTX *(*BN_CTX_secure_new)(void);
    void (*BN_CTX_free)(BN_CTX *);

    OSSL_PARAM_BLD *(*OSSL_PARAM_BLD_new)(void);
    int (*OSSL_PARAM_BLD_push_BN)(OSSL_PARAM_BLD *, const char *, const BIGNUM *);
    int (*OSSL_PARAM_BLD_push_utf8_string)(OSSL_PARAM_BLD *, const char *, const char *, size_t);
    int (*OSSL_PARAM_BLD_push_octet_string)(OSSL_PARAM_BLD *, const char *, const void *, size_t);
    OSSL_PARAM *(*OSSL_PARAM_BLD_to_param)(OSSL_PARAM_BLD *);
    void (*OSSL_PARAM_BLD_free)(OSSL_PARAM_BLD *);
    void (*OSSL_PARAM_free)(OSSL_PARAM *);

    EVP_PKEY_CTX *(*EVP_PKEY_CTX_new_from_name)(void *, const char *, const char *);
    EVP_PKEY_CTX *(*EVP_PKEY_CTX_new_from_pkey)(void *, EVP_PKEY *, const char *);
    void (*EVP_PKEY_CTX_free)(EVP_PKEY_CTX *);
    int (*EVP_PKEY_fromdata_init)(EVP_PKEY_CTX *);
    int (*EVP_PKEY_fromdata)(EVP_PKEY_CTX *, EVP_PKEY **, int, OSSL_PARAM *);
    int (*EVP_PKEY_pairwise_check)(EVP_PKEY_CTX *);
    int (*EVP_PKEY_is_a)(const EVP_PKEY *, const char *);
    int (*EVP_PKEY_get_bn_param)(const EVP_PKEY *, const char *, BIGNUM **);
    int (*EVP_PKEY_get_utf8_string_param)(const EVP_PKEY *, const char *, char *, size_t, size_t *);
    int (*EVP_PKEY_get_octet_string_param)(const EVP_PKEY *, const char *, unsigned char *, size_t, size_t *);
    int (*EVP_PKEY_set_utf8_string_param)(EVP_PKEY *, const char *, const char *);
    int (*EVP_PKEY_get_raw_private_key)(const EVP_PKEY *, unsigned char *, size_t *);
    void (*EVP_PKEY_free)(EVP_PKEY *);

    BIO *(*BIO_new_mem_buf)(const void *, int);
    int (*BIO_free)(BIO *);
    EVP_PKEY *(*PEM_read_bio_PrivateKey)(BIO *, EVP_PKEY **, pem_password_cb *, void *);

    EVP_MD_CTX *(*EVP_MD_CTX_new)(void);
    void (*EVP_MD_CTX_free)(EVP_MD_CTX *);
    int (*EVP_DigestSignInit_ex)(EVP_MD_CTX *, EVP_PKEY_CTX **, const char *, void *, const char *, EVP_PKEY *, const OSSL_PARAM *);
    int (*EVP_DigestSign)(EVP_MD_CTX *, unsigned char *, size_t *, const unsigned char *, size_t);
};

extern struct libcrypto crypto;

/* Loads libcrypto once; CCRYPTO_OK, or CCRYPTO_UNAVAILABLE with the reason in `error`. */
int libcrypto_load(char *error, size_t error_length);

/* Records that `function` failed, with OpenSSL's reason for the last error, and empties this
   thread's OpenSSL error queue so the next call starts clean. Returns CCRYPTO_FAILED. */
int libcrypto_failure(const char *function, char *error, size_t error_length);
#endif
