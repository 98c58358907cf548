/*
 * deadline.c - the adaptive timeout rule (deadline.h).
 */
#include "deadline.h"

static int op_index(int op)
{
    return op < 0 ? 0 : op >= DEADLINE_OPS ? DEADLINE_OPS - 1 : op;
}

static int phase_index(int phase)
{
    return phase < 0 ? 0 : phase >= DEADLINE_PHASES ? DEADLINE_PHASES - 1 : phase;
}

void deadline_init(deadline *d, int timeout_ms)
{
    *d = (deadline){.full_ns = (int64_t)timeout_ms * 1000000};
}

void deadline_describe(deadline_req *r, int op, int special_zero, size_t bytes, long calls)
{
    r->op = op_index(op);
    r->special_zero = special_zero != 0;
    double ns = (double)DEADLINE_FLOOR_MS * 1e6 +
                (double)DEADLINE_NS_PER_BYTE * (double)bytes * (double)(calls < 1 ? 1 : calls);
    r->short_ns = ns > 9e18 ? INT64_MAX : (int64_t)ns;
    r->own_ns = 0;
}

/* a + b, at most INT64_MAX (both >= 0) */
static int64_t sum(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

int64_t deadline_full_ns(const deadline *d, const deadline_req *r)
{
    return sum(d->full_ns, r->own_ns);
}

/* The short budget of `r` with its own time, at most its full one. */
static int64_t short_of(const deadline *d, const deadline_req *r)
{
    int64_t s = sum(r->short_ns, r->own_ns), full = deadline_full_ns(d, r);
    return s < full ? s : full;
}

static int struck(const deadline *d, const deadline_req *r, int phase)
{
    return __atomic_load_n(&d->timeouts[r->op][r->special_zero][phase_index(phase)],
                           __ATOMIC_RELAXED) >= DEADLINE_STRIKES;
}

int64_t deadline_budget_ns(const deadline *d, const deadline_req *r, int phase,
                           int64_t elapsed_ns)
{
    int64_t full = deadline_full_ns(d, r), s = short_of(d, r);
    if (s == full)
        return s;
    if (struck(d, r, phase))
        return s;
    int any = 0;
    for (int p = 0; p < DEADLINE_PHASES; p++)
        any |= struck(d, r, p);
    if (!any)
        return full;
    if (elapsed_ns < s)
        return s;
    /* in another phase now: look again a short budget later, in case it
     * moves on into a struck one; the full budget still ends it */
    int64_t again = sum(elapsed_ns, s);
    return again < full ? again : full;
}

int64_t deadline_first_look_ns(const deadline *d, const deadline_req *r)
{
    int64_t full = deadline_full_ns(d, r);
    if (short_of(d, r) >= full)
        return INT64_MAX;
    for (int p = 0; p < DEADLINE_PHASES; p++)
        if (struck(d, r, p))
            return INT64_MAX;
    int64_t bytes_ns = r->short_ns - (int64_t)DEADLINE_FLOOR_MS * 1000000;
    int64_t look = sum(sum((int64_t)DEADLINE_FIRST_LOOK_MS * 1000000, bytes_ns), r->own_ns);
    return look < full ? look : INT64_MAX;
}

int64_t deadline_recheck_ns(const deadline *d, const deadline_req *r, int n)
{
    int64_t look = n < 1 ? d->full_ns : INT64_MAX;
    for (int k = 0; k < n; k++) {
        int64_t s = short_of(d, &r[k]);
        look = s < look ? s : look;
    }
    return look;
}

void deadline_timed_out(deadline *d, const deadline_req *r, int phase)
{
    __atomic_add_fetch(&d->timeouts[r->op][r->special_zero][phase_index(phase)], 1,
                       __ATOMIC_RELAXED);
}
