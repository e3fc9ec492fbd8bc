#define _GNU_SOURCE
#include "fault_report.h"

#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

/// The executable code of the object faults are reported in; set once, before the handlers are installed.
static uintptr_t code_start, code_end;
static char report[512];
static size_t report_length;
static int report_status;
static void (*report_cleanup)(void);
static struct sigaction segv_before, bus_before;

struct code_search {
    uintptr_t inside;
    uintptr_t start, end;
};

/// Finds, among the loaded objects' executable segments, the one that holds `inside`.
static int find_code(struct dl_phdr_info *object, size_t size, void *data) {
    (void)size;
    struct code_search *search = data;
    for (int index = 0; index < object->dlpi_phnum; index++) {
        const ElfW(Phdr) *segment = &object->dlpi_phdr[index];
        if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X)) continue;
        uintptr_t start = object->dlpi_addr + segment->p_vaddr;
        if (search->inside >= start && search->inside < start + segment->p_memsz) {
            search->start = start;
            search->end = start + segment->p_memsz;
            return 1;
        }
    }
    return 0;
}

static uintptr_t program_counter(void *context) {
    const ucontext_t *machine = context;
#if defined(__x86_64__)
    return (uintptr_t)machine->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)machine->uc_mcontext.pc;
#else
    (void)machine;
    return 0;
#endif
}

/// Async-signal-safe: the cleanup, `write` and `_exit`, or `sigaction` and `raise`.
static void handle(int signal, siginfo_t *info, void *context) {
    // A signal sent (`kill -SEGV`) is no fault, wherever the thread it lands on was.
    int sent = info->si_code <= 0;
    uintptr_t counter = program_counter(context);
    if (!sent && counter >= code_start && counter < code_end) {
        if (report_cleanup) report_cleanup();
        ssize_t written = write(STDERR_FILENO, report, report_length);
        (void)written;
        _exit(report_status);
    }
    sigaction(signal, signal == SIGSEGV ? &segv_before : &bus_before, NULL);
    // A fault returns to the instruction, which faults again into the handler before; a signal sent is sent again.
    if (sent) raise(signal);
}

int liftledger_report_faults_in(const void *inside, const char *message, int status, void (*before_exit)(void)) {
    struct code_search search = {(uintptr_t)inside, 0, 0};
    if (!dl_iterate_phdr(find_code, &search)) return -1;
    code_start = search.start;
    code_end = search.end;
    report_length = strnlen(message, sizeof report - 1);
    memcpy(report, message, report_length);
    report_status = status;
    report_cleanup = before_exit;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = handle;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGSEGV, &action, &segv_before) != 0) return -1;
    if (sigaction(SIGBUS, &action, &bus_before) != 0) {
        sigaction(SIGSEGV, &segv_before, NULL);
        return -1;
    }
    return 0;
}
