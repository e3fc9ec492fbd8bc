#ifndef LIFTLEDGER_FAULT_REPORT_H
#define LIFTLEDGER_FAULT_REPORT_H

/// Has a SIGSEGV or SIGBUS whose faulting instruction lies in the code of the shared object that holds `inside`
/// call `before_exit` (if not null; it must be async-signal-safe), write `message` to standard error and end the
/// process with `status`, where it would crash with a report of the crash; any other such fault, and such a signal
/// sent rather than raised by a fault, goes to the handler installed before. `message` is copied (up to 511 bytes).
/// Returns 0, or -1 when the object's code is not found or the handlers cannot be installed (nothing is then changed).
int liftledger_report_faults_in(const void *inside, const char *message, int status, void (*before_exit)(void));

#endif
