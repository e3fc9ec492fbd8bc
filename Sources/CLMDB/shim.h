#ifndef LIFTLEDGER_CLMDB_SHIM_H
#define LIFTLEDGER_CLMDB_SHIM_H
// Debian's liblmdb-dev (0.9.24) provides this header; see Package.swift for the system-library target.
#include <lmdb.h>
#include <stddef.h>
#include <stdint.h>

/// Asks the processor to load the `length` bytes at address `start` into its caches, a cache line at a time, ahead of
/// their use. A hint: it reads nothing and cannot fault, even outside the map. The address is an integer, so that no
/// pointer is made to run past an object.
static inline void liftledger_prefetch(uintptr_t start, size_t length) {
    for (size_t offset = 0; offset < length; offset += 64) __builtin_prefetch((const void *)(start + offset), 0, 0);
}
#endif
