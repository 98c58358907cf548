/*
 * util.h - allocation that cannot fail, growing strings and the harness's
 * message conventions.  Depends on libc only.
 *
 * Messages follow the project style: what went wrong first, lowercase, the
 * subject in quotes, no full stop.  Exit codes (docs/harness/options.md):
 *   0 conformant, 1 not conformant, 2 bad usage or invalid input files,
 *   3 harness failure, 77 nothing tested (the candidate's device is not
 *   available on this machine; 77 is what automake and meson call a skip).
 */
#ifndef HARNESS_UTIL_H
#define HARNESS_UTIL_H

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

enum exit_code {
    EXIT_CONFORMANT = 0,
    EXIT_NONCONFORMANT = 1,
    EXIT_USAGE = 2,
    EXIT_HARNESS = 3,
    EXIT_SKIPPED = 77
};

/* malloc/calloc/realloc/strdup that print "out of memory" and exit 3
 * instead of returning NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* A newly allocated string formatted as by printf. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The signal an interrupt handler (proc/groups.c) is ending the process
 * with, set first thing in the handler; 0 before.  While it is set, die()
 * waits for that signal instead of exiting: the processes the handler
 * kills are no failure of the run (a zygote SIGKILLed while loading its
 * candidate made the harness exit 3, "candidate ... died while loading",
 * in place of ending by the SIGINT).
 */
extern volatile sig_atomic_t util_interrupting;

/* Prints "reshape-conform: MESSAGE" to stderr and exits with `code`; while
 * util_interrupting is set, waits instead for the signal to end it. */
void die(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
/* Prints "reshape-conform: warning: MESSAGE" to stderr. */
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growing, always NUL-terminated string. */
typedef struct strbuf {
    char *s;
    size_t len, cap;
} strbuf;

void sb_init(strbuf *b);
void sb_addf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vaddf(strbuf *b, const char *fmt, va_list ap);
/* Appends "[d0,d1,...]". */
void sb_add_dims(strbuf *b, int32_t rank, const int64_t *dims);
/* Gives up ownership of the string (never NULL) and resets `b`. */
char *sb_take(strbuf *b);

/* Reads a whole file into a new buffer (NUL-terminated, *len excludes the
 * NUL).  Returns NULL and sets errno on failure. */
char *read_file(const char *path, size_t *len);

/* Directory of the running executable, e.g. "/work/main/build". */
const char *exe_dir(void);
/* The folder above exe_dir(), e.g. "/usr/local" for "/usr/local/bin": the
 * PREFIX of an installed harness. */
const char *exe_prefix(void);
/* Where the cases and reports/render.py are: the installed data,
 * exe_prefix()/share/reshape-conform, when it holds "cases"; else the
 * source tree, the nearest ancestor of exe_dir() holding
 * "include/reshape_candidate.h"; else exe_dir()/.. . */
const char *source_dir(void);

/* `name` inside folder `dir`: "DIR/NAME", with the trailing slashes the
 * user gave `dir` dropped ("out/" and "out" give "out/x"; "/" gives "/x"),
 * so that paths printed and written into reports have no "//".  New
 * string. */
char *path_join(const char *dir, const char *name);

/* `path` made relative to the current directory when it lies below it
 * ("/work/main/cases" seen from /work/main is "cases"); else a copy.  New
 * string. */
char *path_from_cwd(const char *path);

/* Seconds on a monotonic clock. */
double now_s(void);

/*
 * Runs argv[0] (found in PATH) with `argv`, no shell, stdin and stderr
 * /dev/null, and returns what it wrote to stdout (at most `max` bytes
 * kept, the rest read and dropped) as a new string, its exit status in
 * *status (-1 when a signal ended it); NULL when it could not be started.
 */
char *run_capture(char *const argv[], size_t max, int *status);

/*
 * Maps `bytes` of the calling thread's malloc heap in one call and keeps
 * them for its later allocations.  glibc gives each new thread a heap of
 * its own that grows a page fault at a time; under a hypervisor a fault
 * can cost ~12 us where MADV_POPULATE_WRITE maps a page for ~2 us.  For a
 * thread that allocates in a hot loop; best effort (an old kernel without
 * MADV_POPULATE_WRITE faults the pages in as before).  Sets glibc's
 * M_TRIM_THRESHOLD for the process (HEAP_KEEP_BYTES), so that freeing
 * them does not give them back.
 */
#define HEAP_KEEP_BYTES ((size_t)4 << 20)
void heap_warm(size_t bytes);

/* Replaces every byte of `s` outside printable ASCII with '?', so text a
 * candidate produced is safe in a terminal, JSON and XML. */
void sanitize_text(char *s);

/* Writes `text` whole to the existing file `path` in one write(2), as
 * /proc and cgroup files want; 0, or -1 (errno set, or a short write). */
int write_text(const char *path, const char *text);

/* Reads /proc/PID/stat into buf[0..size) and returns its fields after the
 * process's name, from the space before the state on (" S PPID PGRP ...",
 * proc(5)); NULL when it cannot be read (the process is gone).  The name
 * may hold anything but a NUL, so it ends at the last ')'. */
const char *proc_stat_fields(long pid, char *buf, size_t size);

/* The CPU time process `pid` has used, user + system of all its threads
 * in clock ticks (sysconf(_SC_CLK_TCK)), from /proc/PID/stat
 * (proc_stat_fields).  Returns 0, or -1 when it cannot be read (the
 * process has ended, or no /proc). */
int proc_cpu_ticks(long pid, unsigned long long *ticks);

#endif
