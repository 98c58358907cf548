/*
 * perf_measure.c - timing one point of a performance profile inside the
 * worker (perf.h): the candidate's execute and memcpy of the same bytes in
 * alternate rounds, so both see the same machine.  Depends on perf.h,
 * layout.h, jansson and POSIX.
 *
 * A sample times K back-to-back calls, K doubled until a sample lasts at
 * least SAMPLE_NS, so the clock's own cost is noise; a figure is the
 * median over rounds of samples, its spread the interquartile range over
 * the median.  Rounds go on until both spreads are at most SPREAD_OK
 * (after MIN_ROUNDS), or the point's time budget is spent (after
 * MIN_ROUNDS_SLOW), or MAX_ROUNDS.  A point supports() declines is not
 * timed; one whose first call took longer than its budget is timed by
 * that call alone; in place only execute is timed (nothing has to move,
 * so no bandwidth or ratio means anything).  A candidate with a device is
 * timed in its memory by perf_device.c, with this file's request and
 * rounds (perf_int.h); its fixed costs here stop before the tiny execute.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "base/base.h"
#include "judge/judge.h"
#include "worker/worker.h"
#include "perf.h"
#include "perf_int.h"

#define SAMPLE_NS 20000.0
#define SPREAD_OK 0.05
#define MIN_ROUNDS 5
#define MIN_ROUNDS_SLOW 3
#define MAX_ROUNDS 200
#define ROW 64                  /* elements in a row of every point's src */

static double clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double sample_execute(request *r, long k)
{
    double t0 = clock_ns();
    for (long i = 0; i < k; i++)
        r->t->execute(&r->params, &r->src, &r->dst);
    return (clock_ns() - t0) / (double)k;
}

/* Through a volatile pointer, so the copies into a buffer nobody reads
 * are never dropped. */
static void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;

static double sample_memcpy(request *r, long k)
{
    double t0 = clock_ns();
    for (long i = 0; i < k; i++)
        copy_fn(r->copy_dst, r->copy_src, r->bytes);
    return (clock_ns() - t0) / (double)k;
}

static double sample_infer(request *r, long k)
{
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    double t0 = clock_ns();
    for (long i = 0; i < k; i++)
        r->t->infer_shape(&r->params, &r->src, &rank, dims);
    return (clock_ns() - t0) / (double)k;
}

/* The number of calls a sample needs to last SAMPLE_NS. */
static long calibrate(sampler f, request *r)
{
    long k = 1;
    while (k < (1L << 24) && f(r, k) * (double)k < SAMPLE_NS)
        k *= 2;
    return k;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n) and (q3 - q1) / median; sorts v. */
static double median_spread(double *v, int n, double *spread)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    *spread = med > 0 ? (v[(3 * n) / 4] - v[n / 4]) / med : 0;
    return med;
}

/* Rounds of `a` (and `b`, alternating, when not NULL) until the rule at
 * the top is met.  Returns the number of rounds. */
int measure(request *r, sampler a, figure *fa, sampler b, figure *fb, double budget_s)
{
    double va[MAX_ROUNDS], vb[MAX_ROUNDS];
    long ka = calibrate(a, r), kb = b ? calibrate(b, r) : 0;
    double start = clock_ns();
    int n = 0;
    while (n < MAX_ROUNDS) {
        va[n] = a(r, ka);
        if (b)
            vb[n] = b(r, kb);
        n++;
        double sa, sb = 0, tmp[MAX_ROUNDS];
        memcpy(tmp, va, sizeof *va * (size_t)n);
        median_spread(tmp, n, &sa);
        if (b) {
            memcpy(tmp, vb, sizeof *vb * (size_t)n);
            median_spread(tmp, n, &sb);
        }
        double spent = (clock_ns() - start) / 1e9;
        if (n >= MIN_ROUNDS && sa <= SPREAD_OK && sb <= SPREAD_OK)
            break;
        if (n >= MIN_ROUNDS_SLOW && spent >= budget_s)
            break;
    }
    fa->median_ns = median_spread(va, n, &fa->spread);
    if (b)
        fb->median_ns = median_spread(vb, n, &fb->spread);
    return n;
}

