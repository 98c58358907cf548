/*
 * self_signal.h - the signals a process sends itself, carried out by the
 * sandbox's SIGSYS handler (sandbox.c; private to worker/).
 *
 * A worker is a fork of its zygote (zygote.h), so a seccomp filter that
 * allowed kill() aimed at the filtering process's own pid would allow the
 * zygote's pid in every worker, and stop the worker's own.  The filter
 * therefore traps every call of the kill family (kill, tkill, tgkill,
 * rt_sigqueueinfo, rt_tgsigqueueinfo), and the handler carries out the
 * ones aimed at the calling process (raise, abort, pthread_kill,
 * pthread_cancel) through a path the filter lets through: a pipe with
 * O_ASYNC whose owner is the target (F_SETOWN_EX) and whose signal is the
 * one asked for (F_SETSIG), written to once.  The kernel queues the signal
 * during that write; the handler blocks every signal, so it is delivered
 * when the trapped call returns, as the real call would have it.  The
 * receiver sees si_code SI_SIGIO (POLL_IN for SIGIO) instead of SI_USER or
 * SI_TKILL, and rt_sigqueueinfo's value is lost.  A thread that blocks
 * SIGSYS cannot be helped this way: the kernel kills the process with
 * SIGSYS instead.  Depends on Linux fcntl (F_SETOWN_EX, F_SETSIG).
 */
#ifndef HARNESS_SELF_SIGNAL_H
#define HARNESS_SELF_SIGNAL_H

/*
 * For a trapped system call `nr` with arguments a[0..3): when it is one
 * of the kill family aimed at the calling process (or one of its
 * threads), carries it out, stores its result (0 or minus errno) in *ret
 * and returns 1; when it is aimed anywhere else, or is another call,
 * returns 0 (the sandbox stops it).  Async-signal-safe.
 */
int self_signal(long nr, const long a[3], long *ret);

#endif
