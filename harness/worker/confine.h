/*
 * confine.h - what the process that loads the candidate does to itself
 * (docs/harness/sandbox.md): the confinement (sandbox_confine.c, with
 * sandbox_fs.c and sandbox_mount.c) and the seccomp filter its workers
 * inherit (sandbox.c, self_signal.h).  Runs in the candidate's processes
 * alone (worker/); the policy it applies is proc/sandbox.h's, what it
 * tells the observer wire/channel.h's sandbox_hello.  Depends on
 * libseccomp, Landlock's system calls, proc/proc.h and wire/wire.h.
 */
#ifndef HARNESS_CONFINE_H
#define HARNESS_CONFINE_H

#include <stddef.h>

#include "proc/proc.h"
#include "wire/wire.h"

/*
 * The path to dlopen the candidate `candidate` by in a process confined
 * with `facts`: "/proc/self/fd/N" (written into `buf`, room for `size`
 * bytes) when sandbox_confine opened it before dropping root, else
 * `candidate` itself.  Returns `buf` or `candidate`.
 */
const char *sandbox_load_path(const sandbox_facts *facts, const char *candidate, char *buf,
                              size_t size);

/*
 * Confines the calling process, which must have no other thread and must
 * not have loaded the candidate yet (every thread and child started later
 * is confined too): working folder and TMPDIR, HOME and XDG_*_HOME set to
 * the scratch folder; a network namespace; root dropped; Landlock; the
 * observed seccomp filter, whose listener it sends with `facts` over
 * SANDBOX_FD_WATCH.  A layer the kernel lacks is left out and `facts`
 * says so.  Returns 0, or -1 with `err` (room for `size` bytes) saying
 * what failed (a layer that is there but cannot be set up).  Nothing in
 * it holds the caller's pid: a zygote calls it once, and the workers it
 * forks share the filter's listener.  The observer stops the process that
 * made a call and the harness's child it descends from (the worker), never
 * the process that called this for a call its fork made.
 */
int sandbox_confine(const sandbox_policy *p, sandbox_facts *facts, char *err, size_t size);

/*
 * Installs the filter of sandbox.c and its SIGSYS handler in the calling
 * process, which must have no other thread yet (every thread started later
 * inherits the filter, and so does every child, a zygote's workers among
 * them): the rules hold no pid, and the handler carries out the signals a
 * process sends itself (self_signal.h).  Returns 0, or -1 with `err` (room
 * for `size` bytes) saying which libseccomp call failed and why.
 */
int sandbox_install(char *err, size_t size);

#endif
