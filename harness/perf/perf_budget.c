/*
 * perf_budget.c - which points a profile with a budget for the whole of
 * it can afford (perf.h, perf_budget_pick): the cost of a point measured
 * early, then an evenly spread subset of the rest.  Depends on perf.h,
 * perf_int.h (point_json), util.h, jansson.
 */
#include <math.h>
#include <stdlib.h>

#include "base/base.h"
#include "perf.h"
#include "perf_int.h"

/* The golden ratio's fractional part: (sqrt(5) - 1) / 2. */
#define PERF_GOLDEN 0.6180339887498949

int perf_budget_pick(const perf_budget *b, int i, int left, double now_s)
{
    if (b->deadline_s <= 0)
        return 1;
    double time_left = b->deadline_s - b->reserve_s - now_s;
    if (time_left <= 0)
        return 0;
    if (b->measured < PERF_BUDGET_SAMPLE || b->spent_s <= 0)
        return 1;
    double share = time_left / (b->spent_s / b->measured) / (left > 0 ? left : 1);
    if (share >= 1)
        return 1;
    double x = (double)(i + 1) * PERF_GOLDEN;
    return x - floor(x) < share;
}

void perf_budget_spent(perf_budget *b, double seconds)
{
    b->spent_s += seconds > 0 ? seconds : 0;
    b->measured++;
}

json_t *perf_left_out_point(const perf_point *p, double budget_s)
{
    json_t *o = point_json(p);
    char *why = xasprintf("not run: the profile's budget of %g s (--budget) does not afford it; "
                          "an evenly spread subset of the points was measured", budget_s);
    json_object_set_new(o, "status", json_string("LEFT_OUT"));
    json_object_set_new(o, "detail", json_string(why));
    free(why);
    return o;
}
