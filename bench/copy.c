/*
 * copy.c - copy bandwidth of the reference implementation against memcpy on
 * the same buffers: dense, strided source, strided destination, in place,
 * and the plain (definition) path on dense.  Calls the reference through the
 * ABI table of build/libreshape_ref.a, and reference.h only to switch the
 * dense fast path off for the plain-path figure.
 *
 * Every figure is the best of opt->repeats runs after one warm-up, so page
 * faults and cold caches are not counted.  The payload is f32 elements.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "reference.h"
#include "reshape_candidate.h"

/* Row length of the strided layouts, and the padding after each row, in
 * elements: rows of 16 KiB followed by 64 bytes of gap. */
#define ROW 4096
#define PAD 16

struct copy_job {
    reshape_tensor src, dst;
    reshape_params params;
    reshape_tensor shape;
    int64_t shape_values[2];
    int64_t shape_dims[1];
};

/* Fills `job` for a reshape of `src` into `dst`, whose dims it uses as the
 * target shape. */
static void job_init(struct copy_job *job, const reshape_tensor *src,
                     const reshape_tensor *dst)
{
    job->src = *src;
    job->dst = *dst;
    for (int32_t i = 0; i < dst->rank; i++)
        job->shape_values[i] = dst->dims[i];
    job->shape_dims[0] = dst->rank;
    job->shape = (reshape_tensor){RESHAPE_DT_S64, 1, job->shape_dims, NULL,
                                  job->shape_values};
    job->params = (reshape_params){RESHAPE_OP_OPENVINO_RESHAPE_1, 0,
                                   &job->shape};
}

/* Best time of `repeats` executions of `job`, or -1 if the reference refused
 * it (a bug in this benchmark, reported with the reference's message). */
static double time_execute(const struct copy_job *job, int repeats)
{
    const reshape_candidate *ref = reshape_candidate_v1();
    double best = -1;

    for (int r = 0; r <= repeats; r++) {
        double t0 = bench_now();
        reshape_status st = ref->execute(&job->params, &job->src, &job->dst);
        double t = bench_now() - t0;

        if (st != RESHAPE_OK) {
            fprintf(stderr, "bench: reference refused a copy: %s\n",
                    ref->last_error() ? ref->last_error() : "no message");
            return -1;
        }
        if (r > 0 && (best < 0 || t < best)) /* run 0 is the warm-up */
            best = t;
    }
    return best;
}

static double time_memcpy(void *dst, const void *src, size_t bytes, int repeats)
{
    double best = -1;

    for (int r = 0; r <= repeats; r++) {
        double t0 = bench_now();
        memcpy(dst, src, bytes);
        double t = bench_now() - t0;

        if (r > 0 && (best < 0 || t < best))
            best = t;
    }
    return best;
}

/* Records one figure: the reference's bandwidth, memcpy's, and their ratio. */
static void record(json_t *out, json_t *table, const char *name, double t_ref,
                   double t_memcpy, double bytes, const char *target)
{
    double gib = bytes / (1024.0 * 1024 * 1024);
    char figure[96];

    json_object_set_new(out, name,
                        json_pack("{s:f, s:f, s:f, s:f}",
                                  "reference_gib_s", gib / t_ref,
                                  "memcpy_gib_s", gib / t_memcpy,
                                  "ratio", t_memcpy / t_ref,
                                  "bytes", bytes));
    snprintf(figure, sizeof figure, "%s: reference / memcpy", name);
    bench_row(table, "copy", figure, t_memcpy / t_ref, "x", target);
    snprintf(figure, sizeof figure, "%s: reference bandwidth", name);
    bench_row(table, "copy", figure, gib / t_ref, "GiB/s", NULL);
}

int bench_copy(const struct bench_options *opt, json_t *out, json_t *table)
{
    int64_t rows = opt->copy_bytes / 4 / ROW;
    int64_t n = rows * ROW;                   /* elements */
    size_t bytes = (size_t)n * 4;
    size_t padded = (size_t)(rows * (ROW + PAD)) * 4;
    unsigned char *a = malloc(padded), *b = malloc(padded);
    int64_t flat[1] = {n}, grid[2] = {rows, ROW};
    int64_t padded_strides[2] = {ROW + PAD, 1};
    struct copy_job job;
    double t_ref, t_mem;

    if (rows < 1 || a == NULL || b == NULL) {
        fprintf(stderr, "bench: cannot allocate 2 x %zu bytes for the copy "
                "benchmark\n", padded);
        free(a);
        free(b);
        return -1;
    }
    for (size_t i = 0; i < padded; i++) /* touch every page; any pattern */
        a[i] = (unsigned char)(i * 131u + 7u);
    memset(b, 0, padded);
    json_object_set_new(out, "payload_bytes", json_integer((json_int_t)bytes));
    t_mem = time_memcpy(b, a, bytes, opt->repeats);

    reshape_tensor src = {RESHAPE_DT_F32, 1, flat, NULL, a};
    reshape_tensor dst = {RESHAPE_DT_F32, 2, grid, NULL, b};

    job_init(&job, &src, &dst);
    if ((t_ref = time_execute(&job, opt->repeats)) < 0)
        goto fail;
    record(out, table, "dense", t_ref, t_mem, (double)bytes, ">= 0.9");

    reshape_ref_set_plain(1);
    t_ref = time_execute(&job, opt->repeats);
    reshape_ref_set_plain(0);
    if (t_ref < 0)
        goto fail;
    record(out, table, "dense_plain_path", t_ref, t_mem, (double)bytes, NULL);

    src = (reshape_tensor){RESHAPE_DT_F32, 2, grid, padded_strides, a};
    dst = (reshape_tensor){RESHAPE_DT_F32, 1, flat, NULL, b};
    job_init(&job, &src, &dst);
    if ((t_ref = time_execute(&job, opt->repeats)) < 0)
        goto fail;
    record(out, table, "strided_src", t_ref, t_mem, (double)bytes, NULL);

    src = (reshape_tensor){RESHAPE_DT_F32, 1, flat, NULL, a};
    dst = (reshape_tensor){RESHAPE_DT_F32, 2, grid, padded_strides, b};
    job_init(&job, &src, &dst);
    if ((t_ref = time_execute(&job, opt->repeats)) < 0)
        goto fail;
    record(out, table, "strided_dst", t_ref, t_mem, (double)bytes, NULL);

    src = (reshape_tensor){RESHAPE_DT_F32, 1, flat, NULL, a};
    dst = (reshape_tensor){RESHAPE_DT_F32, 2, grid, NULL, a};
    job_init(&job, &src, &dst);
    if ((t_ref = time_execute(&job, opt->repeats)) < 0)
        goto fail;
    /* dense in place moves no byte: a bandwidth would be meaningless, the
     * time of the call (checks only) is the figure */
    json_object_set_new(out, "in_place",
                        json_pack("{s:f, s:f}", "reference_s", t_ref,
                                  "memcpy_s", t_mem));
    bench_row(table, "copy", "in_place: reference call time", t_ref * 1e6,
              "us", NULL);

    free(a);
    free(b);
    return 0;
fail:
    free(a);
    free(b);
    return -1;
}
