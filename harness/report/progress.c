/*
 * progress.c - progress and result lines (progress.h).  Depends on stdio
 * and POSIX isatty.
 */
#include "progress.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "run/run.h"

static const char *color_of(verdict v)
{
    if (v == VD_PASS)
        return "\033[32m";
    if (v == VD_NOT_SUPPORTED || v == VD_WAIVED)
        return "\033[33m";
    return "\033[31m";
}

void progress_init(progress *p, long total, int quiet, int verbose)
{
    memset(p, 0, sizeof *p);
    const char *nc = getenv("NO_COLOR");
    p->quiet = quiet;
    p->verbose = verbose;
    p->live = !quiet && isatty(2);
    p->color = isatty(1) && !(nc && *nc);
    p->total = total;
    p->start = p->last = now_s();
}

static void clear_live(progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        p->shown = 0;
    }
}

static void draw(progress *p, double now)
{
    double el = now - p->start, rate = el > 0 ? (double)p->done / el : 0;
    double eta = rate > 0 ? (double)(p->total - p->done) / rate : 0;
    char counts[256] = "";
    size_t n = 0;
    for (int v = 0; v < VD_COUNT && n < sizeof counts - 40; v++)
        if (p->counts[v])
            n += (size_t)snprintf(counts + n, sizeof counts - n, " %ld %s", p->counts[v],
                                  verdict_name((verdict)v));
    if (p->live) {
        fprintf(stderr, "\r\033[K%ld/%ld  %.0f/s %s  eta %.0f s", p->done, p->total, rate, counts,
                eta);
        p->shown = 1;
    } else {
        fprintf(stderr, "progress: %ld/%ld, %.0f/s,%s, eta %.0f s\n", p->done, p->total, rate,
                counts, eta);
    }
    fflush(stderr);
}

void progress_result(progress *p, const rcase *c, const result *r)
{
    p->done++;
    p->counts[r->vd]++;
    if (r->detail && strstr(r->detail, SCHEDULE_RERUN_NOTE)) {
        p->rerun++;
        p->confirmed += r->vd == VD_TIMEOUT;
    }
    if (p->verbose && r->vd != VD_PASS) {
        clear_live(p);
        const char *on = p->color ? color_of(r->vd) : "", *off = p->color ? "\033[0m" : "";
        printf("%s%s%s %s/%s: %s [%s:%d]\n", on, verdict_name(r->vd), off, c->id,
               variant_name(r->v), r->detail && *r->detail ? r->detail : "-", c->file, c->line);
        fflush(stdout);
    }
    if (p->quiet)
        return;
    double now = now_s();
    if ((p->live && now - p->last >= 0.1) || (!p->live && now - p->last >= 5.0)) {
        p->last = now;
        draw(p, now);
    }
}

void progress_finish(progress *p, double el, long ncases, int load_errors,
                     const char *verdict_word)
{
    clear_live(p);
    printf("%s: %ld runs of %ld cases in %.2f s (%.0f/s):", verdict_word, p->done, ncases, el,
           el > 0 ? (double)p->done / el : 0.0);
    int first = 1;
    for (int v = 0; v < VD_COUNT; v++)
        if (p->counts[v]) {
            printf("%s %ld %s", first ? "" : ",", p->counts[v], verdict_name((verdict)v));
            first = 0;
        }
    if (first)
        printf(" nothing ran");
    if (p->rerun)
        printf("; %ld ran again with the full budget after the adaptive one ran out: %ld "
               "TIMEOUT confirmed, %ld not", p->rerun, p->confirmed, p->rerun - p->confirmed);
    if (load_errors)
        printf("; %d load error%s", load_errors, load_errors == 1 ? "" : "s");
    printf("\n");
    fflush(stdout);
}
