/*
 * hostile.h - for the hostile candidates that attack the harness across
 * the process boundary (issue 30): where the batch page of the worker's
 * arena is, and its layout, as harness/wire/wire.h defines them
 * (wire_batch, at offset 0 of the memfd "reshape-conform-arena"; a copy,
 * not the harness's header: a candidate is built without the harness's
 * sources), and replacing the worker program's pointer to write() (its
 * GOT).  Depends on Linux /proc/self/maps, dl_iterate_phdr and mprotect.
 */
#ifndef BROKEN_HOSTILE_H
#define BROKEN_HOSTILE_H

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BATCH_PAGE_CELLS 64     /* ARENA_CELLS */

/* wire_batch of harness/wire/wire.h. */
struct batch_page {
    uint32_t seq;
    int32_t n;
    int32_t cells[BATCH_PAGE_CELLS];
    int32_t running;
    int32_t unused;
    int64_t started_ns;
};

/* The batch page of the calling worker's arena (the mapping of the
 * arena's memfd at offset 0), or NULL when /proc/self/maps shows none. */
static inline struct batch_page *batch_page_find(void)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return NULL;
    char line[512];
    struct batch_page *b = NULL;
    while (!b && fgets(line, sizeof line, f)) {
        unsigned long lo, hi, off;
        char perms[8];
        if (strstr(line, "reshape-conform-arena") &&
            sscanf(line, "%lx-%lx %7s %lx", &lo, &hi, perms, &off) == 4 && off == 0 &&
            perms[1] == 'w')
            b = (struct batch_page *)(uintptr_t)lo;
    }
    fclose(f);
    return b;
}

/* libc's write(), once hostile_patch_write has run. */
static ssize_t (*hostile_real_write)(int, const void *, size_t);

/* Replaces every pointer to write() in the main program's data segments
 * (its GOT among them, read-only after relocation: mprotect makes it
 * writable) with `*arg`. */
static inline int hostile_patch_main(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    long page = sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_X))
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        uintptr_t plo = lo & ~(uintptr_t)(page - 1);
        if (mprotect((void *)plo, hi - plo, PROT_READ | PROT_WRITE) != 0)
            continue;
        for (uintptr_t at = (lo + 7) & ~(uintptr_t)7; at + sizeof(void *) <= hi;
             at += sizeof(void *))
            if (*(void **)at == (void *)hostile_real_write)
                *(void **)at = *(void **)arg;
    }
    return 1;       /* the main program is the first object: only it */
}

/* Makes the worker program's calls of write() call `fn` instead; `fn`
 * calls hostile_real_write for the real one. */
static inline void hostile_patch_write(ssize_t (*fn)(int, const void *, size_t))
{
    *(void **)&hostile_real_write = dlsym(RTLD_DEFAULT, "write");
    void *to = (void *)fn;
    if (hostile_real_write)
        dl_iterate_phdr(hostile_patch_main, &to);
}

#endif
