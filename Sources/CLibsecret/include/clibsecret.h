#ifndef CLIBSECRET_H
#define CLIBSECRET_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// libsecret-1 (Debian's libsecret-1-0), opened with dlopen on first use like CCurl: credctl does
/// not link it, so only a command that uses the desktop keyring loads it and, with it, GLib,
/// GObject, GIO, libgcrypt and the rest. What the Keyring module uses of the GLib and libsecret
/// API is declared below under its own names, so building needs neither header; each function
/// is a call through a pointer that `clibsecret_load` resolves. Call nothing else here before
/// `clibsecret_load` has returned 1.

/// Loads libsecret-1.so.0 once; 1 when it and every function below are there, else 0 with
/// dlopen's or dlsym's reason in `error`.
int clibsecret_load(char *error, size_t error_length);

/* GLib's scalar types (glib/gtypes.h; GType is a gsize on every Linux ABI). */
typedef char gchar;
typedef int gint;
typedef unsigned int guint;
typedef int gboolean;
typedef void *gpointer;
typedef const void *gconstpointer;
typedef size_t gsize;
typedef ssize_t gssize;
typedef uint32_t GQuark;
typedef gsize GType;
typedef guint (*GHashFunc)(gconstpointer key);
typedef gboolean (*GEqualFunc)(gconstpointer a, gconstpointer b);
typedef void (*GDestroyNotify)(gpointer data);

/* The structures read or allocated here, with GLib's layouts (gerror.h, glist.h, ghash.h). */
typedef struct _GError {
    GQuark domain;
    gint code;
    gchar *message;
} GError;

typedef struct _GList GList;
struct _GList {
    gpointer data;
    GList *next;
    GList *prev;
};

/// On the caller's stack, so its size matters: 40 bytes.
typedef struct _GHashTableIter {
    gpointer dummy1;
    gpointer dummy2;
    gpointer dummy3;
    int dummy4;
    gboolean dummy5;
    gpointer dummy6;
} GHashTableIter;

/* Only ever handled by pointer, never looked into. SecretSchema too: it is made by
   secret_schema_newv and freed by secret_schema_unref, so its layout is libsecret's business. */
typedef struct _GHashTable GHashTable;
typedef struct _GCancellable GCancellable;
typedef struct _SecretSchema SecretSchema;
typedef struct _SecretValue SecretValue;
typedef struct _SecretService SecretService;
typedef struct _SecretCollection SecretCollection;
typedef struct _SecretItem SecretItem;
typedef struct _SecretRetrievable SecretRetrievable;

/* The enumerators used, with their values in GIO 2.74 (gioenums.h) and libsecret 0.20; they are
   part of the ABI and do not change. */
typedef enum { G_IO_ERROR_FAILED = 0, G_IO_ERROR_NOT_FOUND = 1, G_IO_ERROR_CANCELLED = 19 } GIOErrorEnum;
typedef enum {
    G_DBUS_ERROR_SERVICE_UNKNOWN = 2,
    G_DBUS_ERROR_NO_REPLY = 4,
    G_DBUS_ERROR_TIMEOUT = 12,
    G_DBUS_ERROR_UNKNOWN_METHOD = 19
} GDBusError;
typedef enum { SECRET_ERROR_IS_LOCKED = 2 } SecretError;
typedef enum { SECRET_SCHEMA_NONE = 0 } SecretSchemaFlags;
typedef enum { SECRET_SEARCH_ALL = 1 << 1 } SecretSearchFlags;
typedef enum { SECRET_SERVICE_NONE = 0 } SecretServiceFlags;
typedef enum { SECRET_COLLECTION_NONE = 0 } SecretCollectionFlags;

/// The functions, filled by `clibsecret_load`.
struct clibsecret_functions {
    void (*g_free)(gpointer);
    gchar *(*g_strdup)(const gchar *);
    guint (*g_str_hash)(gconstpointer);
    gboolean (*g_str_equal)(gconstpointer, gconstpointer);
    GHashTable *(*g_hash_table_new_full)(GHashFunc, GEqualFunc, GDestroyNotify, GDestroyNotify);
    gboolean (*g_hash_table_insert)(GHashTable *, gpointer, gpointer);
    void (*g_hash_table_unref)(GHashTable *);
    void (*g_hash_table_iter_init)(GHashTableIter *, GHashTable *);
    gboolean (*g_hash_table_iter_next)(GHashTableIter *, gpointer *, gpointer *);
    void (*g_list_free_full)(GList *, GDestroyNotify);
    void (*g_error_free)(GError *);
    void (*g_object_unref)(gpointer);
    gboolean (*g_type_check_instance_is_a)(gpointer, GType);
    GQuark (*g_io_error_quark)(void);
    GQuark (*g_dbus_error_quark)(void);
    GCancellable *(*g_cancellable_new)(void);
    void (*g_cancellable_cancel)(GCancellable *);
    gboolean (*g_cancellable_is_cancelled)(GCancellable *);

