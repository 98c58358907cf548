/*
 * report_waive.c - the expectations applied to a report's entries after
 * the run, for `merge --expectations` (report.h).  Depends on jansson,
 * expectations.h and job.h.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "report.h"

static int verdict_named(const char *s)
{
    for (int v = 0; v < VD_COUNT; v++)
        if (s && !strcmp(s, verdict_name((verdict)v)))
            return v;
    return -1;
}

void report_waive(json_t *report, expectations *x)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(report, "cases"), i, e) {
        const char *id = json_string_value(json_object_get(e, "id"));
        int v = variant_parse(json_string_value(json_object_get(e, "variant")));
        int vd = verdict_named(json_string_value(json_object_get(e, "verdict")));
        if (!id || v < 0 || vd < 0)
            continue;
        const char *d = json_string_value(json_object_get(e, "detail"));
        result r;
        memset(&r, 0, sizeof r);
        r.v = (variant)v;
        r.vd = (verdict)vd;
        r.detail = xstrdup(d ? d : "");
        const expectation *w = expectations_apply(x, id, &r);
        if (w) {
            json_object_set_new(e, "verdict", json_string(verdict_name(r.vd)));
            json_object_set_new(e, "detail", json_string(r.detail));
            json_object_set_new(e, "waiver", report_waiver_json(w));
        }
        free(r.detail);
    }
}
