#ifndef LIFTLEDGER_CLMDB_SHIM_H
#define LIFTLEDGER_CLMDB_SHIM_H
// Debian's liblmdb-dev (0.9.24) provides this header; see Package.swift for the system-library target.
#include <errno.h>
#include <lmdb.h>
#include <stddef.h>
#include <stdint.h>
#if defined(__linux__)
#include <linux/falloc.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/// Asks the processor to load the `length` bytes at address `start` into its caches, a cache line at a time, ahead of
/// their use. A hint: it reads nothing and cannot fault, even outside the map. The address is an integer, so that no
/// pointer is made to run past an object.
static inline void liftledger_prefetch(uintptr_t start, size_t length) {
    for (size_t offset = 0; offset < length; offset += 64) __builtin_prefetch((const void *)(start + offset), 0, 0);
}

/// Gives the file open at `descriptor` disk space for its first `length` bytes without changing its size (Linux's
/// `fallocate` with `FALLOC_FL_KEEP_SIZE`, which the C library declares only under `_GNU_SOURCE`): 0, or -1 with
/// `errno` set (`EOPNOTSUPP` where the file system cannot, and everywhere but Linux).
static inline int liftledger_allocate_keeping_size(int descriptor, int64_t length) {
#if defined(__linux__)
    return (int)syscall(SYS_fallocate, descriptor, FALLOC_FL_KEEP_SIZE, (int64_t)0, length);
#else
    errno = EOPNOTSUPP;
    return -1;
#endif
}
#endif
