#ifndef LIFTLEDGER_CLMDB_SHIM_H
#define LIFTLEDGER_CLMDB_SHIM_H
// Debian's liblmdb-dev (0.9.24) provides this header; see Package.swift for the system-library target.
#include <lmdb.h>
#endif
