#ifndef CLOGIND_H
#define CLOGIND_H

/// What logind said: the session locks, or the machine is about to sleep.
enum { CLOGIND_LOCK = 1, CLOGIND_SLEEP = 2 };

typedef void (*clogind_callback)(void *context, int what);

/// Watches the system bus for logind's Session.Lock and Manager.PrepareForSleep(true) on a thread
/// of its own, calling `callback(context, CLOGIND_LOCK | CLOGIND_SLEEP)` for each. GIO is loaded
/// on this first use only (dlopen), so nothing else in the program carries it. Returns 0 when
/// watching, or -1 with `error` filled (no GIO, no system bus).
int clogind_watch(clogind_callback callback, void *context, char *error, unsigned long error_length);

#endif
