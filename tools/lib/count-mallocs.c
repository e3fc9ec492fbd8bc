// Counts the calls to malloc in a process and prints the count on standard error when it exits. Loaded with
// LD_PRELOAD by tools/rebuild-allocations: a count of allocations is the same from run to run, where times on a
// shared machine are not, so it compares two builds of the same work.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

static atomic_long calls;
static void *(*next_malloc)(size_t);

void *malloc(size_t size) {
    if (next_malloc == NULL) next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    return next_malloc(size);
}

__attribute__((destructor)) static void report(void) {
    char line[64];
    int length = snprintf(line, sizeof line, "mallocs %ld\n", atomic_load(&calls));
    if (length > 0) (void)write(STDERR_FILENO, line, (size_t)length);
}
