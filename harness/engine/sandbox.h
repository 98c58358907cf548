/*
 * sandbox.h - the seccomp filter (libseccomp) a worker installs before it
 * loads the candidate, so that no candidate can signal, trace or write into
 * another process, or change the machine (harness/README.md, "Sandbox",
 * lists the rules).  A call the filter stops raises SIGSYS
 * (SECCOMP_RET_TRAP); the worker's handler names the system call on its
 * stderr, records it in the running request's response (exec.h,
 * exec_record_death), tells the parent and dies of SIGSYS.  Every call of
 * the kill family traps, as the filter is a zygote's and cannot name its
 * forks' pids: the handler carries out those aimed at the calling process
 * (self_signal.h).  Depends on libseccomp, exec.h and self_signal.h.
 */
#ifndef HARNESS_SANDBOX_H
#define HARNESS_SANDBOX_H

#include <stddef.h>

/*
 * Installs the SIGSYS handler and the filter in the calling process, which
 * must have no other thread yet (every thread started later inherits the
 * filter, and so does every child).  Returns 0, or -1 with `err` (room for
 * `size` bytes) saying which libseccomp call failed and why.
 */
int sandbox_install(char *err, size_t size);

/*
 * Writes the name of system call `nr` of this machine's native ABI
 * ("kill") into `buf` (room for `size` bytes), or "syscall NR" when
 * libseccomp does not know it.  Returns `buf`.  For the parent, to name a
 * violation from the number a worker recorded.
 */
const char *sandbox_syscall_name(long nr, char *buf, size_t size);

#endif
