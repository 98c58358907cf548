/*
 * candidate_load.c - dlopen a candidate and check its table (exec.h), its
 * device table too (exec_device.c); its name and version bound and made
 * printable.  Depends on libdl, util.h (sanitize_text) and the ABI header.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "exec.h"
#include "exec_device.h"

/* The most of a candidate's name or version a report quotes. */
#define CANDIDATE_WORDS 64

int candidate_stage_fd = -1;

static const reshape_candidate *refuse(wire_probe *probe, const char *fmt, const char *path,
                                       const char *what)
{
    probe->state = 2;
    snprintf(probe->message, sizeof probe->message, fmt, path, what);
    return NULL;
}

/* The declared limits `l` into the probe: each field that l->struct_size
 * covers, "no limit" for the others (a table compiled against an older
 * header). */
static void probe_limits(wire_probe *probe, const reshape_limits *l)
{
    reshape_limits d = {sizeof d, -1, -1, -1, 0, 0, ~0u};
#define TAKE(f)                                                               \
    if (l->struct_size >= offsetof(reshape_limits, f) + sizeof l->f)          \
        d.f = l->f
    TAKE(max_rank);
    TAKE(max_dim);
    TAKE(max_volume);
    TAKE(ops);
    TAKE(data_dtypes);
    TAKE(layouts);
#undef TAKE
    probe->limits = d;
    probe->has_limits = 1;
}

const reshape_candidate *candidate_open(const char *path, wire_probe *probe)
{
    return candidate_open_as(path, path, probe);
}

const reshape_candidate *candidate_open_as(const char *load, const char *path,
                                           wire_probe *probe)
{
    memset(probe, 0, sizeof *probe);
    void *lib = dlopen(load, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        return refuse(probe, "cannot load candidate '%s': %s", path, e ? e : "unknown error");
    }
    dlerror();
    void *sym = dlsym(lib, RESHAPE_CANDIDATE_ENTRY);
    if (!sym)
        return refuse(probe, "candidate '%s' does not export '%s'", path, RESHAPE_CANDIDATE_ENTRY);
    reshape_candidate_entry entry;
    memcpy(&entry, &sym, sizeof entry);  /* object to function pointer, POSIX style */
    char stage = EXEC_STAGE_ENTRY;
    if (candidate_stage_fd >= 0 && write(candidate_stage_fd, &stage, 1) != 1) {
        /* the parent is gone: the worker ends at its next write */
    }
    const reshape_candidate *t = entry();
    if (!t)
        return refuse(probe, "candidate '%s': '%s' returned NULL", path, RESHAPE_CANDIDATE_ENTRY);
    probe->abi_version = t->abi_version;
    probe->struct_size = t->struct_size;
    if (t->abi_version != RESHAPE_ABI_VERSION) {
        char what[64];
        snprintf(what, sizeof what, "%u, this harness speaks %u", t->abi_version,
                 RESHAPE_ABI_VERSION);
        return refuse(probe, "candidate '%s' has abi_version %s", path, what);
    }
    if (t->struct_size < RESHAPE_CANDIDATE_V1_SIZE) {
        char what[64];
        snprintf(what, sizeof what, "%u, smaller than %zu", t->struct_size,
                 (size_t)RESHAPE_CANDIDATE_V1_SIZE);
        return refuse(probe, "candidate '%s' has struct_size %s", path, what);
    }
    if (!t->name)
        return refuse(probe, "candidate '%s' has a NULL '%s'", path, "name");
    if (!t->version)
        return refuse(probe, "candidate '%s' has a NULL '%s'", path, "version");
    if (!t->supports)
        return refuse(probe, "candidate '%s' has a NULL '%s'", path, "supports");
    if (!t->infer_shape)
        return refuse(probe, "candidate '%s' has a NULL '%s'", path, "infer_shape");
    if (!t->execute)
        return refuse(probe, "candidate '%s' has a NULL '%s'", path, "execute");
    if (RESHAPE_CANDIDATE_HAS(t, limits) && t->limits)
        probe_limits(probe, t->limits);
    const char *bad_device = exec_device_check(t, probe);
    if (bad_device)
        return refuse(probe, "candidate '%s' %s", path, bad_device);
    /* the candidate's own words, bound for the report and the console:
     * printable ASCII, CANDIDATE_WORDS bytes at most */
    snprintf(probe->name, sizeof probe->name, "%.*s", CANDIDATE_WORDS, t->name);
    snprintf(probe->version, sizeof probe->version, "%.*s", CANDIDATE_WORDS, t->version);
    sanitize_text(probe->name);
    sanitize_text(probe->version);
    probe->state = 1;
    return t;
}
