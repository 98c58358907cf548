/*
 * libraries.c - the shared objects a run's workers had mapped
 * (libraries.h): /proc/PID/maps read by the parent, each file with an
 * executable mapping hashed and its soname read with libelf.  Depends on
 * libelf, jansson, report.h (sha256_fd) and util.h.
 */
#define _GNU_SOURCE
#include "libraries.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/base.h"
#include "report.h"

/* One mapped file, as /proc/PID/maps names it. */
typedef struct mapped {
    char *path;                 /* " (deleted)" kept, when the kernel says so */
    dev_t dev;
    ino_t ino;
    int exec;                   /* one of its mappings is executable */
} mapped;

typedef struct mapped_set {
    mapped *m;
    int n;
} mapped_set;

static mapped *find(mapped_set *s, const char *path)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->m[i].path, path))
            return &s->m[i];
    return NULL;
}

/* Adds the file mappings of /proc/PID/maps (pid 0: self) to `s`, except
 * the executable `exe`.  0, or -1 with errno set. */
static int read_maps(pid_t pid, mapped_set *s)
{
    char path[64], exe[PATH_MAX];
    snprintf(path, sizeof path, pid ? "/proc/%d/maps" : "/proc/self/maps", (int)pid);
    char *exe_link = pid ? xasprintf("/proc/%d/exe", (int)pid) : xstrdup("/proc/self/exe");
    ssize_t el = readlink(exe_link, exe, sizeof exe - 1);
    free(exe_link);
    exe[el > 0 ? el : 0] = '\0';
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        char perms[8];
        unsigned maj, min;
        unsigned long long ino;
        int at = 0;
        line[strcspn(line, "\n")] = '\0';
        if (sscanf(line, "%*x-%*x %7s %*x %x:%x %llu %n", perms, &maj, &min, &ino, &at) < 4 ||
            !at || line[at] != '/' || !strcmp(line + at, exe))
            continue;
        mapped *m = find(s, line + at);
        if (!m) {
            s->m = xrealloc(s->m, (size_t)(s->n + 1) * sizeof *s->m);
            m = &s->m[s->n++];
            *m = (mapped){xstrdup(line + at), makedev(maj, min), (ino_t)ino, 0};
        }
        m->exec |= strchr(perms, 'x') != NULL;
    }
    free(line);
    fclose(f);
    return 0;
}

static void mapped_free(mapped_set *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->m[i].path);
    free(s->m);
}

void libraries_self_read(libraries_self *self)
{
    mapped_set s = {NULL, 0};
    memset(self, 0, sizeof *self);
    if (read_maps(0, &s) != 0)
        return;
    self->dev = xmalloc((size_t)(s.n ? s.n : 1) * sizeof *self->dev);
    self->ino = xmalloc((size_t)(s.n ? s.n : 1) * sizeof *self->ino);
    for (int i = 0; i < s.n; i++) {
        self->dev[self->n] = s.m[i].dev;
        self->ino[self->n++] = s.m[i].ino;
    }
    mapped_free(&s);
}

void libraries_self_free(libraries_self *self)
{
    free(self->dev);
    free(self->ino);
    memset(self, 0, sizeof *self);
}

static int is_self(const libraries_self *self, const mapped *m)
{
    for (int i = 0; i < self->n; i++)
        if (self->dev[i] == m->dev && self->ino[i] == m->ino)
            return 1;
    return 0;
}

/* The DT_SONAME of the ELF file `fd`, a new string; NULL when it has
 * none; *elf set when it is an ELF file at all. */
