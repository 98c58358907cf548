/*
 * perf_int.h - what the files of perf/ share, private to the layer: one
 * point's request, the rounds that time it (perf_measure.c), and the
 * device's side of a point (perf_device.c).  Depends on perf.h and
 * layout.h.
 */
#ifndef HARNESS_PERF_INT_H
#define HARNESS_PERF_INT_H

#include <jansson.h>
#include <stdint.h>

#include "judge/judge.h"
#include "perf.h"

/* One request: everything a call of execute or infer_shape needs. */
typedef struct request {
    const reshape_candidate *t;
    reshape_params params;
    reshape_tensor shape, src, dst;
    int64_t shape_values[2];
    int32_t shape_values32[2];
    tlayout ls, ld;
    uint8_t *copy_src, *copy_dst;   /* the baseline copy's buffers */
    uint64_t bytes;
} request;

/* Times `k` back-to-back calls; returns ns per call.  A device's sampler
 * gets its request as the first member of a larger one. */
typedef double (*sampler)(request *r, long k);

typedef struct figure {
    double median_ns, spread;
} figure;

/* src dims [elems / 64, 64] reshaped to [64, elems / 64] by `op`, dense,
 * special_zero 0, no data yet (perf_measure.c). */
void request_init(request *r, const reshape_candidate *t, reshape_op op, reshape_dtype dtype,
                  uint64_t elems);

/* `x` as layout `l` of `dtype` at `data`. */
void tensor_of(reshape_tensor *x, const tlayout *l, reshape_dtype dtype, void *data);

/* `n` splitmix64 bytes from `seed` into p. */
void random_bytes(uint8_t *p, uint64_t n, uint64_t seed);

/* `n` bytes of host memory, populated, or NULL; and back. */
void *map_bytes(uint64_t n);
void unmap_bytes(void *p, uint64_t n);

/* Rounds of sampler `a` (and `b`, alternating, when not NULL) until the
 * spreads are small or the budget is spent (perf_measure.c's rule);
 * returns the rounds. */
int measure(request *r, sampler a, figure *fa, sampler b, figure *fb, double budget_s);

/* {median_ns, spread}. */
json_t *figure_json(const figure *f);

/* A measured point's fields: execute `fe` beside the baseline copy `fm`
 * of `bytes` (reports/SCHEMA.md, "memcpy" and "ratio"). */
void put_figures(json_t *o, uint64_t bytes, const figure *fe, const figure *fm, int rounds);

/* The point's JSON object with `p`'s fields, and `r` set up for it: the
 * request of perf_measure_point with its layouts, no data yet. */
json_t *point_begin(request *r, const reshape_candidate *t, const perf_point *p);

/* The JSON object of point `p`'s fields: op, dtype, bits, layout, bytes. */
json_t *point_json(const perf_point *p);

/* Makes `r` the smallest execute: one f32 element, [1] -> [1], no data. */
void tiny_request(request *r);

#endif
