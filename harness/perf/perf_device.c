/*
 * perf_device.c - a point of a performance profile for a candidate with a
 * device (perf_int.h): src and dst in the device's memory, execute then
 * synchronize timed beside the device's own copy_on_device of the same
 * bytes, never host memcpy.  The payload is staged and checked through
 * copy_to_device and copy_to_host, outside the timing.  The worker calls
 * it instead of perf_measure.c's point (perf_worker.c).  Depends on
 * perf_int.h, exec.h (exec_device) and layout.h.
 */
#include <string.h>

#include "base/base.h"
#include "engine/engine.h"
#include "worker/worker.h"
#include "perf_int.h"

/* A request with its device buffers; `r` first, for the samplers. */
typedef struct dev_request {
    request r;
    const reshape_device *d;
    void *src, *dst, *copy;
} dev_request;

static double sample_execute(request *r, long k)
{
    dev_request *x = (dev_request *)r;
    double t0 = now_s();
    for (long i = 0; i < k; i++)
        r->t->execute(&r->params, &r->src, &r->dst);
    x->d->synchronize();
    return (now_s() - t0) * 1e9 / (double)k;
}

static double sample_copy(request *r, long k)
{
    dev_request *x = (dev_request *)r;
    double t0 = now_s();
    for (long i = 0; i < k; i++)
        x->d->copy_on_device(x->copy, x->src, r->bytes);
    x->d->synchronize();
    return (now_s() - t0) * 1e9 / (double)k;
}

/* "DEVICE_ERROR" and why, for a hook that failed outside the timing. */
static const char *hook_failed(json_t *o, const request *r, const char *hook)
{
    const char *e = r->t->last_error ? r->t->last_error() : NULL;
    json_object_set_new(o, "detail", json_sprintf("%s failed%s%s", hook, e ? ": " : "",
                                                  e ? e : ""));
    return "DEVICE_ERROR";
}

/* Allocates `n` bytes of device memory into *p; 0, or -1 (NO_MEMORY). */
static int dev_alloc(const dev_request *x, uint64_t n, void **p)
{
    return x->d->alloc(n ? n : 1, p) == RESHAPE_OK ? 0 : -1;
}

static void dev_release(const dev_request *x, void *p)
{
    if (p)
        x->d->release(p);
}

/* Stages the payload, runs execute once and checks dst; returns the
 * status name ("OK" when the point may be timed). */
static const char *first_call(json_t *o, dev_request *x, const perf_point *p, uint8_t *payload,
                              uint8_t *image, uint8_t *check)
{
    request *r = &x->r;
    unsigned bits = reshape_dtype_bits(p->dtype);
    random_bytes(payload, r->bytes, p->bytes ^ bits);
    memset(image, 0, r->ls.span_bytes);
    layout_scatter(&r->ls, payload, image);
    if (x->d->copy_to_device(x->src, image, r->ls.span_bytes) != RESHAPE_OK)
        return hook_failed(o, r, "copy_to_device");
    memset(image, 0, r->ld.span_bytes);
    if (x->dst != x->src && x->d->copy_to_device(x->dst, image, r->ld.span_bytes) != RESHAPE_OK)
        return hook_failed(o, r, "copy_to_device");
    tensor_of(&r->src, &r->ls, p->dtype, x->src);
    tensor_of(&r->dst, &r->ld, p->dtype, x->dst);
    reshape_status s = r->t->execute(&r->params, &r->src, &r->dst);
    if (x->d->synchronize() != RESHAPE_OK)
        return hook_failed(o, r, "synchronize");
    if (s != RESHAPE_OK)
        return reshape_status_name(s);
    if (x->d->copy_to_host(image, x->dst, r->ld.span_bytes) != RESHAPE_OK)
        return hook_failed(o, r, "copy_to_host");
    layout_gather(&r->ld, image, check);
    return memcmp(check, payload, r->bytes) ? "WRONG_BYTES" : "OK";
}

json_t *perf_device_point(const reshape_candidate *t, const perf_point *p, double budget_s)
{
    dev_request x = {.d = exec_device(t)};
    request *r = &x.r;
    json_t *o = point_begin(r, t, p);
    uint64_t most = r->ls.span_bytes > r->ld.span_bytes ? r->ls.span_bytes : r->ld.span_bytes;
    uint8_t *payload = map_bytes(r->bytes), *image = map_bytes(most), *check = map_bytes(r->bytes);
    const char *status = "NO_MEMORY";
    int in_place = p->layout == PERF_IN_PLACE;
    if (!payload || !image || !check || dev_alloc(&x, r->ls.span_bytes, &x.src) ||
        dev_alloc(&x, r->bytes, &x.copy) || (!in_place && dev_alloc(&x, r->ld.span_bytes, &x.dst)))
        goto done;
    if (in_place)
        x.dst = x.src;
    status = first_call(o, &x, p, payload, image, check);
    if (strcmp(status, "OK"))
        goto done;
    if (!RESHAPE_DEVICE_HAS(x.d, copy_on_device) || !x.d->copy_on_device) {
        status = "NO_DEVICE_COPY";      /* nothing of the device's own to compare with */
        goto done;
    }
    figure fe, fm;
    int rounds = measure(r, sample_execute, &fe, sample_copy, &fm, budget_s);
    put_figures(o, r->bytes, &fe, &fm, rounds);
    json_object_set_new(o, "baseline", json_string("copy_on_device"));
done:
    json_object_set_new(o, "status", json_string(status));
    dev_release(&x, x.src);
    if (!in_place)
        dev_release(&x, x.dst);
    dev_release(&x, x.copy);
    unmap_bytes(payload, r->bytes);
    unmap_bytes(image, most);
    unmap_bytes(check, r->bytes);
    return o;
}

json_t *perf_device_tiny(const reshape_candidate *t, reshape_op op)
{
    dev_request x = {.d = exec_device(t)};
    request *r = &x.r;
    request_init(r, t, op, RESHAPE_DT_F32, 1);
    tiny_request(r);
    float one = 1.0f;
    const char *status = "NO_MEMORY";
    json_t *tiny = json_object();
    if (dev_alloc(&x, sizeof one, &x.src) || dev_alloc(&x, sizeof one, &x.dst))
        goto done;
    if (x.d->copy_to_device(x.src, &one, sizeof one) != RESHAPE_OK) {
        status = hook_failed(tiny, r, "copy_to_device");
        goto done;
    }
    r->src.data = x.src;
    r->dst.data = x.dst;
    reshape_status s = t->execute(&r->params, &r->src, &r->dst);
    status = x.d->synchronize() != RESHAPE_OK ? hook_failed(tiny, r, "synchronize")
                                              : reshape_status_name(s);
    if (s == RESHAPE_OK && !strcmp(status, "OK")) {
        figure f;
        measure(r, sample_execute, &f, NULL, NULL, 0.1);
        json_object_set_new(tiny, "ns_per_call", figure_json(&f));
    }
done:
    json_object_set_new(tiny, "status", json_string(status));
    dev_release(&x, x.src);
    dev_release(&x, x.dst);
    return tiny;
}
