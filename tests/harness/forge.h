/*
 * forge.h - what the forgery tests (test_forgery.c, test_signature.c)
 * share: a test candidate's bundle (certified once per run, fixtures.h)
 * in a folder of its own, read with libarchive (bundle.c), edit members as a forger with this
 * repository would (the report with jansson, the views rendered again with
 * report_write_junit and reports/render.py), recompute the manifest, write
 * the archive again and run `verify` on it.  Included by those test files
 * only; the tests run from the repository root.
 */
#ifndef TESTS_HARNESS_FORGE_H
#define TESTS_HARNESS_FORGE_H

#include "fixtures.h"
#include "run_harness.h"

#include "report/report.h"
#include "cert/cert.h"

typedef struct forge {
    char dir[64];
    char path[192];     /* the bundle certify wrote */
    char forged[192];   /* where forge_write puts the edited one */
    int code;           /* certify's exit status */
    bundle b;
} forge;

/* A new folder for `f`, and the paths in it. */
static inline void forge_init(forge *f)
{
    memset(f, 0, sizeof *f);
    temp_template(f->dir, sizeof f->dir, "/tmp/harness-forge-");
    cr_assert(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/out/harness-test-1.tar.gz", f->dir);
    snprintf(f->forged, sizeof f->forged, "%s/forged.tar.gz", f->dir);
}

/* The bundle certify writes for CANDS/`cand`.so over `cases` (certified
 * once per run of the tests, fixtures.h), copied into a new folder and
 * read into f->b. */
static inline void forge_certify(forge *f, const char *cand, const char *cases)
{
    forge_init(f);
    f->code = shared_certify(cand, cases, f->dir);
    cr_assert(f->code <= 1, "certify exited %d", f->code);
    char *err = NULL;
    cr_assert_eq(bundle_read(&f->b, f->path, &err), 0, "%s", err);
}

static inline void forge_free(forge *f)
{
    bundle_free(&f->b);
    sh_status("rm -rf %s", f->dir);
}

static inline json_t *member(const bundle *b, const char *name)
{
    const bundle_member *m = bundle_get(b, name);
    cr_assert(m, "no %s", name);
    json_t *j = json_loadb((const char *)m->data, m->size, 0, NULL);
    cr_assert(j, "%s is no json", name);
    return j;
}

/* Replaces member `name` with `j` as certify writes it; takes `j`. */
static inline void put(bundle *b, const char *name, json_t *j)
{
    char *text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    bundle_add(b, name, text, strlen(text));
    free(text);
    json_decref(j);
}

/*
 * The thorough forger: `report` (taken) becomes report.json, report.xml,
 * report.md and report.html are rendered from it as `run` renders them,
 * and the manifest is recomputed.  A signature is left as it was.
 */
static inline void put_report(forge *f, json_t *report)
{
    char path[128];
    char *err = NULL;
    snprintf(path, sizeof path, "%s/report.xml", f->dir);
    cr_assert_eq(report_write_junit(report, path, &err), 0);
    cr_assert_eq(bundle_add_file(&f->b, "report.xml", path), 0);
    put(&f->b, "report.json", report);
    const bundle_member *m = bundle_get(&f->b, "report.json");
    snprintf(path, sizeof path, "%s/report.json", f->dir);
    FILE *out = fopen(path, "wb");
    cr_assert(out && fwrite(m->data, 1, m->size, out) == m->size && fclose(out) == 0);
    cr_assert_eq(sh_status("/usr/bin/python3 reports/render.py %s --out %s", path, f->dir), 0);
    static const char *const views[] = {"report.md", "report.html"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", f->dir, views[i]);
        cr_assert_eq(bundle_add_file(&f->b, views[i], path), 0);
    }
}

/* The manifest recomputed, and the bundle written to f->forged. */
static inline void forge_write(forge *f)
{
    char *m = bundle_manifest(&f->b), *err = NULL;
    bundle_add(&f->b, BUNDLE_MANIFEST, m, strlen(m));
    free(m);
    cr_assert_eq(bundle_write(&f->b, f->forged, 0, &err), 0, "%s", err);
}

/* Removes member `name` (when there). */
static inline void drop(bundle *b, const char *name)
{
    for (int i = 0; i < b->n; i++)
        if (!strcmp(b->m[i].name, name)) {
            free(b->m[i].name);
            free(b->m[i].data);
            b->m[i] = b->m[--b->n];
            return;
        }
}

/* `verify PATH ARGS`: exit status, stdout and stderr into *out. */
static inline int verify(const char *path, const char *args, char **out)
{
    char log[64];
    temp_template(log, sizeof log, "/tmp/harness-forge-v-");
    int fd = mkstemp(log);
    cr_assert(fd >= 0);
    close(fd);
    int code = sh_status("%s verify %s %s >%s 2>&1", harness_bin(), path, args, log);
    *out = slurp(log);
    unlink(log);
    return code;
}

/* Every "verdict" of the report's entries that is `from` becomes `to`,
 * with the detail and got a pass has. */
static inline void set_verdicts(json_t *report, const char *from, const char *to)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(report, "cases"), i, e)
        if (!strcmp(json_string_value(json_object_get(e, "verdict")), from)) {
            json_object_set_new(e, "verdict", json_string(to));
            json_object_set_new(e, "detail", json_string(""));
            json_object_set(e, "got", json_object_get(e, "expected"));
        }
}

#define HAS(out, s) cr_expect(strstr(out, s), "no '%s' in:\n%s", s, out)

#endif
