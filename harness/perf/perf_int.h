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

/*
 * Point `p` of a candidate with a device (perf_device.c), its request `r`
 * set up by perf_measure_point: src and dst in device memory, staged and
 * read back through the hooks, execute then synchronize timed beside the
 * device's copy_on_device of the same bytes; fills `o` as
 * perf_measure_point does (status NO_DEVICE_COPY, untimed, without
 * copy_on_device) and returns it.
 */
json_t *perf_device_point(json_t *o, request *r, const perf_point *p, double budget_s);

/* tiny_execute of perf_measure_fixed on the device: one f32 element in
 * device memory, execute then synchronize. */
json_t *perf_device_tiny(request *r);

#endif
