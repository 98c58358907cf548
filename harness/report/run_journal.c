/*
 * run_journal.c - a run's journal: creating it, resuming from it
 * (run_journal.h).  Depends on jansson, journal.h, report.h, util.h.
 */
#include "run_journal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "report.h"

char **run_journal_load(journal *j, const char *path, int *argc)
{
    char *err = NULL;
    if (journal_load(j, path, &err))
        die(EXIT_USAGE, "%s", err);
    if (j->torn_line)
        warn("%s:%d: torn last line (%zu bytes, the harness was killed while writing it) "
             "ignored: its results run again", path, j->torn_line, j->torn_bytes);
    json_t *a = json_object_get(json_object_get(j->header, "options"), "argv");
    size_t n = json_array_size(a);
    char **argv = xcalloc(n + 1, sizeof *argv);
    for (size_t i = 0; i < n; i++)
        argv[i] = (char *)json_string_value(json_array_get(a, i));
    *argc = (int)n;
    return argv;
}

void run_journal_check_options(const journal *j, const run_options *given)
{
    json_t *mine = report_options_json(given);
    free(given->cases);         /* the command line's lists: the journal's replace them */
    free(given->tags);
    free(given->op_names);
    json_t *theirs = json_object_get(j->header, "options");
    const char *key;
    json_t *v;
    json_object_foreach(mine, key, v) {
        if (!strcmp(key, "argv") || json_equal(v, json_object_get(theirs, key)))
            continue;
        char *a = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        char *b = json_dumps(json_object_get(theirs, key), JSON_ENCODE_ANY | JSON_COMPACT);
        die(EXIT_USAGE, "cannot resume: option '%s' is %s here but %s in the journal; "
            "give '--resume JOURNAL' alone to take the journal's options", key, a,
            b ? b : "absent");
    }
    json_decref(mine);
}

char **run_journal_resume_options(run_options *o, journal *j,
                                  void (*parse)(run_options *, int, char **))
{
    run_options given = *o;
    int argc;
    char **argv = run_journal_load(j, given.resume, &argc);
    if (given.nsettings) {
        run_journal_check_options(j, &given);
    } else {
        free(given.cases);
        free(given.tags);
        free(given.op_names);
    }
    options_defaults(o, argc, argv);
    parse(o, argc, argv);
    o->resume = given.resume;
    o->quiet = given.quiet;
    o->verbose = given.verbose;
    return argv;
}

/* Checks the header's digests against this run's; exits 2 otherwise. */
static void check_header(const journal *j, const char *path, const char *cand_sha,
                         const char *cases_sha)
{
    const char *c = json_string_value(json_object_get(j->header, "candidate_sha256"));
    const char *s = json_string_value(json_object_get(j->header, "cases_sha256"));
    if (strcmp(c, cand_sha))
        die(EXIT_USAGE, "cannot resume from '%s': it was written for another candidate file "
            "(sha256 %s, this one is %s)", path, c, cand_sha);
    if (strcmp(s, cases_sha))
        die(EXIT_USAGE, "cannot resume from '%s': it was written for other case files "
            "(cases_sha256 %s, these are %s)", path, s, cases_sha);
}

/* Takes the journal's results for the jobs they complete; drops those
 * jobs from jobs[0..*njobs). */
static void take_done(run_journal *rj, const journal *j, const case_set *set, job *jobs,
                      int *njobs)
{
    json_t *last = json_object();     /* "id/variant" -> index of its last entry */
    for (int i = 0; i < j->n; i++) {
        char *key = xasprintf("%s/%s", j->e[i].id, variant_name(j->e[i].v));
        json_object_set_new(last, key, json_integer(i));
        free(key);
    }
    rj->pre = xmalloc(sizeof *rj->pre * (size_t)(j->n ? j->n : 1));
    int kept = 0;
    for (int k = 0; k < *njobs; k++) {
        const job *jb = &jobs[k];
        int idx[WIRE_THREADS], n = 0, done = 1;
        for (int t = 0; t < jb->ncases && done; t++) {
            int dup = 0;
            for (int u = 0; u < t; u++)
                dup |= jb->cases[u] == jb->cases[t];
            if (dup)
                continue;
            char *key = xasprintf("%s/%s", set->cases[jb->cases[t]].id, variant_name(jb->v));
            json_t *at = json_object_get(last, key);
            free(key);
            if (at)
                idx[n++] = (int)json_integer_value(at);
            else
                done = 0;
        }
        if (!done) {
            jobs[kept++] = *jb;
            continue;
        }
        for (int t = 0, m = 0; t < jb->ncases; t++) {
            int dup = 0;
            for (int u = 0; u < t; u++)
                dup |= jb->cases[u] == jb->cases[t];
            if (dup)
                continue;
            const journal_entry *e = &j->e[idx[m++]];
            rj->pre[rj->npre++] = (result){jb->cases[t], e->v, e->vd, xstrdup(e->detail),
                                           xstrdup(e->got), e->status_agrees};
        }
    }
    *njobs = kept;
    json_decref(last);
}

void run_journal_open(run_journal *rj, const run_options *o, const journal *resumed,
                      const char *candidate_sha256, const case_set *set,
                      const char *started_utc, job *jobs, int *njobs)
{
    memset(rj, 0, sizeof *rj);
    char *err = NULL;
    if (resumed) {
        check_header(resumed, o->resume, candidate_sha256, set->cases_sha256);
        take_done(rj, resumed, set, jobs, njobs);
        rj->path = xstrdup(o->resume);
        rj->remove_after = !o->journal;
        rj->w = journal_reopen(rj->path, resumed->good_len, &err);
    } else if (o->journal || o->report_dir) {
        rj->path = o->journal ? xstrdup(o->journal)
                              : path_join(o->report_dir, "journal.jsonl");
        rj->remove_after = !o->journal;
        json_t *h = journal_header(o, candidate_sha256, set->cases_sha256, started_utc);
        rj->w = journal_create(rj->path, h, &err);
        json_decref(h);
    } else {
        return;
    }
    if (!rj->w)
        die(EXIT_HARNESS, "%s", err);
}

void run_journal_finish(run_journal *rj)
{
    if (rj->w) {
        int lost = journal_close(rj->w);
        if (rj->remove_after && !lost)
            unlink(rj->path);
    }
    free(rj->path);
    free(rj->pre);
    memset(rj, 0, sizeof *rj);
}