static char *soname_of(int fd, int *is_elf)
{
    char *name = NULL;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    *is_elf = elf && elf_kind(elf) == ELF_K_ELF;
    Elf_Scn *scn = NULL;
    while (*is_elf && !name && (scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        GElf_Dyn dyn;
        for (int i = 0; d && !name && gelf_getdyn(d, i, &dyn); i++) {
            if (dyn.d_tag == DT_NULL)
                break;
            const char *s = dyn.d_tag == DT_SONAME ? elf_strptr(elf, sh.sh_link, dyn.d_un.d_val)
                                                   : NULL;
            if (s) {
                name = xstrdup(s);
                sanitize_text(name);
            }
        }
    }
    elf_end(elf);
    return name;
}

/*
 * Opens `path`, a name the candidate chose (it may have put a FIFO, a
 * device or a symbolic link there since it mapped the file), for reading
 * only when it is a regular file: first without opening it at all (O_PATH,
 * the last component not followed), then that very inode again through
 * /proc/self/fd, never blocking.  *regular says whether it was one (1
 * too when the path is gone: "unreadable" then, as before).  Returns the
 * fd, or -1.
 */
static int open_regular(const char *path, int *regular)
{
    int at = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    *regular = 1;
    if (at < 0)
        return -1;
    if (fstat(at, &st) != 0 || !S_ISREG(st.st_mode)) {
        *regular = 0;
        close(at);
        return -1;
    }
    char again[64];
    snprintf(again, sizeof again, "/proc/self/fd/%d", at);
    int fd = open(again, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    close(at);
    return fd;
}

/* The JSON entry of mapped file `m`, or NULL when it is no ELF file. */
static json_t *entry_of(const mapped *m, const char *candidate, const libraries_self *self)
{
    char hex[65] = "unreadable";
    char *soname = NULL;
    int is_elf = 1;
    int reg = 0;
    int fd = open_regular(m->path, &reg);
    struct stat st;
    if (!reg)
        snprintf(hex, sizeof hex, "not a regular file");
    if (fd >= 0 && fstat(fd, &st) == 0) {
        soname = soname_of(fd, &is_elf);
        if (st.st_ino != m->ino)
            snprintf(hex, sizeof hex, "replaced");
        else if (lseek(fd, 0, SEEK_SET) != 0 || sha256_fd(fd, hex) != 0)
            snprintf(hex, sizeof hex, "unreadable");
    }
    if (fd >= 0)
        close(fd);
    if (!is_elf) {
        free(soname);
        return NULL;
    }
    char *path = xstrdup(m->path);
    sanitize_text(path);
    const char *role = candidate && !strcmp(m->path, candidate) ? "candidate"
                       : is_self(self, m)                      ? "harness"
                                                               : "library";
    json_t *e = json_pack("{s:s, s:o, s:s, s:n, s:s}", "path", path, "soname",
                          soname ? json_string(soname) : json_null(), "sha256", hex, "package",
                          "role", role);
    free(path);
    free(soname);
    return e;
}

static int cmp_entry(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    int cx = !strcmp(json_string_value(json_object_get(x, "role")), "candidate");
    int cy = !strcmp(json_string_value(json_object_get(y, "role")), "candidate");
    if (cx != cy)
        return cy - cx;
    return strcmp(json_string_value(json_object_get(x, "path")),
                  json_string_value(json_object_get(y, "path")));
}

json_t *libraries_record(const pid_t *pids, int n, const char *candidate,
                         const libraries_self *self, char **err)
{
    mapped_set s = {NULL, 0};
    int read = 0, why = 0;
    for (int i = 0; i < n; i++) {
        if (pids[i] <= 0)
            continue;
        if (read_maps(pids[i], &s) == 0)
            read++;
        else
            why = errno;
    }
    if (!read) {
        *err = why ? xasprintf("cannot read the maps of the workers: %s (the parent needs the "
                               "workers' uid, or CAP_SYS_PTRACE)", strerror(why))
                   : xstrdup("no worker was running to read the maps of");
        mapped_free(&s);
        return NULL;
    }
    elf_version(EV_CURRENT);
    json_t **v = xmalloc((size_t)(s.n ? s.n : 1) * sizeof *v);
    int nv = 0;
    for (int i = 0; i < s.n; i++) {
        json_t *e = s.m[i].exec ? entry_of(&s.m[i], candidate, self) : NULL;
        if (e)
            v[nv++] = e;
    }
    qsort(v, (size_t)nv, sizeof *v, cmp_entry);
    json_t *libs = json_array();
    for (int i = 0; i < nv; i++)
        json_array_append_new(libs, v[i]);
    free(v);
    mapped_free(&s);
    return libs;
}
