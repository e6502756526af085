#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// `SQLITE_TRANSIENT` is a cast macro Swift cannot import: SQLite copies the bound bytes.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
/// `sqlite3_config` is variadic, which Swift cannot call. Memory statistics cost a mutex on every
/// allocation and nothing here reads them; must run before the first connection opens.
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
#endif
