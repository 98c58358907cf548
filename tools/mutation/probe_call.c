/*
 * probe_call.c - one call of the equivalence probe on one build, and what
 * tells two builds' answers apart (probe_run.h).  Depends on probe.h and
 * the harness's fill_random (harness/suite/fill.h).
 */
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "probe_run.h"
#include "suite/fill.h"

unsigned char *probe_guarded(int flags)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *p = mmap(NULL, PROBE_ARENA_CAP + 2 * page, PROT_READ | PROT_WRITE,
                            flags | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (mprotect(p, page, PROT_NONE) != 0 ||
        mprotect(p + page + PROBE_ARENA_CAP, page, PROT_NONE) != 0)
        return NULL;
    return p + page;
}

unsigned char *probe_arena_of(unsigned char *map, const probe_call *c)
{
    return c->flush_front ? map : map + PROBE_ARENA_CAP - c->arena_bytes;
}

static void keep_message(const reshape_candidate *lib, char *buf, int *null)
{
    const char *m = lib->last_error();
    *null = m == NULL;
    snprintf(buf, PROBE_MSG_MAX, "%s", m ? m : "");
}

void probe_call_make(const reshape_candidate *lib, const probe_call *c, unsigned char *map,
                     struct answer *out)
{
    unsigned char *arena = probe_arena_of(map, c);
    fill_random(arena, c->arena_bytes, c->fill);
    reshape_tensor shape = {c->shape_dtype, c->shape_rank, (int64_t *)c->shape_dims, NULL,
                            (void *)c->shape_bytes};
    reshape_params p = {c->op, c->special_zero, &shape};
    reshape_tensor src = {c->dtype, c->src.rank, c->src.dims,
                          c->src.strided ? c->src.strides : NULL, arena + c->src.at};
    reshape_tensor dst = {c->dtype, c->dst.rank, c->dst.dims,
                          c->dst.strided ? c->dst.strides : NULL, arena + c->dst.at};
    const reshape_params *pp = &p;
    const reshape_tensor *ps = &src, *pd = &dst;
    int32_t *out_rank = &out->rank;
    int64_t *out_dims = out->dims;
    int64_t wide[RESHAPE_MAX_RANK + 1], edited[RESHAPE_MAX_RANK];
    switch (c->misuse) {
    case MISUSE_SRC_DIMS_NULL: src.dims = src.rank == 0 ? NULL : src.dims; break;
    case MISUSE_DST_DIMS_NULL: dst.dims = dst.rank == 0 ? NULL : dst.dims; break;
    case MISUSE_SHAPE_DIMS_NULL: shape.dims = shape.rank == 0 ? NULL : shape.dims; break;
    case MISUSE_SRC_DATA_NULL: src.data = NULL; break;
    case MISUSE_DST_DATA_NULL: dst.data = NULL; break;
    case MISUSE_PARAMS_NULL: pp = NULL; break;
    case MISUSE_SRC_NULL: ps = NULL; break;
    case MISUSE_DST_NULL: pd = NULL; break;
    case MISUSE_SHAPE_NULL: p.shape = NULL; break;
    case MISUSE_OUT_RANK_NULL: out_rank = NULL; break;
    case MISUSE_OUT_DIMS_NULL: out_dims = NULL; break;
    case MISUSE_RANK_ABOVE_MAX:
        for (int i = 0; i <= RESHAPE_MAX_RANK; i++)
            wide[i] = i < src.rank ? c->src.dims[i] : 1;
        src.rank = RESHAPE_MAX_RANK + 1;
        src.dims = wide;
        src.strides = NULL;
        break;
    case MISUSE_RANK_NEGATIVE: src.rank = -1; break;
    case MISUSE_DIM_NEGATIVE:
    case MISUSE_STRIDE_NEGATIVE: {
        const reshape_tensor *t = c->src.rank > 0 ? &src : &dst;
        reshape_tensor *w = c->src.rank > 0 ? &src : &dst;
        if (t->rank < 1)
            break;
        int negative_dim = c->misuse == MISUSE_DIM_NEGATIVE || t->strides == NULL;
        memcpy(edited, negative_dim ? t->dims : t->strides, (size_t)t->rank * sizeof edited[0]);
        edited[0] = -1;
        if (negative_dim)
            w->dims = edited;
        else
            w->strides = edited;
        break;
    }
    case MISUSE_DTYPE_UNKNOWN: src.dtype = dst.dtype = (reshape_dtype)(RESHAPE_DT_COUNT + 1); break;
    case MISUSE_OP_UNKNOWN: p.op = (reshape_op)(RESHAPE_OP_COUNT + 1); break;
    case MISUSE_SPECIAL_ZERO_2: p.special_zero = 2; break;
    default: break;
    }
    out->infer_status = lib->infer_shape(pp, ps, out_rank, out_dims);
    out->infer_done = 1;
    keep_message(lib, out->infer_msg, &out->infer_msg_null);
    out->exec_status = lib->execute(pp, ps, pd);
    out->exec_done = 1;
    keep_message(lib, out->exec_msg, &out->exec_msg_null);
}