    GQuark (*secret_error_get_quark)(void);
    SecretSchema *(*secret_schema_newv)(const gchar *, SecretSchemaFlags, GHashTable *);
    void (*secret_schema_unref)(SecretSchema *);
    SecretValue *(*secret_value_new)(const gchar *, gssize, const gchar *);
    const gchar *(*secret_value_get)(SecretValue *, gsize *);
    void (*secret_value_unref)(gpointer);
    gboolean (*secret_password_storev_binary_sync)(const SecretSchema *, GHashTable *, const gchar *, const gchar *,
                                                   SecretValue *, GCancellable *, GError **);
    SecretValue *(*secret_password_lookupv_binary_sync)(const SecretSchema *, GHashTable *, GCancellable *, GError **);
    gboolean (*secret_password_clearv_sync)(const SecretSchema *, GHashTable *, GCancellable *, GError **);
    GList *(*secret_password_searchv_sync)(const SecretSchema *, GHashTable *, SecretSearchFlags, GCancellable *, GError **);
    SecretService *(*secret_service_get_sync)(SecretServiceFlags, GCancellable *, GError **);
    SecretCollection *(*secret_collection_for_alias_sync)(SecretService *, const gchar *, SecretCollectionFlags, GCancellable *,
                                                          GError **);
    gboolean (*secret_collection_get_locked)(SecretCollection *);
    GType (*secret_item_get_type)(void);
    gboolean (*secret_item_get_locked)(SecretItem *);
    gchar *(*secret_retrievable_get_label)(SecretRetrievable *);
    GHashTable *(*secret_retrievable_get_attributes)(SecretRetrievable *);
    SecretValue *(*secret_retrievable_retrieve_secret_sync)(SecretRetrievable *, GCancellable *, GError **);
};

extern struct clibsecret_functions clibsecret_functions;

/* GLib, GObject, GIO. */
static inline void g_free(gpointer memory) { clibsecret_functions.g_free(memory); }
static inline gchar *g_strdup(const gchar *text) { return clibsecret_functions.g_strdup(text); }
static inline guint g_str_hash(gconstpointer key) { return clibsecret_functions.g_str_hash(key); }
static inline gboolean g_str_equal(gconstpointer a, gconstpointer b) { return clibsecret_functions.g_str_equal(a, b); }
static inline GHashTable *g_hash_table_new_full(GHashFunc hash, GEqualFunc equal, GDestroyNotify free_key,
                                                GDestroyNotify free_value) {
    return clibsecret_functions.g_hash_table_new_full(hash, equal, free_key, free_value);
}
static inline gboolean g_hash_table_insert(GHashTable *table, gpointer key, gpointer value) {
    return clibsecret_functions.g_hash_table_insert(table, key, value);
}
static inline void g_hash_table_unref(GHashTable *table) { clibsecret_functions.g_hash_table_unref(table); }
static inline void g_hash_table_iter_init(GHashTableIter *iterator, GHashTable *table) {
    clibsecret_functions.g_hash_table_iter_init(iterator, table);
}
static inline gboolean g_hash_table_iter_next(GHashTableIter *iterator, gpointer *key, gpointer *value) {
    return clibsecret_functions.g_hash_table_iter_next(iterator, key, value);
}
static inline void g_list_free_full(GList *list, GDestroyNotify free_element) {
    clibsecret_functions.g_list_free_full(list, free_element);
}
static inline void g_error_free(GError *error) { clibsecret_functions.g_error_free(error); }
static inline void g_object_unref(gpointer object) { clibsecret_functions.g_object_unref(object); }
static inline gboolean g_type_check_instance_is_a(gpointer instance, GType type) {
    return clibsecret_functions.g_type_check_instance_is_a(instance, type);
}
static inline GQuark g_io_error_quark(void) { return clibsecret_functions.g_io_error_quark(); }
static inline GQuark g_dbus_error_quark(void) { return clibsecret_functions.g_dbus_error_quark(); }
static inline GCancellable *g_cancellable_new(void) { return clibsecret_functions.g_cancellable_new(); }
static inline void g_cancellable_cancel(GCancellable *cancellable) { clibsecret_functions.g_cancellable_cancel(cancellable); }
static inline gboolean g_cancellable_is_cancelled(GCancellable *cancellable) {
    return clibsecret_functions.g_cancellable_is_cancelled(cancellable);
}

