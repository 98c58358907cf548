/*
 * util.c - see util.h.  Depends on libc only (glibc's mallopt for
 * heap_warm).
 */
#define _GNU_SOURCE
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void out_of_memory(void)
{
    fputs("reshape-conform: out of memory\n", stderr);
    exit(EXIT_HARNESS);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
    strbuf b;
    va_list ap;
    sb_init(&b);
    va_start(ap, fmt);
    sb_vaddf(&b, fmt, ap);
    va_end(ap);
    return b.s;
}

volatile sig_atomic_t util_interrupting;

void die(int code, const char *fmt, ...)
{
    while (util_interrupting)
        pause();
    va_list ap;
    fflush(stdout);
    fputs("reshape-conform: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(code);
}

void warn(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("reshape-conform: warning: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void sb_init(strbuf *b)
{
    b->cap = 64;
    b->len = 0;
    b->s = xmalloc(b->cap);
    b->s[0] = '\0';
}

void sb_vaddf(strbuf *b, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, copy);
    va_end(copy);
    if (n < 0)
        return;
    if ((size_t)n >= b->cap - b->len) {
        while ((size_t)n >= b->cap - b->len)
            b->cap *= 2;
        b->s = xrealloc(b->s, b->cap);
        vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    }
    b->len += (size_t)n;
}

void sb_addf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vaddf(b, fmt, ap);
    va_end(ap);
}

void sb_add_dims(strbuf *b, int32_t rank, const int64_t *dims)
{
    sb_addf(b, "[");
    for (int32_t i = 0; i < rank; i++)
        sb_addf(b, i ? ",%lld" : "%lld", (long long)dims[i]);
    sb_addf(b, "]");
}

char *sb_take(strbuf *b)
{
    char *s = b->s;
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (cap - n < 2) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

const char *exe_dir(void)
{
    static char dir[PATH_MAX];
    if (!dir[0]) {
        ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
        if (n <= 0) {
            strcpy(dir, ".");
        } else {
            dir[n] = '\0';
            char *slash = strrchr(dir, '/');
            if (slash && slash != dir)
                *slash = '\0';
        }
    }
    return dir;
}

const char *exe_prefix(void)
{
    static char dir[PATH_MAX];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s", exe_dir());
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir)
            *slash = '\0';
        else if (strlen(dir) + 3 < sizeof dir)
            strcat(dir, "/..");
    }
    return dir;
}

const char *source_dir(void)
{
    static char dir[PATH_MAX];
    if (!dir[0]) {
        char probe[PATH_MAX + 64];
        /* installed: PREFIX/bin/reshape-conform and PREFIX/share/; looked up
         * from the executable, so a DESTDIR staging copy works as well.
         * First, as PREFIX itself holds include/reshape_candidate.h. */
        snprintf(dir, sizeof dir, "%s/share/reshape-conform", exe_prefix());
        snprintf(probe, sizeof probe, "%s/cases", dir);
        if (access(probe, R_OK) == 0)
            return dir;
        snprintf(dir, sizeof dir, "%s", exe_dir());
        for (;;) {
            snprintf(probe, sizeof probe, "%s/include/reshape_candidate.h", dir);
            if (access(probe, R_OK) == 0)
                return dir;
            char *slash = strrchr(dir, '/');
            if (!slash || slash == dir)
                break;
            *slash = '\0';
        }
        snprintf(dir, sizeof dir, "%s/..", exe_dir());
    }
    return dir;
}

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void heap_warm(size_t bytes)
{
    /* pieces below glibc's mmap threshold (128 KiB), so that they come
     * from the heap; freed, they merge into its top, which stays */
    enum { PIECE = 96 * 1024, MAX_PIECES = 64 };
    void *p[MAX_PIECES];
    int n = 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    mallopt(M_TRIM_THRESHOLD, (int)HEAP_KEEP_BYTES);
    for (size_t done = 0; done < bytes && n < MAX_PIECES; done += PIECE) {
        if ((p[n] = malloc(PIECE)) == NULL)
            break;
        uintptr_t lo = ((uintptr_t)p[n] + page - 1) / page * page;
        uintptr_t hi = ((uintptr_t)p[n] + PIECE) / page * page;
        madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
        n++;
    }
    while (n > 0)
        free(p[--n]);
}

void sanitize_text(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
            *s = '?';
}

char *path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (n == 1 && dir[0] == '/')
        n = 0; /* the root: "/" + name */
    return xasprintf("%.*s/%s", (int)n, dir, name);
}

char *path_from_cwd(const char *path)
{
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return xstrdup(path);
    size_t n = strlen(cwd);
    if (!strcmp(path, cwd))
        return xstrdup(".");
    if (!strncmp(path, cwd, n) && path[n] == '/')
        return xstrdup(path + n + 1);
    return xstrdup(path);
}

extern char **environ;

char *run_capture(char *const argv[], size_t max, int *status)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return NULL;
    }
    strbuf b;
    sb_init(&b);
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        if (b.len < max)
            sb_addf(&b, "%.*s", (int)(max - b.len < (size_t)n ? max - b.len : (size_t)n), buf);
    }
    close(fds[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return sb_take(&b);
}

int write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

const char *proc_stat_fields(long pid, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    return p ? p + 1 : NULL;
}

int proc_cpu_ticks(long pid, unsigned long long *ticks)
{
    char buf[1024];
    /* state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
     * cmajflt utime stime */
    const char *f = proc_stat_fields(pid, buf, sizeof buf);
    unsigned long long utime, stime;
    if (!f || sscanf(f, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
                     &utime, &stime) != 2)
        return -1;
    *ticks = utime + stime;
    return 0;
}
