#include "clibsecret.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct clibsecret_functions clibsecret_functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[256];

static void load(void) {
    /* Never closed: GLib's type system and its worker threads live until the process ends. */
    void *library = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
    /* The g_ functions come from the GLib, GObject and GIO libsecret depends on: dlsym on this
       handle searches them too. */
#define SYMBOL(name)                                                                 \
    if (!(*(void **)&clibsecret_functions.name = dlsym(library, #name))) {           \
        snprintf(load_error, sizeof load_error, "libsecret-1.so.0 lacks %s", #name); \
        return;                                                                      \
    }
    SYMBOL(g_free) SYMBOL(g_strdup) SYMBOL(g_str_hash) SYMBOL(g_str_equal)
    SYMBOL(g_hash_table_new_full) SYMBOL(g_hash_table_insert) SYMBOL(g_hash_table_unref)
    SYMBOL(g_hash_table_iter_init) SYMBOL(g_hash_table_iter_next) SYMBOL(g_list_free_full) SYMBOL(g_error_free)
    SYMBOL(g_object_unref) SYMBOL(g_type_check_instance_is_a) SYMBOL(g_io_error_quark) SYMBOL(g_dbus_error_quark)
    SYMBOL(g_cancellable_new) SYMBOL(g_cancellable_cancel) SYMBOL(g_cancellable_is_cancelled)
    SYMBOL(secret_error_get_quark) SYMBOL(secret_schema_newv) SYMBOL(secret_schema_unref)
    SYMBOL(secret_value_new) SYMBOL(secret_value_get) SYMBOL(secret_value_unref)
    SYMBOL(secret_password_storev_binary_sync) SYMBOL(secret_password_lookupv_binary_sync)
    SYMBOL(secret_password_clearv_sync) SYMBOL(secret_password_searchv_sync)
    SYMBOL(secret_service_get_sync) SYMBOL(secret_collection_for_alias_sync) SYMBOL(secret_collection_get_locked)
    SYMBOL(secret_item_get_type) SYMBOL(secret_item_get_locked)
    SYMBOL(secret_retrievable_get_label) SYMBOL(secret_retrievable_get_attributes) SYMBOL(secret_retrievable_retrieve_secret_sync)
#undef SYMBOL
    loaded = 1;
}

int clibsecret_load(char *error, size_t error_length) {
    pthread_once(&once, load);
    if (!loaded && error && error_length) snprintf(error, error_length, "%s", load_error);
    return loaded;
}
