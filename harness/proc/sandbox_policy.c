/*
 * sandbox_policy.c - the policy of a run (sandbox.h): which folders a
 * candidate may read, change and use as devices, what is carved out as
 * secret, the scratch folder (the uid a root harness drops its workers
 * to: sandbox_uid.c); and the policy as command-line words.  Depends on
 * libelf (the candidate's RUNPATH), util.h, POSIX.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <gelf.h>
#include <glob.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "groups.h"
#include "sandbox.h"
#include "sandbox_uid.h"
#include "worker_exe.h"

/* What a library needs to load and run: the system's libraries, tools and
 * data, /proc (its own entries; another process's ask for ptrace rights,
 * which Landlock and the dropped uid deny) and /sys (CPU topology, caches,
 * devices, cgroup limits that runtimes probe). */
static const char *const system_read[] = {
    "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/etc", "/opt", "/proc",
    "/sys", "/dev/random", "/dev/urandom",
};

/* Devices a library may open for writing and ioctl: the null devices, and
 * the GPU's (NVIDIA's driver, DRM render nodes, AMD's KFD). */
static const char *const system_dev[] = {
    "/dev/null", "/dev/zero", "/dev/full", "/dev/nvidiactl", "/dev/nvidia-uvm",
    "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset", "/dev/nvidia-caps", "/dev/dri", "/dev/kfd",
};

/* Secrets below folders a candidate may read: carved out. */
static const char *const system_deny[] = {
    "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/ssh", "/etc/sudoers",
    "/etc/sudoers.d", "/etc/ssl/private", "/etc/security/opasswd", "/etc/credstore",
    "/etc/credstore.encrypted",
};

int sandbox_path_under(const char *path, const char *root)
{
    size_t n = strlen(root);
    if (n == 1 && root[0] == '/')
        return path[0] == '/';
    return !strncmp(path, root, n) && (path[n] == '\0' || path[n] == '/');
}

/*
 * `path` absolute and resolved: the longest prefix that exists through
 * realpath, the rest appended with "." and ".." taken lexically.  A
 * relative path is taken from the working folder.  New string.
 */
static char *resolve_loose(const char *path)
{
    char cwd[PATH_MAX], real[PATH_MAX];
    char *abs = path[0] == '/' || !getcwd(cwd, sizeof cwd) ? xstrdup(path)
                                                            : xasprintf("%s/%s", cwd, path);
    /* the longest prefix, ending at a '/' or the end, that exists */
    size_t cut = strlen(abs);
    for (;;) {
        char kept = abs[cut];
        abs[cut] = '\0';
        int found = realpath(abs, real) != NULL;
        abs[cut] = kept;
        if (found)
            break;
        while (cut > 0 && abs[--cut] != '/')
            ;
        if (cut == 0) {
            strcpy(real, "/");
            break;
        }
    }
    strbuf b;
    sb_init(&b);
    sb_addf(&b, "%s", strcmp(real, "/") ? real : "");
    char *save = NULL;
    for (char *part = strtok_r(abs + cut, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
        if (!strcmp(part, "."))
            continue;
        if (!strcmp(part, "..")) {
            char *slash = strrchr(b.s, '/');
            if (slash) {
                *slash = '\0';
                b.len = (size_t)(slash - b.s);
            }
            continue;
        }
        sb_addf(&b, "/%s", part);
    }
    free(abs);
    if (!*b.s)
        sb_addf(&b, "/");
    return sb_take(&b);
}

static void paths_push(sandbox_paths *l, char *path)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->v[i], path)) {
            free(path);
            return;
        }
    l->v = xrealloc(l->v, (size_t)(l->n + 1) * sizeof *l->v);
    l->v[l->n++] = path;
}

/* Adds `path` when it exists (resolved); returns 1 when added. */
static int paths_add_existing(sandbox_paths *l, const char *path)
{
    char real[PATH_MAX];
    if (!realpath(path, real))
        return 0;
    paths_push(l, xstrdup(real));
    return 1;
}

