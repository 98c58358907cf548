/*
 * test_sandbox_layers.c - each layer of the sandbox is said, present or
 * missing and why, in `run --help`'s sandbox line and in the report's
 * host.sandbox.layers (docs/harness/sandbox.md, "Layers this machine
 * offers"; report/sandbox_layers.h), never skipped in silence: on this
 * machine as it is, and on one made to lack Landlock and every namespace
 * (the LD_PRELOAD shim build/tests/harness_cands/no_namespaces.so), where
 * the missing layers a run uses are warnings on stderr and in the report.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "run_harness.h"

#define SHIM CANDS "no_namespaces.so"

static const char *const layers[] = {"landlock", "seccomp", "observer", "user-namespace",
                                     "network-namespace", "mount-namespace", "uid-drop",
                                     "pids-cgroup"};
#define NLAYERS (sizeof layers / sizeof *layers)

/* The environment that makes the harness load the shim (the sanitized
 * harness then finds its runtime behind it, which it allows so). */
static const char *shim_env(void)
{
    static char env[512];
    char *cwd = getcwd(NULL, 0);
    snprintf(env, sizeof env, "LD_PRELOAD=%s/" SHIM " ASAN_OPTIONS=%s%sverify_asan_link_order=0",
             cwd, getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "",
             getenv("ASAN_OPTIONS") ? ":" : "");
    free(cwd);
    return env;
}

/* `run --help` (in `env`), its sandbox line: from "--sandbox on|off" to
 * the next option.  New string. */