void *map_bytes(uint64_t n)
{
    void *p = mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void unmap_bytes(void *p, uint64_t n)
{
    if (p)
        munmap(p, n ? n : 1);
}

/* src dims [n / ROW, ROW] reshaped to [ROW, n / ROW]; special_zero 0. */
void request_init(request *r, const reshape_candidate *t, reshape_op op,
                  reshape_dtype dtype, uint64_t elems)
{
    memset(r, 0, sizeof *r);
    r->t = t;
    int64_t rows = (int64_t)(elems / ROW), in[2] = {rows, ROW}, out[2] = {ROW, rows};
    unsigned bits = reshape_dtype_bits(dtype);
    layout_dense(&r->ls, 2, in, bits);
    layout_dense(&r->ld, 2, out, bits);
    r->shape_values[0] = r->shape_values32[0] = ROW;
    r->shape_values[1] = r->shape_values32[1] = (int32_t)rows;
    static const int64_t two[1] = {2};
    int s32 = op == RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1;
    r->shape = (reshape_tensor){s32 ? RESHAPE_DT_S32 : RESHAPE_DT_S64, 1, two, NULL,
                                s32 ? (void *)r->shape_values32 : (void *)r->shape_values};
    r->params = (reshape_params){op, 0, &r->shape};
    r->bytes = elems * bits / 8;
}

void tensor_of(reshape_tensor *x, const tlayout *l, reshape_dtype dtype, void *data)
{
    *x = (reshape_tensor){dtype, l->rank, l->dims, l->strided ? l->strides : NULL, data};
}

/* splitmix64 bytes: a payload no candidate can guess or compress. */
void random_bytes(uint8_t *p, uint64_t n, uint64_t seed)
{
    for (uint64_t i = 0; i < n; i += 8) {
        uint64_t z = (seed += 0x9E3779B97F4A7C15u);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        z ^= z >> 31;
        for (int b = 0; b < 8 && i + (uint64_t)b < n; b++)
            p[i + (uint64_t)b] = (uint8_t)(z >> (8 * b));
    }
}

json_t *figure_json(const figure *f)
{
    return json_pack("{s:f, s:f}", "median_ns", f->median_ns, "spread", f->spread);
}

void put_figures(json_t *o, uint64_t bytes, const figure *fe, const figure *fm, int rounds)
{
    double gib = (double)bytes / (double)(1u << 30);
    json_object_set_new(o, "execute", figure_json(fe));
    json_object_set_new(o, "memcpy", figure_json(fm));
    json_object_set_new(o, "rounds", json_integer(rounds));
    json_object_set_new(o, "gib_s", json_real(gib / (fe->median_ns / 1e9)));
    json_object_set_new(o, "memcpy_gib_s", json_real(gib / (fm->median_ns / 1e9)));
    json_object_set_new(o, "ratio", json_real(fm->median_ns / fe->median_ns));
}

/* The object of point `p` before any figure. */
json_t *point_json(const perf_point *p)
{
    return json_pack("{s:s, s:s, s:i, s:s, s:I}", "op", reshape_op_name(p->op),
                     "dtype", reshape_dtype_name(p->dtype), "bits",
                     (int)reshape_dtype_bits(p->dtype), "layout", perf_layout_name(p->layout),
                     "bytes", (json_int_t)p->bytes);
}

json_t *perf_cut_point(const perf_point *p, const perf_point *last, double last_ns,
                       double guess_ns, double budget_s, int whole)
{
    json_t *o = point_json(p);
    char *why = isinf(last_ns)
        ? xasprintf("not run: its series' %llu-byte point was over the budget of %g s",
                    (unsigned long long)last->bytes, budget_s)
        : xasprintf("not run: its series' %llu-byte point took %.3g s %s, so this one "
                    "would take about %.3g s, over %g s",
                    (unsigned long long)last->bytes, last_ns / 1e9,
                    whole ? "in all (set up, timed and checked)" : "a call", guess_ns / 1e9,
                    budget_s);
    json_object_set_new(o, "status", json_string("CUT"));
    json_object_set_new(o, "detail", json_string(why));
    free(why);
    return o;
}

static const unsigned point_layout_flags[PERF_LAYOUT_COUNT] = {
    0, RESHAPE_LAYOUT_IN_PLACE, RESHAPE_LAYOUT_STRIDED_SRC, RESHAPE_LAYOUT_STRIDED_DST};

json_t *point_begin(request *r, const reshape_candidate *t, const perf_point *p)
{
    json_t *o = point_json(p);
    unsigned bits = reshape_dtype_bits(p->dtype);
    request_init(r, t, p->op, p->dtype, p->bytes * 8 / bits);
    int64_t dims[2];
    if (p->layout == PERF_STRIDED_SRC) {
        memcpy(dims, r->ls.dims, sizeof dims);
        layout_padded(&r->ls, 2, dims, bits);
    }
    if (p->layout == PERF_STRIDED_DST) {
        memcpy(dims, r->ld.dims, sizeof dims);
        layout_padded(&r->ld, 2, dims, bits);
    }
    return o;
}

json_t *perf_measure_point(const reshape_candidate *t, const perf_point *p,
                           double point_seconds, double budget_s)
{
    request r;
    json_t *o = point_begin(&r, t, p);
    reshape_dtype shape_dtype = p->op == RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1 ? RESHAPE_DT_S32
                                                                            : RESHAPE_DT_S64;
    if (t->supports(p->op, p->dtype, shape_dtype, point_layout_flags[p->layout]) ==
        RESHAPE_E_NOT_SUPPORTED) {
        json_object_set_new(o, "status", json_string("NOT_SUPPORTED"));
        json_object_set_new(o, "detail", json_string("supports() said NOT_SUPPORTED"));
        return o;
    }
    /* a request infer_shape refuses (DATA_TYPE for u1 under oneDNN) costs
     * no payload of up to 1 GiB written and checked for nothing */
    int32_t rank;
    int64_t out[RESHAPE_MAX_RANK];
    tensor_of(&r.src, &r.ls, p->dtype, NULL);
    reshape_status refused = t->infer_shape(&r.params, &r.src, &rank, out);
    if (refused != RESHAPE_OK && reshape_status_name(refused)) {
        json_object_set_new(o, "status", json_string(reshape_status_name(refused)));
        json_object_set_new(o, "detail", json_string("infer_shape refused the request: "
                                                     "execute not called"));
        return o;
    }
    unsigned bits = reshape_dtype_bits(p->dtype);
    int in_place = p->layout == PERF_IN_PLACE;
    uint8_t *payload = map_bytes(r.bytes), *src = map_bytes(r.ls.span_bytes);
    uint8_t *dst = in_place ? src : map_bytes(r.ld.span_bytes);
    uint8_t *check = map_bytes(r.bytes);
    r.copy_src = src;
    r.copy_dst = map_bytes(r.bytes);
    const char *status = "NO_MEMORY";
    if (!payload || !src || !dst || !check || !r.copy_dst)
        goto done;
    random_bytes(payload, r.bytes, p->bytes ^ bits);
    memset(src, 0, r.ls.span_bytes);
    /* a dense image is the payload itself: no element-wise copy of up to
     * 2^33 sub-byte elements */
    if (r.ls.strided)
        layout_scatter(&r.ls, payload, src);
    else
        memcpy(src, payload, r.bytes);
    tensor_of(&r.src, &r.ls, p->dtype, src);
    tensor_of(&r.dst, &r.ld, p->dtype, dst);
    double first = clock_ns();
    reshape_status s = t->execute(&r.params, &r.src, &r.dst);
    double first_ns = clock_ns() - first;
    status = reshape_status_name(s);
    if (s != RESHAPE_OK)
        goto done;
    if (r.ld.strided)
        layout_gather(&r.ld, dst, check);
    if (memcmp(r.ld.strided ? check : dst, payload, r.bytes)) {
        status = "WRONG_BYTES";
        goto done;
    }
    figure fe = {first_ns, 0}, fm;
    int rounds = 1;
    if (first_ns > budget_s * 1e9) {
        char *why = xasprintf("one call took %.3g s, more than the point's budget of %g s: "
                              "timed by that call; the larger sizes of its series are cut",
                              first_ns / 1e9, budget_s);
        json_object_set_new(o, "over_budget", json_string(why));
        free(why);
        if (!in_place)
            measure(&r, sample_memcpy, &fm, NULL, NULL, point_seconds);
    } else if (in_place) {
        rounds = measure(&r, sample_execute, &fe, NULL, NULL, point_seconds);
    } else {
        rounds = measure(&r, sample_execute, &fe, sample_memcpy, &fm, point_seconds);
    }
    if (in_place) {
        json_object_set_new(o, "execute", figure_json(&fe));
        json_object_set_new(o, "rounds", json_integer(rounds));
    } else {
        put_figures(o, r.bytes, &fe, &fm, rounds);
    }
done:
    json_object_set_new(o, "status", json_string(status));
    unmap_bytes(payload, r.bytes);
    unmap_bytes(src, r.ls.span_bytes);
    if (!in_place)
        unmap_bytes(dst, r.ld.span_bytes);
    unmap_bytes(check, r.bytes);
    unmap_bytes(r.copy_dst, r.bytes);
    return o;
}

void tiny_request(request *r)
{
    /* the smallest execute: one f32 element, [1] -> [1] */
    static const int64_t one[1] = {1};
    r->shape_values[0] = r->shape_values32[0] = 1;
    r->shape.dims = one;
    r->src = (reshape_tensor){RESHAPE_DT_F32, 1, one, NULL, NULL};
    r->dst = (reshape_tensor){RESHAPE_DT_F32, 1, one, NULL, NULL};
}

json_t *perf_measure_fixed(const reshape_candidate *t, reshape_op op)
{
    json_t *o = json_pack("{s:s}", "op", reshape_op_name(op));
    request r;
    figure f;
    request_init(&r, t, op, RESHAPE_DT_F32, (1u << 20) / 4);
    tensor_of(&r.src, &r.ls, RESHAPE_DT_F32, NULL);
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    reshape_status s = t->infer_shape(&r.params, &r.src, &rank, dims);
    json_t *infer = json_pack("{s:s}", "status", reshape_status_name(s));
    if (s == RESHAPE_OK) {
        measure(&r, sample_infer, &f, NULL, NULL, 0.1);
        json_object_set_new(infer, "ns_per_call", figure_json(&f));
    }
    json_object_set_new(o, "infer_shape", infer);

    if (exec_device(t))
        return o;       /* its tiny execute is on the device (perf_device_tiny) */
    float in = 1.0f, out = 0.0f;
    tiny_request(&r);
    r.src.data = &in;
    r.dst.data = &out;
    s = t->execute(&r.params, &r.src, &r.dst);
    json_t *tiny = json_pack("{s:s}", "status", reshape_status_name(s));
    if (s == RESHAPE_OK) {
        measure(&r, sample_execute, &f, NULL, NULL, 0.1);
        json_object_set_new(tiny, "ns_per_call", figure_json(&f));
    }
    json_object_set_new(o, "tiny_execute", tiny);
    return o;
}
