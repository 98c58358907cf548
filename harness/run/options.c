/*
 * options.c - defaults and value parsers for run options (options.h).
 * Depends on util.h and libc.
 */
#include "options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"

void options_defaults(run_options *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = cores > 0 ? (int)cores : 1;
    o->timeout_ms = 10000;
    o->iso = ISO_WORKER;
    o->sandbox = 1;
    o->variants = (1u << V_COUNT) - 1;
    o->shard_k = o->shard_n = 1;
    o->seed = 1;
    o->max_bytes = (uint64_t)16 << 20;
    o->argc = argc;
    o->argv = argv;
}

const char *options_default_candidate(void)
{
    static char *path;
    if (!path) {
        path = xasprintf("%s/libreshape_ref.so", exe_dir());
        if (access(path, R_OK) != 0) {
            free(path);
            path = xasprintf("%s/lib/libreshape_ref.so", exe_prefix());
        }
        if (access(path, R_OK) != 0) {
            free(path);
            path = xasprintf("%s/build/libreshape_ref.so", source_dir());
        }
    }
    return path;
}

int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!s || !*s || strspn(s, "0123456789") != strlen(s))
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno == ERANGE || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int parse_shard(const char *s, int *k, int *n)
{
    const char *slash = strchr(s, '/');
    if (!slash)
        return -1;
    char head[32];
    size_t len = (size_t)(slash - s);
    if (len == 0 || len >= sizeof head)
        return -1;
    memcpy(head, s, len);
    head[len] = '\0';
    uint64_t a, b;
    if (parse_u64(head, 1, 1000000, &a) || parse_u64(slash + 1, 1, 1000000, &b) || a > b)
        return -1;
    *k = (int)a;
    *n = (int)b;
    return 0;
}

int parse_variants(const char *s, unsigned *mask, char **bad)
{
    *mask = 0;
    char *copy = xstrdup(s), *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "all")) {
            *mask |= (1u << V_COUNT) - 1;
            continue;
        }
        int v = variant_parse(t);
        if (v < 0) {
            *bad = xstrdup(t);
            free(copy);
            return -1;
        }
        *mask |= 1u << v;
    }
    free(copy);
    if (!*mask) {
        *bad = xstrdup(s);
        return -1;
    }
    return 0;
}
