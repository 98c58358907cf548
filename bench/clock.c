/*
 * clock.c - the benchmark's clock, table rows and medians.  Depends on
 * libc only.
 */
#include <stdlib.h>
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
