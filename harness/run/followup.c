/*
 * followup.c - executing the shape an error case's infer_shape wrongly
 * accepted (followup.h).  Depends on stage.h (stage_job_dst, judge_job),
 * worker.h and util.h.
 */
#include "followup.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

int followup_wanted(const stage *s, const arena *a, const result *r, followup *f)
{
    const rcase *c = &s->set->cases[r->case_index];
    if (r->v != V_INFER || r->vd != VD_ACCEPTED_INVALID || c->abuse != ABUSE_NONE ||
        s->j->v != V_INFER)
        return 0;
    int32_t rank = *(const int32_t *)(a->pview + WIRE_OUT_RANK_OFF(a, s->cl));
    if (rank < 0 || rank > RESHAPE_MAX_RANK)
        return 0;
    f->case_index = r->case_index;
    f->seq = s->seq;
    f->rank = rank;
    memcpy(f->dims, a->pview + WIRE_OUT_DIMS_OFF(a, s->cl), (size_t)rank * sizeof *f->dims);
    return 1;
}

/* Dense bytes of `bits`-wide elements in dims[0..rank): 0 with *why set
 * (a new string) when a dim is negative or the count overflows. */
static uint64_t dst_bytes(int32_t rank, const int64_t *dims, unsigned bits, char **why)
{
    int empty = 0;
    for (int32_t k = 0; k < rank; k++) {
        if (dims[k] < 0) {
            *why = xasprintf("dim %lld is negative", (long long)dims[k]);
            return 0;
        }
        empty |= dims[k] == 0;
    }
    if (empty)
        return 0;       /* an empty tensor, whatever its other dims */
    uint64_t n = 1;
    for (int32_t k = 0; k < rank; k++) {
        if (n > (UINT64_MAX / 8) / (uint64_t)dims[k]) {
            *why = xstrdup("their volume does not fit 64 bits");
            return 0;
        }
        n *= (uint64_t)dims[k];
    }
    return (n * bits + 7) / 8;
}

/* Which cell of `a` holds src `src` and dst `dst` bytes, or -1 with *why
 * set. */
static int cell_for(const arena *a, const rcase *c, uint64_t dst, char **why)
{
    if (c->infer_only || c->payload_bytes == UINT64_MAX) {
        *why = xstrdup("the case runs infer only");
        return -1;
    }
    if (c->payload_bytes <= ARENA_SMALL_AREA && dst <= ARENA_SMALL_AREA)
        return 0;
    const cell *big = &a->cells[ARENA_BIG];
    if (c->payload_bytes <= big->src_size && dst <= big->dst_size)
        return ARENA_BIG;
    *why = xasprintf("a dst of %llu bytes is more than this run stages (%zu bytes: its largest "
                     "payload, within --max-bytes)", (unsigned long long)dst, big->dst_size);
    return -1;
}

/* Merges the follow-up's result `fu` into the infer entry `r`. */
static void merge(result *r, const result *fu, const char *dims)
{
    char *detail;
    if (verdict_counts_against(fu->vd) && fu->vd != VD_ACCEPTED_INVALID) {
        detail = xasprintf("execute into the dims infer_shape returned, %s: %s; infer_shape %s",
                           dims, fu->detail, r->detail);
        char *got = xasprintf("%s, then %s", r->got, fu->got ? fu->got : "");
        free(r->got);
        r->got = got;
        r->vd = fu->vd;
    } else if (fu->vd == VD_ACCEPTED_INVALID) {
        detail = xasprintf("%s; execute into the dims it returned, %s, returned OK too", r->detail,
                           dims);
    } else if (fu->vd == VD_NOT_SUPPORTED) {
        detail = xasprintf("%s; execute into the dims it returned, %s: %s", r->detail, dims,
                           fu->detail);
    } else {
        detail = xasprintf("%s; execute into the dims it returned, %s, returned %s", r->detail,
                           dims, fu->got ? fu->got : "an error");
    }
    free(r->detail);
    r->detail = detail;
}

void followup_run(engine *e, int i, stage *stages, const case_set *set, const followup *f,
                  int timeout_ms, uint64_t seed, result *r)
{
    const rcase *c = &set->cases[f->case_index];
    strbuf b;
    sb_init(&b);
    sb_add_dims(&b, f->rank, f->dims);
    char *dims = sb_take(&b), *why = NULL;
    arena *a = engine_arena(e, i);
    uint64_t bytes = dst_bytes(f->rank, f->dims, reshape_dtype_bits(c->dtype), &why);
    int ci = why ? -1 : cell_for(a, c, bytes, &why);
    if (ci < 0) {
        char *d = xasprintf("%s; execute into the dims it returned, %s, not tried: %s", r->detail,
                            dims, why);
        free(r->detail);
        r->detail = d;
        free(why);
        free(dims);
        return;
    }
    job j = {.v = V_DENSE, .ncases = 1, .cases = {f->case_index}, .seq = f->seq};
    stage *s = &stages[ci];
    stage_job_dst(s, a, &a->cells[ci], set, &j, f->seq | 0x80000000u, seed, f->rank, f->dims);
    char *err = NULL;
    if (engine_submit(e, i, &ci, 1, &err) != 0)
        die(EXIT_HARNESS, "%s", err);
    completion d;
    if (engine_wait_slot(e, i, &d) != 0)
        die(EXIT_HARNESS, "lost track of the workers");
    stage_map_back(s, a);
    result out[WIRE_THREADS];
    int n = judge_job(s, a, &d, 0, timeout_ms, out);
    merge(r, &out[0], dims);
    for (int k = 0; k < n; k++) {
        free(out[k].detail);
        free(out[k].got);
    }
    free(dims);
}
