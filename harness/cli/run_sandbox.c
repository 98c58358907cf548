/*
 * run_sandbox.c - a run's sandbox and ground (run_sandbox.h).  Depends on
 * engine.h (the policy, the observer's summary), ground.h, report.h
 * (sandbox_layers.h: the layers this machine offers),
 * options.h, jansson.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "run_sandbox.h"

/* The policy whose scratch folder an exit (die) must remove, and the
 * process that made it (a forked worker inherits the handler). */
static sandbox_policy *live;
static pid_t live_pid;

static void remove_live(void)
{
    /* Only the folder: the observer's thread may still be judging a
     * worker's call against the policy while the harness exits (a run that
     * dies after its workers started, as a refused --resume does). */
    if (live && getpid() == live_pid)
        sandbox_policy_clean(live);
}

sandbox_policy *run_sandbox_policy(const char *candidate, const sandbox_spec *spec)
{
    sandbox_layer layers[SANDBOX_LAYERS];
    sandbox_layers_probe(layers);   /* now, while the harness has one thread */
    sandbox_policy *p = xcalloc(1, sizeof *p);
    char *err = NULL;
    if (sandbox_policy_make(p, candidate, spec, &err) != 0)
        die(EXIT_HARNESS, "%s", err);
    static int registered;
    if (!registered++)
        atexit(remove_live);
    live = p;
    live_pid = getpid();
    if (p->drop_note && p->drop == SANDBOX_DROP_NONE)
        warn("sandbox: the workers keep uid 0: %s; Landlock alone keeps them to their files",
             p->drop_note);
    return p;
}

sandbox_policy *run_sandbox_start(const run_options *o, const char *candidate)
{
    if (!o->sandbox || o->iso == ISO_NONE)
        return NULL;
    const char **deny = xcalloc((size_t)(o->ncases + o->nsandbox_deny + 8), sizeof *deny);
    int n = 0;
    for (int i = 0; i < o->ncases; i++)
        deny[n++] = o->cases[i];
    const char *single[] = {o->expectations, o->baseline, o->json, o->junit, o->report_dir,
                            o->journal, o->resume};
    for (size_t i = 0; i < sizeof single / sizeof *single; i++)
        if (single[i])
            deny[n++] = single[i];
    for (int i = 0; i < o->nsandbox_deny; i++)
        deny[n++] = o->sandbox_deny[i];
    sandbox_spec spec = {o->sandbox_allow, o->nsandbox_allow, o->sandbox_write,
                         o->nsandbox_write, deny, n, o->sandbox_scratch_mb << 20};
    sandbox_policy *p = run_sandbox_policy(candidate, &spec);
    free(deny);
    return p;
}

static const char *network_words(int netns)
{
    return netns == 1 ? "a network namespace of its own"
           : netns == 2 ? "a user and network namespace of its own"
                        : "local sockets only (no network namespace)";
}

/* The missing layers, as warnings into `list` and on stderr. */
static void missing_layers(json_t *list, const sandbox_summary *s)
{
    char *w[3] = {NULL, NULL, NULL};
    if (s->facts.landlock_abi == 0)
        w[0] = xasprintf("this kernel has no Landlock (too old, or not in its LSM list): the "
                         "workers can read and change every file uid %u can", s->facts.uid);
    else if (s->facts.landlock_abi < 3)
        w[0] = xasprintf("Landlock ABI %d: truncate(2) is not confined (ABI 3, Linux 6.2)",
                         s->facts.landlock_abi);
    if (!s->facts.observed)
        w[1] = xstrdup("this kernel cannot hand calls to an observer (seccomp user "
                       "notification, Linux 5.5): refused acts are not reported");
    if (s->facts.netns == 0 && s->facts.landlock_abi < 6)
        w[2] = xstrdup("no network namespace and Landlock below ABI 6: abstract Unix sockets "
                       "outside the worker can be reached");
    for (int i = 0; i < 3; i++) {
        if (!w[i])
            continue;
        warn("sandbox: %s", w[i]);
        json_array_append_new(list, json_string(w[i]));
        free(w[i]);
    }
}

/* Layer `l` as the workers got it (`got`), where that differs from what
 * the probe found; detail as printf's. */
static void got(sandbox_layer *l, int got, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void got(sandbox_layer *l, int got, const char *fmt, ...)
{
    if (!got == !l->present)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->detail, sizeof l->detail, fmt, ap);
    va_end(ap);
    l->present = got;
}

/* The layers: the probe's, corrected by what a confined process said it
 * got (`s`, when known), as a JSON array; the missing ones a run uses that
 * missing_layers does not name go into `warnings` and onto stderr. */
