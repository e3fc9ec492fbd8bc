#ifndef LIFTLEDGER_CSQLITE_SHIM_H
#define LIFTLEDGER_CSQLITE_SHIM_H
// Debian's libsqlite3-dev provides this header: SQLite is the benchmarks' peer, the store an app built on Codable
// would keep its events in. See Package.swift for the system-library target.
#include <sqlite3.h>
#endif
