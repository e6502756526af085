#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// `SQLITE_TRANSIENT` is a cast macro Swift cannot import: SQLite copies the bound bytes.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
/// `sqlite3_config` is variadic, which Swift cannot call. Memory statistics cost a mutex on every
/// allocation and nothing here reads them; must run before the first connection opens.
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
/// No page-cache memory set aside as a connection opens (`SQLITE_CONFIG_PAGECACHE` with no buffer
/// and no pages): SQLite otherwise allocates 20 pages per connection (about 87 KB) and threads a
/// free list through them, which a command that reads a few pages pays for in page faults. Pages
/// are then allocated as they are read. Must run before the first connection opens.
static inline int csqlite_no_initial_page_cache(void) { return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0); }
#endif