static char *sandbox_line(const char *env)
{
    char out[64];
    temp_template(out, sizeof out, "/tmp/layers-help-");
    int fd = mkstemp(out);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(sh_status("env %s %s run --help >%s 2>&1", env, harness_bin(), out), 0);
    char *text = slurp(out);
    unlink(out);
    char *from = strstr(text, "  --sandbox on|off");
    cr_assert_not_null(from, "%s", text);
    char *to = strstr(from, "\n  --sandbox-allow ");
    cr_assert_not_null(to, "%s", from);
    char *line = strndup(from, (size_t)(to - from));
    free(text);
    /* the wrapping undone: one space for each line break and indent */
    char *w = line;
    for (const char *r = line; *r;) {
        if (*r == '\n') {
            *w++ = ' ';
            while (*++r == ' ')
                ;
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
    return line;
}

/* `line` names layer `name` as present or missing, a missing one with its
 * reason; 1 when present. */
static int said(const char *line, const char *name)
{
    char present[64], missing[64];
    snprintf(present, sizeof present, " %s: present", name);
    snprintf(missing, sizeof missing, " %s: missing", name);
    const char *p = strstr(line, present), *m = strstr(line, missing);
    cr_expect(p || m, "--help's sandbox line does not say whether %s is there: %s", name, line);
    if (m) {
        const char *why = strchr(m + strlen(missing), ':');
        cr_expect(why && strlen(why) > 10, "%s is missing without a reason: %s", name, line);
    }
    return p != NULL;
}

/* The report's layers: every one, in order, each with a detail; returns
 * the array. */
static json_t *report_layers(const run *r)
{
    json_t *sb = json_object_get(json_object_get(r->report, "host"), "sandbox");
    json_t *a = json_object_get(sb, "layers");
    cr_assert_eq(json_array_size(a), NLAYERS, "host.sandbox.layers: %s",
                 json_dumps(sb, JSON_COMPACT));
    for (size_t i = 0; i < NLAYERS; i++) {
        json_t *l = json_array_get(a, i);
        cr_expect_str_eq(json_string_value(json_object_get(l, "layer")), layers[i]);
        cr_expect(json_is_boolean(json_object_get(l, "present")), "%s", layers[i]);
        cr_expect(json_is_boolean(json_object_get(l, "used")), "%s", layers[i]);
        const char *d = json_string_value(json_object_get(l, "detail"));
        cr_expect(d && strlen(d) > 3, "%s has no detail", layers[i]);
    }
    return a;
}

static int present(json_t *layers_a, size_t i)
{
    return json_is_true(json_object_get(json_array_get(layers_a, i), "present"));
}

/* Every missing layer the run uses, but those with words of their own
 * (Landlock, the observer, the uid), is a warning of the report and of
 * stderr. */
static void missing_are_warned(const run *r, json_t *a)
{
    json_t *w = json_object_get(json_object_get(json_object_get(r->report, "host"), "sandbox"),
                                "warnings");
    for (size_t i = 0; i < NLAYERS; i++) {
        json_t *l = json_array_get(a, i);
        if (present(a, i) || !json_is_true(json_object_get(l, "used")) || i == 0 || i == 2 ||
            i == 6)
            continue;
        char want[64];
        snprintf(want, sizeof want, "%s missing: ", layers[i]);
        int found = 0;
        size_t k;
        json_t *s;
        json_array_foreach(w, k, s)
            found |= strncmp(json_string_value(s), want, strlen(want)) == 0;
        cr_expect(found, "the report's warnings do not say '%s'", want);
        char err[80];
        snprintf(err, sizeof err, "sandbox: %s", want);
        cr_expect(strstr(r->err, err), "stderr does not say '%s': %s", err, r->err);
    }
}

Test(sandbox_layers, help_and_the_report_say_each_layer_of_this_machine)
{
    char *line = sandbox_line("");
    int here[NLAYERS];
    for (size_t i = 0; i < NLAYERS; i++)
        here[i] = said(line, layers[i]);
    free(line);
    run r = run_harness("--candidate " CANDS "good.so --cases " BASIC " --quiet");
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert_not_null(r.report);
    json_t *a = report_layers(&r);
    json_t *sb = json_object_get(json_object_get(r.report, "host"), "sandbox");
    /* the report's layers are the ones the workers got */
    cr_expect_eq(present(a, 0), json_integer_value(json_object_get(sb, "landlock_abi")) > 0);
    cr_expect_eq(present(a, 2), json_is_true(json_object_get(sb, "observed")));
    cr_expect_eq(present(a, 4), !strstr(json_string_value(json_object_get(sb, "network")),
                                        "no network namespace"));
    cr_expect_eq(present(a, 6), json_is_true(json_object_get(sb, "root_dropped")) ||
                                    geteuid() != 0);
    /* and, on one machine, what --help found */
    for (size_t i = 0; i < NLAYERS; i++)
        cr_expect_eq(present(a, i), here[i], "%s: --help says %s, the report %s", layers[i],
                     here[i] ? "present" : "missing", present(a, i) ? "present" : "missing");
    missing_are_warned(&r, a);
    run_free(&r);
}

Test(sandbox_layers, a_machine_without_landlock_or_namespaces_is_said_to_lack_them)
{
    char *line = sandbox_line(shim_env());
    cr_expect(!said(line, "landlock"), "%s", line);
    cr_expect(strstr(line, "landlock: missing: landlock_create_ruleset: Function not "
                           "implemented"), "%s", line);
    cr_expect(!said(line, "network-namespace"), "%s", line);
    cr_expect(strstr(line, "network-namespace: missing: unshare: Operation not permitted"),
              "%s", line);
    cr_expect(!said(line, "mount-namespace"), "%s", line);
    cr_expect(!said(line, "user-namespace"), "%s", line);
    cr_expect(said(line, "seccomp"), "%s", line);
    said(line, "observer");
    said(line, "uid-drop");
    said(line, "pids-cgroup");
    free(line);
    char *bin = strdup(harness_bin()), cmd[640];
    snprintf(cmd, sizeof cmd, "%s %s", shim_env(), bin);
    setenv("HARNESS_BIN", cmd, 1);
    run r = run_harness("--candidate " CANDS "good.so --cases " BASIC " --quiet");
    setenv("HARNESS_BIN", bin, 1);
    free(bin);
    cr_expect_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert_not_null(r.report, "%s", r.err);
    json_t *a = report_layers(&r);
    cr_expect(!present(a, 0) && !present(a, 4) && !present(a, 5), "%s",
              json_dumps(a, JSON_COMPACT));
    missing_are_warned(&r, a);
    cr_expect(strstr(r.err, "sandbox: network-namespace missing: unshare: Operation not "
                            "permitted"), "%s", r.err);
    run_free(&r);
}
