/*
 * memory.c - the simulated device's memory (simdev.h): one anonymous
 * mapping per allocation, a guard page on either side, its pages PROT_NONE
 * while nobody has them open.  The bytes handed out end at the end of the
 * last page, so that a write past them faults at once.  Depends on
 * simdev.h and POSIX (mmap, mprotect).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "simdev.h"

typedef struct allocation {
    uint8_t *map;               /* the mapping: guard, pages, guard */
    size_t map_len, pages_len;
    uint8_t *ptr;               /* what alloc returned */
    size_t bytes;
    int opens;                  /* pages are readable while > 0 */
} allocation;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static allocation *table;
static size_t used, room;

static size_t page_size(void)
{
    return (size_t)sysconf(_SC_PAGESIZE);
}

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/* The allocation holding `p` (a byte of it or one past its end); under
 * the lock. */
static allocation *find(const void *p)
{
    const uint8_t *q = p;
    for (size_t i = 0; i < used; i++)
        if (q >= table[i].ptr && q <= table[i].ptr + table[i].bytes)
            return &table[i];
    return NULL;
}

reshape_status simdev_alloc(size_t bytes, void **device_ptr)
{
    if (simdev_defect.unavailable)
        return simdev_fail(RESHAPE_E_INTERNAL, "%s", simdev_defect.unavailable);
    if (!device_ptr || bytes == 0)
        return simdev_fail(RESHAPE_E_INTERNAL, "alloc of %zu bytes into %p", bytes,
                           (void *)device_ptr);
    size_t page = page_size(), pages = round_up(bytes, page);
    allocation a = {NULL, pages + 2 * page, pages, NULL, bytes, 0};
    a.map = mmap(NULL, a.map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (a.map == MAP_FAILED)
        return simdev_fail(RESHAPE_E_INTERNAL, "cannot map %zu bytes of device memory", bytes);
    /* aligned to 256 bytes as the ABI asks, ending within 255 bytes of the guard */
    a.ptr = a.map + page + pages - round_up(bytes, 256);
    pthread_mutex_lock(&lock);
    if (used == room) {
        size_t n = room ? 2 * room : 16;
        allocation *t = realloc(table, n * sizeof *t);
        if (!t) {
            pthread_mutex_unlock(&lock);
            munmap(a.map, a.map_len);
            return simdev_fail(RESHAPE_E_INTERNAL, "out of host memory for the device's table");
        }
        table = t;
        room = n;
    }
    table[used++] = a;
    pthread_mutex_unlock(&lock);
    *device_ptr = a.ptr;
    return RESHAPE_OK;
}

reshape_status simdev_release(void *device_ptr)
{
    simdev_drain();     /* no kernel may still run on it, as with cuMemFree */
    pthread_mutex_lock(&lock);
    allocation *a = find(device_ptr);
    if (!a || a->ptr != device_ptr) {
        pthread_mutex_unlock(&lock);
        return simdev_fail(RESHAPE_E_INTERNAL, "release of %p, which alloc did not return",
                           device_ptr);
    }
    allocation gone = *a;
    *a = table[--used];
    pthread_mutex_unlock(&lock);
    munmap(gone.map, gone.map_len);
    return RESHAPE_OK;
}

int simdev_open(const void *p)
{
    pthread_mutex_lock(&lock);
    allocation *a = find(p);
    if (a && a->opens++ == 0)
        mprotect(a->map + page_size(), a->pages_len, PROT_READ | PROT_WRITE);
    pthread_mutex_unlock(&lock);
    return a ? 0 : -1;
}

void simdev_close(const void *p)
{
    pthread_mutex_lock(&lock);
    allocation *a = find(p);
    if (a && a->opens > 0 && --a->opens == 0)
        mprotect(a->map + page_size(), a->pages_len, PROT_NONE);
    pthread_mutex_unlock(&lock);
}

/* Whether [p, p + bytes) lies in one allocation; under the lock. */
static int holds(const void *p, size_t bytes)
{
    allocation *a = find(p);
    return a && (const uint8_t *)p + bytes <= a->ptr + a->bytes;
}

/* Copies `bytes` from `from` to `to`, opening whichever is device memory
 * (`dev_to`, `dev_from`) for the copy. */
static reshape_status copy(void *to, const void *from, size_t bytes, int dev_to, int dev_from,
                           const char *hook)
{
    pthread_mutex_lock(&lock);
    int ok = (!dev_to || holds(to, bytes)) && (!dev_from || holds(from, bytes));
    pthread_mutex_unlock(&lock);
    if (!ok)
        return simdev_fail(RESHAPE_E_INTERNAL, "%s of %zu bytes from %p to %p: not within one "
                           "allocation", hook, bytes, from, to);
    if (dev_to)
        simdev_open(to);
    if (dev_from)
        simdev_open(from);
    memmove(to, from, bytes);
    if (dev_from)
        simdev_close(from);
    if (dev_to)
        simdev_close(to);
    return RESHAPE_OK;
}

reshape_status simdev_copy_to_device(void *device_dst, const void *host_src, size_t bytes)
{
    return copy(device_dst, host_src, bytes, 1, 0, "copy_to_device");
}

reshape_status simdev_copy_to_host(void *host_dst, const void *device_src, size_t bytes)
{
    return copy(host_dst, device_src, bytes, 0, 1, "copy_to_host");
}

reshape_status simdev_copy_on_device(void *device_dst, const void *device_src, size_t bytes)
{
    return copy(device_dst, device_src, bytes, 1, 1, "copy_on_device");
}

reshape_status simdev_memory_in_use(uint64_t *bytes)
{
    uint64_t n = 0;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < used; i++)
        n += table[i].bytes;
    pthread_mutex_unlock(&lock);
    *bytes = n;
    return RESHAPE_OK;
}

void simdev_memory_forget(void)
{
    pthread_mutex_init(&lock, NULL);
    used = 0;
}
