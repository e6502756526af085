#ifndef CLIBSECRET_SHIM_H
#define CLIBSECRET_SHIM_H
#include <libsecret/secret.h>

/// `SECRET_ERROR` expands to a function call Swift cannot import as a constant.
static inline GQuark clibsecret_error_quark(void) { return secret_error_get_quark(); }
#endif
