#include "clogind.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* GIO's few entry points used here, declared by hand so no GLib header is needed to build:
   every pointer is opaque, GBusType G_BUS_TYPE_SYSTEM is 1, G_DBUS_SIGNAL_FLAGS_NONE is 0. */
typedef void (*signal_handler)(void *connection, const char *sender, const char *path, const char *interface,
                               const char *member, void *parameters, void *user_data);
static struct {
    void *(*bus_get_sync)(int, void *, void **);
    unsigned (*signal_subscribe)(void *, const char *, const char *, const char *, const char *, const char *, int,
                                 signal_handler, void *, void *);
    void (*variant_get)(void *, const char *, ...);
    void *(*main_loop_new)(void *, int);
    void (*main_loop_run)(void *);
} gio;

static struct {
    clogind_callback callback;
    void *context;
    void *connection;
} watch;

static void on_lock(void *connection, const char *sender, const char *path, const char *interface, const char *member,
                    void *parameters, void *user_data) {
    watch.callback(watch.context, CLOGIND_LOCK);
}

static void on_sleep(void *connection, const char *sender, const char *path, const char *interface, const char *member,
                     void *parameters, void *user_data) {
    int going = 0;  /* gboolean */
    gio.variant_get(parameters, "(b)", &going);
    if (going) watch.callback(watch.context, CLOGIND_SLEEP);
}

static void *run(void *unused) {
    gio.main_loop_run(gio.main_loop_new(NULL, 0));
    return NULL;
}

int clogind_watch(clogind_callback callback, void *context, char *error, unsigned long error_length) {
    void *library = dlopen("libgio-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(error, error_length, "GIO is not installed (%s)", dlerror());
        return -1;
    }
#define SYMBOL(field, name) if (!(*(void **)&gio.field = dlsym(library, name))) { snprintf(error, error_length, "GIO lacks %s", name); return -1; }
    SYMBOL(bus_get_sync, "g_bus_get_sync")
    SYMBOL(signal_subscribe, "g_dbus_connection_signal_subscribe")
    SYMBOL(variant_get, "g_variant_get")
    SYMBOL(main_loop_new, "g_main_loop_new")
    SYMBOL(main_loop_run, "g_main_loop_run")
#undef SYMBOL
    void *failure = NULL;
    watch.connection = gio.bus_get_sync(1, NULL, &failure);
    if (!watch.connection) {
        /* A GError begins with its domain and code, then its message. */
        const char *message = failure ? *(const char **)((char *)failure + 8) : "unknown";
        snprintf(error, error_length, "no system bus (%s)", message);
        return -1;
    }
    watch.callback = callback;
    watch.context = context;
    gio.signal_subscribe(watch.connection, "org.freedesktop.login1", "org.freedesktop.login1.Session", "Lock", NULL, NULL, 0,
                         on_lock, NULL, NULL);
    gio.signal_subscribe(watch.connection, "org.freedesktop.login1", "org.freedesktop.login1.Manager", "PrepareForSleep",
                         "/org/freedesktop/login1", NULL, 0, on_sleep, NULL, NULL);
    pthread_t thread;
    if (pthread_create(&thread, NULL, run, NULL) != 0) {
        snprintf(error, error_length, "cannot start the watching thread");
        return -1;
    }
    pthread_detach(thread);
    return 0;
}
