/*
 * test_util.c - harness/base/util.c: heap_warm maps a thread's heap up
 * front; path_join drops the trailing slashes of the user's folder.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "base/base.h"

#define STRINGS 4000
#define STRING_BYTES 100 /* ~400 KiB in all, as a slot thread's results */

typedef struct alloc_run {
    size_t warm;      /* heap_warm first, or 0 */
    long faults;      /* minor page faults while allocating the strings */
    pthread_barrier_t *all_done;
} alloc_run;

static long thread_faults(void)
{
    struct rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    return ru.ru_minflt;
}

/* In a new thread: allocates and writes STRINGS strings, counting the
 * page faults that took.  The threads end together: glibc hands the heap
 * of a thread that ended to the next new one, so each has a fresh heap
 * only while the others still run. */
static void *allocate_strings(void *p)
{
    alloc_run *r = p;
    char **kept = calloc(STRINGS, sizeof *kept);
    if (r->warm)
        heap_warm(r->warm);
    long before = thread_faults();
    for (int i = 0; i < STRINGS; i++) {
        kept[i] = malloc(STRING_BYTES);
        memset(kept[i], 'x', STRING_BYTES);
    }
    r->faults = thread_faults() - before;
    pthread_barrier_wait(r->all_done);
    for (int i = 0; i < STRINGS; i++)
        free(kept[i]);
    free(kept);
    return NULL;
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#else
#define UNDER_ASAN 0
#endif

Test(heap_warm, a_warmed_thread_allocates_without_page_faults)
{
    if (UNDER_ASAN)
        cr_skip_test("AddressSanitizer's allocator is not glibc's heap");
    pthread_barrier_t all_done;
    pthread_barrier_init(&all_done, NULL, 2);
    alloc_run runs[2] = {{0, -1, &all_done}, {(size_t)1 << 20, -1, &all_done}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        cr_assert_eq(pthread_create(&t[i], NULL, allocate_strings, &runs[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&all_done);
    long cold = runs[0].faults, warm = runs[1].faults;
    /* a cold heap grows a fault per page: ~100 for 400 KiB */
    cr_expect_gt(cold, 50, "cold: %ld faults", cold);
    cr_expect_lt(warm, 10, "warmed: %ld faults (cold: %ld)", warm, cold);
}

/* `--cases cases/`, `--report-dir out/`, `--out dist/`: no "//" in the
 * paths the reports and messages show */
Test(path_join, drops_the_folders_trailing_slashes)
{
    static const char *const want[][3] = {
        {"out", "x", "out/x"},     {"out/", "x", "out/x"}, {"out//", "x", "out/x"},
        {"/", "x", "/x"},          {"//", "x", "/x"},      {"a/b/", "c.yaml", "a/b/c.yaml"},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char *got = path_join(want[i][0], want[i][1]);
        cr_expect_str_eq(got, want[i][2], "path_join(\"%s\", \"%s\")", want[i][0], want[i][1]);
        free(got);
    }
}