/* libsecret. `SECRET_ERROR` is this function's result. */
static inline GQuark secret_error_get_quark(void) { return clibsecret_functions.secret_error_get_quark(); }
static inline SecretSchema *secret_schema_newv(const gchar *name, SecretSchemaFlags flags, GHashTable *attribute_types) {
    return clibsecret_functions.secret_schema_newv(name, flags, attribute_types);
}
static inline void secret_schema_unref(SecretSchema *schema) { clibsecret_functions.secret_schema_unref(schema); }
static inline SecretValue *secret_value_new(const gchar *secret, gssize length, const gchar *content_type) {
    return clibsecret_functions.secret_value_new(secret, length, content_type);
}
static inline const gchar *secret_value_get(SecretValue *value, gsize *length) {
    return clibsecret_functions.secret_value_get(value, length);
}
static inline void secret_value_unref(gpointer value) { clibsecret_functions.secret_value_unref(value); }
static inline gboolean secret_password_storev_binary_sync(const SecretSchema *schema, GHashTable *attributes,
                                                          const gchar *collection, const gchar *label, SecretValue *value,
                                                          GCancellable *cancellable, GError **error) {
    return clibsecret_functions.secret_password_storev_binary_sync(schema, attributes, collection, label, value, cancellable,
                                                                   error);
}
static inline SecretValue *secret_password_lookupv_binary_sync(const SecretSchema *schema, GHashTable *attributes,
                                                               GCancellable *cancellable, GError **error) {
    return clibsecret_functions.secret_password_lookupv_binary_sync(schema, attributes, cancellable, error);
}
static inline gboolean secret_password_clearv_sync(const SecretSchema *schema, GHashTable *attributes,
                                                   GCancellable *cancellable, GError **error) {
    return clibsecret_functions.secret_password_clearv_sync(schema, attributes, cancellable, error);
}
static inline GList *secret_password_searchv_sync(const SecretSchema *schema, GHashTable *attributes, SecretSearchFlags flags,
                                                  GCancellable *cancellable, GError **error) {
    return clibsecret_functions.secret_password_searchv_sync(schema, attributes, flags, cancellable, error);
}
static inline SecretService *secret_service_get_sync(SecretServiceFlags flags, GCancellable *cancellable, GError **error) {
    return clibsecret_functions.secret_service_get_sync(flags, cancellable, error);
}
static inline SecretCollection *secret_collection_for_alias_sync(SecretService *service, const gchar *alias,
                                                                 SecretCollectionFlags flags, GCancellable *cancellable,
                                                                 GError **error) {
    return clibsecret_functions.secret_collection_for_alias_sync(service, alias, flags, cancellable, error);
}
static inline gboolean secret_collection_get_locked(SecretCollection *collection) {
    return clibsecret_functions.secret_collection_get_locked(collection);
}
static inline GType secret_item_get_type(void) { return clibsecret_functions.secret_item_get_type(); }
static inline gboolean secret_item_get_locked(SecretItem *item) { return clibsecret_functions.secret_item_get_locked(item); }
static inline gchar *secret_retrievable_get_label(SecretRetrievable *item) {
    return clibsecret_functions.secret_retrievable_get_label(item);
}
static inline GHashTable *secret_retrievable_get_attributes(SecretRetrievable *item) {
    return clibsecret_functions.secret_retrievable_get_attributes(item);
}
static inline SecretValue *secret_retrievable_retrieve_secret_sync(SecretRetrievable *item, GCancellable *cancellable,
                                                                   GError **error) {
    return clibsecret_functions.secret_retrievable_retrieve_secret_sync(item, cancellable, error);
}

#endif
