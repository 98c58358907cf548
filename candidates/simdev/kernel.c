/*
 * kernel.c - the simulated device's reshape kernel (simdev.h): the
 * reference's copy of the elements, run on the device thread over the
 * device addresses execute was given.  The tensors' dims and strides are
 * copied into the launch, since the caller's arrays are valid only during
 * execute.  Depends on simdev.h, device_rules.h and the reference
 * (reference.h: reshape_ref_copy, reshape_ref_max_offset, reshape_ref_fail).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_rules.h"
#include "reference.h"
#include "simdev.h"

/* One tensor with its own copy of dims and strides. */
typedef struct owned_tensor {
    reshape_tensor t;
    int64_t dims[RESHAPE_MAX_RANK], strides[RESHAPE_MAX_RANK];
} owned_tensor;

typedef struct copy_launch {
    owned_tensor src, dst;
    int64_t volume;
} copy_launch;

reshape_status simdev_fail(reshape_status status, const char *fmt, ...)
{
    char m[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    return reshape_ref_fail(status, "%s", m);
}

static void own(owned_tensor *o, const reshape_tensor *t)
{
    o->t = *t;
    size_t n = (size_t)t->rank * sizeof(int64_t);
    memcpy(o->dims, t->dims, n);
    o->t.dims = o->dims;
    if (t->strides) {
        memcpy(o->strides, t->strides, n);
        o->t.strides = o->strides;
    }
}

/* Bytes from dst->data to the end of its last element (volume > 0). */
static size_t extent_bytes(const reshape_tensor *t)
{
    int64_t last = 0;
    reshape_ref_max_offset(t->rank, t->dims, t->strides, &last);
    return (size_t)(((uint64_t)last + 1) * reshape_dtype_bits(t->dtype) + 7) / 8;
}

static void copy_kernel(void *arg)
{
    copy_launch *c = arg;
    reshape_ref_copy(&c->src.t, &c->dst.t, c->volume);
    if (simdev_defect.band_past_dst > 0)
        memset((uint8_t *)c->dst.t.data + extent_bytes(&c->dst.t), 0xEE,
               (size_t)simdev_defect.band_past_dst);
}

void reshape_device_copy(const reshape_tensor *src, const reshape_tensor *dst, int64_t volume)
{
    if (simdev_defect.leak_per_call > 0) {
        void *lost;
        simdev_alloc((size_t)simdev_defect.leak_per_call, &lost);
    }
    if (simdev_defect.copies_on_host) {
        reshape_ref_copy(src, dst, volume);
        return;
    }
    copy_launch *c = malloc(sizeof *c);
    if (!c) {
        simdev_fail(RESHAPE_E_INTERNAL, "out of host memory for a kernel's arguments");
        device_copy_failed();
        return;
    }
    own(&c->src, src);
    own(&c->dst, dst);
    c->volume = volume;
    if (simdev_launch(copy_kernel, c, src->data, dst->data) != RESHAPE_OK)
        device_copy_failed();
}
