#ifndef CCURL_H
#define CCURL_H
#include <stddef.h>

/// libcurl, opened with dlopen on first use: credctl does not link it, so commands that never
/// talk to an S3 store do not load it (and its dozens of libraries) at all.

/// Whether libcurl could be loaded; on failure `error` says why.
int ccurl_available(char *error, size_t error_length);

/// Performs one request. `headers` are `Name: value` lines. On success (0), `*status` is the HTTP
/// status and `*response` a malloc'd body of `*response_length` bytes (free with `ccurl_free`).
/// Otherwise a curl error code, with its text in `error`: `CCURL_TOO_LARGE` when the body would
/// pass `max_response` bytes (the transfer stops there; nothing is kept).
int ccurl_perform(const char *method, const char *url, const char *const *headers, size_t header_count,
                  const unsigned char *body, size_t body_length, long timeout_seconds, size_t max_response,
                  long *status, unsigned char **response, size_t *response_length, char *error, size_t error_length);

/// CURLE_FILESIZE_EXCEEDED: a response body larger than the caller's cap.
#define CCURL_TOO_LARGE 63

void ccurl_free(void *pointer);
#endif