static int in_region(size_t i, const probe_tensor *t)
{
    return i >= t->at && i < t->at + t->bytes;
}

const char *probe_differ(const probe_call *c, const struct side *a, const struct side *b)
{
    const struct answer *x = &a->out, *y = &b->out;
    if (c->far && (x->signal != 0 || x->exit != 0))
        return NULL; /* the original read past its buffer: what it met there
                      * depends on the address space, not on the build */
    if (c->kind == PROBE_PARTIAL && (x->signal || x->exit || y->signal || y->exit))
        return NULL; /* a copy over partly overlapping buffers is outside the
                      * ABI: whether it faults or a sanitizer objects to its
                      * memcpy is not behaviour; only the statuses are */
    if (x->signal != y->signal || x->exit != y->exit)
        return "how the call ended";
    if (x->infer_done != y->infer_done || x->infer_status != y->infer_status)
        return "infer_shape's status";
    if (x->infer_done && x->infer_status == RESHAPE_OK && c->misuse != MISUSE_OUT_RANK_NULL &&
        c->misuse != MISUSE_OUT_DIMS_NULL &&
        (x->rank != y->rank || x->rank < 0 || x->rank > RESHAPE_MAX_RANK ||
         memcmp(x->dims, y->dims, (size_t)x->rank * sizeof x->dims[0]) != 0))
        return "infer_shape's dims";
    if (x->exec_done != y->exec_done || x->exec_status != y->exec_status)
        return "execute's status";
    if (x->signal != 0 || x->exit != 0 || c->kind == PROBE_PARTIAL)
        return NULL; /* the original read past, or no result is defined */
    const unsigned char *x_bytes = probe_arena_of(a->arena, c);
    const unsigned char *y_bytes = probe_arena_of(b->arena, c);
    for (size_t i = 0; i < c->arena_bytes; i++) {
        if (x_bytes[i] == y_bytes[i])
            continue;
        if (in_region(i, &c->dst))
            return "dst bytes";
        return in_region(i, &c->src) ? "src bytes" : "bytes around dst";
    }
    return NULL;
}

int probe_messages_differ(const struct answer *x, const struct answer *y)
{
    return x->infer_msg_null != y->infer_msg_null || x->exec_msg_null != y->exec_msg_null ||
           strcmp(x->infer_msg, y->infer_msg) != 0 || strcmp(x->exec_msg, y->exec_msg) != 0;
}

void probe_answer_text(const struct answer *o, char *buf, size_t size)
{
    const char *infer = reshape_status_name((reshape_status)o->infer_status);
    const char *exec = reshape_status_name((reshape_status)o->exec_status);
    if (o->signal != 0)
        snprintf(buf, size, "signal %d (%s) in %s", o->signal, strsignal(o->signal),
                 o->infer_done ? "execute" : "infer_shape");
    else if (o->exit != 0)
        snprintf(buf, size, "exit %d in %s", o->exit, o->infer_done ? "execute" : "infer_shape");
    else
        snprintf(buf, size, "infer_shape %s, execute %s", infer ? infer : "?",
                 exec ? exec : "?");
}
