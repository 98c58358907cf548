/*
 * clock.c - the benchmark's clock.  Depends on libc only.
 */
#include <time.h>

#include "bench.h"

double bench_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void bench_row(json_t *table, const char *section, const char *figure,
               double value, const char *unit, const char *target)
{
    json_array_append_new(table,
                          json_pack("[s, s, f, s, s?]", section, figure, value,
                                    unit, target));
}
