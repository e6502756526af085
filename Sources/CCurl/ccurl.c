#include "ccurl.h"
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    int loaded;
    char error[256];
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(curl.error, sizeof curl.error, "libcurl is not installed (%s)", dlerror());
        return;
    }
#define SYMBOL(field, name) if (!(*(void **)&curl.field = dlsym(library, name))) { snprintf(curl.error, sizeof curl.error, "libcurl lacks %s", name); return; }
    SYMBOL(global_init, "curl_global_init")
    SYMBOL(easy_init, "curl_easy_init")
    SYMBOL(easy_setopt, "curl_easy_setopt")
    SYMBOL(easy_perform, "curl_easy_perform")
    SYMBOL(easy_getinfo, "curl_easy_getinfo")
    SYMBOL(easy_cleanup, "curl_easy_cleanup")
    SYMBOL(easy_strerror, "curl_easy_strerror")
    SYMBOL(slist_append, "curl_slist_append")
    SYMBOL(slist_free_all, "curl_slist_free_all")
#undef SYMBOL
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(curl.error, sizeof curl.error, "libcurl did not initialise");
        return;
    }
    curl.loaded = 1;
}

int ccurl_available(char *error, size_t error_length) {
    pthread_once(&once, load);
    if (!curl.loaded && error && error_length) snprintf(error, error_length, "%s", curl.error);
    return curl.loaded;
}

typedef struct { unsigned char *data; size_t length; size_t capacity; size_t limit; int failed; int too_large; } buffer;

static size_t collect(char *data, size_t size, size_t count, void *context) {
    buffer *out = context;
    size_t n = size * count;
    // A hostile or broken server cannot make the client buffer without bound.
    if (n > out->limit - out->length) { out->too_large = 1; return 0; }
    if (out->length + n > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 4096;
        while (capacity < out->length + n) capacity *= 2;
        unsigned char *grown = realloc(out->data, capacity);
        if (!grown) { out->failed = 1; return 0; }
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->length, data, n);
    out->length += n;
    return n;
}

int ccurl_perform(const char *method, const char *url, const char *const *headers, size_t header_count,
                  const unsigned char *body, size_t body_length, long timeout_seconds, size_t max_response,
                  long *status, unsigned char **response, size_t *response_length, char *error, size_t error_length) {
    if (!ccurl_available(error, error_length)) return CURLE_FAILED_INIT;
    CURL *handle = curl.easy_init();
    if (!handle) { snprintf(error, error_length, "libcurl could not start a request"); return CURLE_FAILED_INIT; }
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < header_count; i++) list = curl.slist_append(list, headers[i]);
    list = curl.slist_append(list, "Expect:");
    buffer out = {0};
    out.limit = max_response;
    char text[CURL_ERROR_SIZE] = {0};
    curl.easy_setopt(handle, CURLOPT_URL, url);
    curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_TIMEOUT, timeout_seconds);
    curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, timeout_seconds < 10 ? timeout_seconds : 10L);
    curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, collect);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, &out);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, text);
    if (body) {
        curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
        curl.easy_setopt(handle, CURLOPT_POSTFIELDS, body_length ? (const char *)body : "");
    }
    CURLcode code = curl.easy_perform(handle);
    if (code == CURLE_OK && out.failed) code = CURLE_OUT_OF_MEMORY;
    if (out.too_large) {
        code = CCURL_TOO_LARGE;
        snprintf(text, sizeof text, "the response is larger than %zu bytes", max_response);
    }
    if (code == CURLE_OK) {
        curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, status);
        *response = out.data;
        *response_length = out.length;
    } else {
        snprintf(error, error_length, "%s", text[0] ? text : curl.easy_strerror(code));
        free(out.data);
    }
    curl.slist_free_all(list);
    curl.easy_cleanup(handle);
    return code;
}

void ccurl_free(void *pointer) { free(pointer); }
