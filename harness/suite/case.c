/*
 * case.c - the case model's own operations (case.h): recording a load
 * error in a case set, and describing and querying a case's expected
 * outcomes.  Both case_load.c and case_set.c use it, and it uses neither:
 * with it the files of the suite call one another in a line (case_set.c
 * -> case_load.c -> case.c), never in a circle.  Depends on base/ and libc.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "base/base.h"
#include "case.h"

void case_set_error(case_set *set, const char *file, int line, int column, const char *fmt, ...)
{
    strbuf b;
    va_list ap;
    sb_init(&b);
    va_start(ap, fmt);
    sb_vaddf(&b, fmt, ap);
    va_end(ap);
    set->errors = xrealloc(set->errors, (size_t)(set->nerrors + 1) * sizeof *set->errors);
    set->errors[set->nerrors++] = (load_error){xstrdup(file), line, column, b.s};
}

char *outcome_describe(const outcome *o)
{
    strbuf b;
    sb_init(&b);
    if (o->is_error) {
        sb_addf(&b, "error %s", reshape_status_name(o->error));
    } else {
        sb_addf(&b, "shape ");
        sb_add_dims(&b, o->rank, o->dims);
    }
    return sb_take(&b);
}

char *case_expected_describe(const rcase *c)
{
    if (c->noutcomes == 1 && !c->any_of)
        return outcome_describe(&c->outcomes[0]);
    strbuf b;
    sb_init(&b);
    sb_addf(&b, "any of: ");
    for (int i = 0; i < c->noutcomes; i++) {
        char *d = outcome_describe(&c->outcomes[i]);
        sb_addf(&b, i ? ", %s" : "%s", d);
        free(d);
    }
    return sb_take(&b);
}

int case_first_success(const rcase *c)
{
    for (int i = 0; i < c->noutcomes; i++)
        if (!c->outcomes[i].is_error)
            return i;
    return -1;
}

int case_expects_error_only(const rcase *c)
{
    return case_first_success(c) < 0;
}

int case_has_layout(const rcase *c)
{
    return c->src_layout.strided || c->dst_layout.strided || c->dst_has_dims || c->in_place;
}