static void paths_free(sandbox_paths *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* The folders the candidate's DT_RUNPATH and DT_RPATH name ($ORIGIN is
 * its folder): where the loader finds its libraries. */
static void add_runpath(sandbox_policy *p, const char *candidate, const char *origin)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return;
    int fd = open(candidate, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    Elf_Scn *scn = NULL;
    while (e && (scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        Elf_Data *d;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize ||
            !(d = elf_getdata(scn, NULL)))
            continue;
        for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Dyn dyn;
            if (!gelf_getdyn(d, (int)i, &dyn) || (dyn.d_tag != DT_RUNPATH && dyn.d_tag != DT_RPATH))
                continue;
            const char *s = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);
            char *copy = xstrdup(s ? s : ""), *save = NULL;
            for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
                const char *rest = !strncmp(dir, "$ORIGIN", 7) ? dir + 7
                                   : !strncmp(dir, "${ORIGIN}", 9) ? dir + 9 : NULL;
                char *path = rest ? xasprintf("%s%s", origin, rest) : xstrdup(dir);
                paths_add_existing(&p->read, path);
                free(path);
            }
            free(copy);
        }
    }
    if (e)
        elf_end(e);
    close(fd);
}

/*
 * Adds the folders of LD_LIBRARY_PATH that exist to `l`, and makes the
 * variable name them by absolute path: a worker's working folder is its
 * scratch folder, where a relative entry would no longer find a library
 * that dlopen looks for later (a GPU driver loaded on first use).
 */
static void add_library_path(sandbox_paths *l)
{
    const char *list = getenv("LD_LIBRARY_PATH");
    if (!list || !*list)
        return;
    char *copy = xstrdup(list), *save = NULL;
    strbuf abs;
    sb_init(&abs);
    for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        char *real = resolve_loose(dir);
        sb_addf(&abs, "%s%s", abs.len ? ":" : "", real);
        free(real);
        paths_add_existing(l, dir);
    }
    setenv("LD_LIBRARY_PATH", abs.s, 1);
    free(sb_take(&abs));
    free(copy);
}

int sandbox_policy_make(sandbox_policy *p, const char *candidate, const sandbox_spec *spec,
                        char **err)
{
    memset(p, 0, sizeof *p);
    const char *tmp = getenv("TMPDIR");
    /* mkdtemp's template ends in six placeholder characters */
    char *scratch = xasprintf("%s/reshape-scratch-%c%c%c%c%c%c", tmp && *tmp ? tmp : "/tmp",
                              'X', 'X', 'X', 'X', 'X', 'X');
    if (!mkdtemp(scratch)) {
        *err = xasprintf("cannot make a scratch folder '%s': %s", scratch, strerror(errno));
        free(scratch);
        return -1;
    }
    p->scratch = resolve_loose(scratch);
    groups_scratch(p->scratch);
    p->candidate = xstrdup(candidate);
    p->scratch_bytes = spec->scratch_bytes ? spec->scratch_bytes : SANDBOX_SCRATCH_BYTES;
    free(scratch);
    for (size_t i = 0; i < sizeof system_read / sizeof *system_read; i++)
        paths_add_existing(&p->read, system_read[i]);
    int first_own = p->read.n;
    char *dir = xstrdup(candidate);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    paths_add_existing(&p->read, dir);
    add_runpath(p, candidate, dir);
    free(dir);
    add_library_path(&p->read);
    /* a worker is the harness binary or reshape-conform-worker: its
     * runtime may open it again (a sanitizer's symbolizer does) */
    paths_add_existing(&p->read, "/proc/self/exe");
    char *worker = engine_worker_exe();
    paths_add_existing(&p->read, worker);
    free(worker);
    for (int i = 0; i < spec->nallow; i++)
        paths_push(&p->read, resolve_loose(spec->allow[i]));
    for (int i = 0; i < spec->nallow_write; i++)
        paths_push(&p->write, resolve_loose(spec->allow_write[i]));
    for (size_t i = 0; i < sizeof system_dev / sizeof *system_dev; i++)
        paths_add_existing(&p->dev, system_dev[i]);
    glob_t g;
    if (glob("/dev/nvidia[0-9]*", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            paths_add_existing(&p->dev, g.gl_pathv[i]);
        globfree(&g);
    }
    for (size_t i = 0; i < sizeof system_deny / sizeof *system_deny; i++)
        paths_push(&p->deny, resolve_loose(system_deny[i]));
    for (int i = 0; i < spec->ndeny; i++)
        paths_push(&p->deny, resolve_loose(spec->deny[i]));
    const char *home = getenv("HOME");
    if (home && *home && strcmp(home, "/"))
        paths_push(&p->secret, resolve_loose(home));
    paths_push(&p->secret, xstrdup("/root"));
    sandbox_choose_uid(p, candidate, first_own);
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_DP ? rmdir(path) : unlink(path))
        warn("cannot remove '%s' from the scratch folder: %s", path, strerror(errno));
    return 0;
}

