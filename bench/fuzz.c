/*
 * fuzz.c - the throughput of `reshape-conform fuzz` against the reference:
 * requests per second over a fixed count, best of opt->repeats (bench.h).
 * The figure is the fuzz command's own: requests over the time from its
 * first batch to its last verdict, as its summary line prints it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bench.h"

/* Requests per measured fuzz run. */
#define FUZZ_REQUESTS 20000

/* Runs one fuzz session; fills *requests and *seconds from its summary
 * line.  Returns 0, or -1 after saying why. */
static int fuzz_once(const struct bench_options *opt, long *requests, double *seconds)
{
    char cmd[2048], line[512];
    snprintf(cmd, sizeof cmd, "'%s' fuzz --count %d --seed 1 --out '%s/fuzz' 2>&1",
             opt->harness, FUZZ_REQUESTS, opt->tmpdir);
    FILE *p = popen(cmd, "r");
    if (!p) {
        fprintf(stderr, "bench: cannot run '%s': %s\n", cmd, strerror(errno));
        return -1;
    }
    int found = 0;
    while (fgets(line, sizeof line, p))
        if (sscanf(line, "fuzz: %ld requests from %*d generated cases in %lf s", requests, seconds) == 2)
            found = 1;
    int st = pclose(p);
    if (!found || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "bench: '%s' gave no summary or found disagreements (status %d)\n",
                cmd, st);
        return -1;
    }
    return 0;
}

int bench_fuzz(const struct bench_options *opt, json_t *out, json_t *table)
{
    long best_n = 0;
    double best_s = 0;
    for (int i = 0; i < opt->repeats; i++) {
        long n;
        double s;
        if (fuzz_once(opt, &n, &s) != 0)
            return -1;
        if (best_s == 0 || (double)n / s > (double)best_n / best_s) {
            best_n = n;
            best_s = s;
        }
    }
    json_object_set_new(out, "fuzz",
                        json_pack("{s:I, s:f, s:f}", "requests", (json_int_t)best_n,
                                  "seconds", best_s, "requests_per_s", (double)best_n / best_s));
    bench_row(table, "fuzz", "fuzz, reference, requests/s", (double)best_n / best_s, "req/s",
              ">= 10000");
    return 0;
}