static json_t *layers_json(const sandbox_summary *s, const sandbox_policy *p, json_t *warnings)
{
    sandbox_layer l[SANDBOX_LAYERS];
    sandbox_layers_probe(l);
    const sandbox_facts *f = &s->facts;
    if (s->known) {
        got(&l[SANDBOX_LAYER_LANDLOCK], f->landlock_abi > 0, f->landlock_abi > 0 ? "ABI %d"
            : "the workers got none (ABI %d), though the harness's probe found it",
            f->landlock_abi);
        got(&l[SANDBOX_LAYER_OBSERVER], f->observed, "%s", f->observed
            ? "the harness sees the workers' calls" : "the workers' calls were not handed to "
            "the harness, though its probe found the means: refused acts are not reported");
        got(&l[SANDBOX_LAYER_NETNS], f->netns > 0, "%s", f->netns > 0
            ? "a network namespace of the workers' own" : "the workers got none: socket() of "
            "every family but AF_UNIX and AF_NETLINK is refused instead");
        got(&l[SANDBOX_LAYER_MOUNTNS], f->scratch_tmpfs == 1 || !p->scratch_bytes, "%s",
            f->scratch_tmpfs == 1 ? "a tmpfs on the workers' scratch folder" : "the workers got "
            "no tmpfs: the scratch folder is the one on the disk, its size unbounded");
        got(&l[SANDBOX_LAYER_UID], f->dropped != SANDBOX_DROP_NONE || geteuid() != 0,
            "the workers run as uid %u", f->uid);
    }
    if (!p->scratch_bytes) {
        l[SANDBOX_LAYER_MOUNTNS].used = 0;
        snprintf(l[SANDBOX_LAYER_MOUNTNS].detail, sizeof l[SANDBOX_LAYER_MOUNTNS].detail,
                 "--sandbox-scratch-mb 0: the scratch folder is the one on the disk");
    }
    json_t *a = json_array();
    for (int i = 0; i < SANDBOX_LAYERS; i++) {
        json_array_append_new(a, json_pack("{s:s, s:b, s:b, s:s}", "layer", l[i].name,
                                           "present", l[i].present, "used", l[i].used,
                                           "detail", l[i].detail));
        /* Landlock, the observer and the uid have their own words */
        if (l[i].present || !l[i].used || i == SANDBOX_LAYER_LANDLOCK ||
            i == SANDBOX_LAYER_OBSERVER || i == SANDBOX_LAYER_UID)
            continue;
        warn("sandbox: %s missing: %s", l[i].name, l[i].detail);
        json_array_append_new(warnings, json_sprintf("%s missing: %s", l[i].name,
                                                     l[i].detail));
    }
    return a;
}

json_t *run_sandbox_json(const sandbox_summary *seen, const sandbox_policy *p)
{
    if (!p || !seen)
        return json_pack("{s:b}", "enabled", 0);
    sandbox_summary s = *seen;
    json_t *warnings = json_array(), *acts = json_array();
    if (p->drop_note)
        json_array_append_new(warnings, json_sprintf("%s%s", p->drop == SANDBOX_DROP_NONE
                                                     ? "the workers keep uid 0: " : "",
                                                     p->drop_note));
    if (s.known)
        missing_layers(warnings, &s);
    json_t *layers = layers_json(&s, p, warnings);
    for (int i = 0; i < s.nnotes; i++)
        json_array_append_new(acts, json_string(s.notes[i]));
    if (s.nnotes)
        warn("sandbox: refused %d act%s that stopped no worker (the calls failed): %s%s",
             s.nnotes, s.nnotes == 1 ? "" : "s", s.notes[0],
             s.nnotes > 1 ? "; the report lists them" : "");
    return json_pack("{s:b, s:i, s:s, s:I, s:b, s:b, s:o, s:b, s:o, s:o}", "enabled", 1,
                     "landlock_abi", s.facts.landlock_abi, "network", network_words(s.facts.netns),
                     "uid", (json_int_t)s.facts.uid, "root_dropped",
                     s.facts.dropped != SANDBOX_DROP_NONE, "observed", s.facts.observed,
                     "refused_acts", acts, "refused_acts_cut", s.more_notes,
                     "warnings", warnings, "layers", layers);
}

void run_sandbox_end(sandbox_policy *p)
{
    if (!p)
        return;
    if (p == live)
        live = NULL;
    sandbox_policy_free(p);
    free(p);
}

void run_ground_start(ground *g, const run_options *o, const case_set *set,
                      const char *candidate)
{
    memset(g, 0, sizeof *g);
    for (int i = 0; i < set->nfiles; i++)
        ground_add(g, set->files[i]);
    for (int i = 0; i < o->ncases; i++) {
        struct stat st;
        if (stat(o->cases[i], &st) == 0 && S_ISDIR(st.st_mode))
            ground_add_dir(g, o->cases[i]);
    }
    ground_add(g, candidate);
    char ref[PATH_MAX], exe[PATH_MAX];
    if (realpath(options_default_candidate(), ref))
        ground_add(g, ref);
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        ground_add(g, exe);
    }
    char *worker = engine_worker_exe();     /* the zygotes' program */
    if (strcmp(worker, "/proc/self/exe"))
        ground_add(g, worker);
    free(worker);
    if (o->expectations && !o->update_expectations)     /* the run rewrites it */
        ground_add(g, o->expectations);
    if (o->baseline)
        ground_add(g, o->baseline);
}

int run_ground_check(ground *g)
{
    char *change = ground_changed(g);
    ground_free(g);
    if (!change)
        return EXIT_CONFORMANT;
    fprintf(stderr, "reshape-conform: %s: the run's verdicts cannot be trusted\n", change);
    free(change);
    return EXIT_HARNESS;
}