void sandbox_policy_clean(sandbox_policy *p)
{
    if (p->scratch)
        groups_scratch(NULL);
    if (p->scratch && access(p->scratch, F_OK) == 0)
        nftw(p->scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

void sandbox_policy_free(sandbox_policy *p)
{
    sandbox_policy_clean(p);
    free(p->scratch);
    free(p->candidate);
    paths_free(&p->read);
    paths_free(&p->write);
    paths_free(&p->dev);
    paths_free(&p->deny);
    paths_free(&p->secret);
    free(p->drop_note);
    memset(p, 0, sizeof *p);
}

/* The lists of a policy by the letter of their words. */
static sandbox_paths *list_of(sandbox_policy *p, char letter)
{
    switch (letter) {
    case 'r': return &p->read;
    case 'w': return &p->write;
    case 'd': return &p->dev;
    case 'x': return &p->deny;
    default: return NULL;
    }
}

static const char list_letters[] = "rwdx";

char **sandbox_policy_words(const sandbox_policy *p, int *n)
{
    sandbox_policy *q = (sandbox_policy *)p;    /* list_of only reads here */
    int total = 4;
    for (const char *l = list_letters; *l; l++)
        total += list_of(q, *l)->n;
    char **w = xcalloc((size_t)total + 1, sizeof *w);
    int k = 0;
    w[k++] = xasprintf("s:%s", p->scratch);
    w[k++] = xasprintf("c:%s", p->candidate);
    w[k++] = xasprintf("u:%u:%u:%d", (unsigned)p->uid, (unsigned)p->gid, p->drop);
    w[k++] = xasprintf("m:%llu", p->scratch_bytes);
    for (const char *l = list_letters; *l; l++) {
        const sandbox_paths *list = list_of(q, *l);
        for (int i = 0; i < list->n; i++)
            w[k++] = xasprintf("%c:%s", *l, list->v[i]);
    }
    *n = total;
    return w;
}

void sandbox_words_free(char **words)
{
    for (char **w = words; w && *w; w++)
        free(*w);
    free(words);
}

int sandbox_policy_parse(sandbox_policy *p, int n, char *const *words)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < n; i++) {
        const char *w = words[i];
        unsigned uid, gid;
        int drop;
        if (!w[0] || w[1] != ':')
            return -1;
        if (w[0] == 's' && !p->scratch) {
            p->scratch = xstrdup(w + 2);
        } else if (w[0] == 'c' && !p->candidate) {
            p->candidate = xstrdup(w + 2);
        } else if (w[0] == 'u' && sscanf(w + 2, "%u:%u:%d", &uid, &gid, &drop) == 3) {
            p->uid = uid;
            p->gid = gid;
            p->drop = drop;
        } else if (w[0] == 'm' && sscanf(w + 2, "%llu", &p->scratch_bytes) == 1) {
            /* the scratch tmpfs's size */
        } else if (strchr(list_letters, w[0])) {
            paths_push(list_of(p, w[0]), xstrdup(w + 2));
        } else {
            return -1;
        }
    }
    return p->scratch ? 0 : -1;
}
