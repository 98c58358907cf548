/*
 * layers_test.c - tests/arch/check_layers.sh on small trees of two layers,
 * `low` below `high` (tests/arch/fixtures/): a tree that keeps its layers
 * passes, and each way of breaking them is caught, with its line.  The
 * call checks run on objects compiled here from the fixture's sources.
 * The trust boundary's checks (-w) run on trees of three, `wire` below
 * `worker` below `engine` (fixtures/boundary_*), with their callers.txt
 * and readers.txt and a worker program linked here from the objects of
 * the layers the case names.
 * Run from the repository root (make test-layers).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../common/rows.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define CHECK "tests/arch/check_layers.sh"
#define FIXTURES "tests/arch/fixtures"
#define MAX_LINES 4

/* Arrays, not pointers: Criterion hands the parameters to the test's own
 * process by copying their bytes. */
struct layer_case {
    char fixture[32];
    int objects;                        /* compile it and pass -o */
    int status;                         /* the script's exit status */
    char lines[MAX_LINES][288];         /* lines it must print, in order;
                                           "@BIN@" is the worker program */
    char layers[32];                    /* "": low high */
    char opts[256];                     /* more options of the script */
    char bin_layers[32];                /* link a worker program of these
                                           layers' objects and pass -b */
};

#define BOUNDARY(f) "-w worker -c " FIXTURES "/" f "/callers.txt -r " FIXTURES "/" f "/readers.txt"

static struct layer_case cases[] = {
    {"good", 1, 0, {"check_layers: " FIXTURES "/good keeps its layers (low high)"}, "", "", ""},
    {"upward", 0, 1,
     {FIXTURES "/upward/low/a.c:2: includes \"high/high.h\" of layer \"high\", above its "
               "own layer \"low\"",
      "check_layers: 1 problem in " FIXTURES "/upward (layers, bottom first: low high)"}, "", "", ""},
    {"private", 0, 1,
     {FIXTURES "/private/high/b.c:4: includes \"low/part.h\", which is not the door of "
               "layer \"low\": include \"low/low.h\""}, "", "", ""},
    {"spelling", 0, 1,
     {FIXTURES "/spelling/high/b.c:2: includes \"high/high.h\" of its own layer with the "
               "folder: write \"high.h\"",
      FIXTURES "/spelling/high/b.c:5: includes \"nowhere.h\", which is neither in high/ "
               "nor an ABI header"}, "", "", ""},
    {"misplaced", 0, 1,
     {FIXTURES "/misplaced/high: layer \"high\" has no door \"high/high.h\"",
      FIXTURES "/misplaced/other/x.c: not in a layer folder (layers: low high)",
      FIXTURES "/misplaced/stray.c: not in a layer folder (layers: low high)",
      "check_layers: 3 problems in " FIXTURES "/misplaced (layers, bottom first: low high)"}, "", "", ""},
    {"include_cycle", 0, 1,
     {"include cycle: " FIXTURES "/include_cycle/low/low.h -> " FIXTURES
      "/include_cycle/low/part.h -> " FIXTURES "/include_cycle/low/low.h"}, "", "", ""},
    {"call_upward", 1, 1,
     {FIXTURES "/call_upward/low/a.c: uses \"high_fn\" of " FIXTURES "/call_upward/high/b.c, "
               "in layer \"high\" above its own layer \"low\""}, "", "", ""},
    {"call_cycle", 1, 1,
     {"call cycle: " FIXTURES "/call_cycle/low/a.c -> " FIXTURES "/call_cycle/low/c.c -> "
      FIXTURES "/call_cycle/low/a.c"}, "", "", ""},
    {"boundary_good", 1, 0,
     {"check_layers: " FIXTURES "/boundary_good keeps its layers (wire worker engine)"},
     "wire worker engine", BOUNDARY("boundary_good"), "wire worker"},
    {"boundary_include", 1, 1,
     {FIXTURES "/boundary_include/engine/host.c:3: includes \"worker/worker.h\", the worker "
               "side's door, from the parent's side: only the files " FIXTURES
               "/boundary_include/callers.txt names may",
      FIXTURES "/boundary_include/engine/host.c: uses \"worker_fn\" of " FIXTURES
               "/boundary_include/worker/serve.c, on the worker side, from the parent's side: "
               "only the files " FIXTURES "/boundary_include/callers.txt names may"},
     "wire worker engine", BOUNDARY("boundary_include"), "wire worker"},
    {"boundary_reader", 1, 1,
     {FIXTURES "/boundary_reader/engine/other.c: reads \"wire_reply\" of the worker protocol, "
               "which only the files " FIXTURES "/boundary_reader/readers.txt names for it may",
      FIXTURES "/boundary_reader/readers.txt:2: " FIXTURES "/boundary_reader/engine/quiet.c "
               "does not read \"wire_reply\": take it off the list",
      "check_layers: 2 problems in " FIXTURES "/boundary_reader (layers, bottom first: wire "
      "worker engine)"},
     "wire worker engine", BOUNDARY("boundary_reader"), "wire worker"},
    {"boundary_binary", 1, 1,
     {"@BIN@: holds " FIXTURES "/boundary_binary/engine/host.c (\"engine_fn\"), an object of "
      "the parent's side (layer \"engine\")",
      "check_layers: 3 problems in " FIXTURES "/boundary_binary (layers, bottom first: wire "
      "worker engine)"},
     "wire worker engine", BOUNDARY("boundary_binary"), "wire worker engine"},
};

static int run(const char *cmd)
{
    int rc = system(cmd);
    cr_assert_neq(rc, -1, "cannot run '%s'", cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

/* Compiles every FIXTURE/LAYER/F.c into DIR/LAYER/F.o. */
static void compile(const char *fixture, const char *dir)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "for c in " FIXTURES "/%s/*/*.c; do l=$(basename $(dirname $c)); "
             "mkdir -p %s/$l && cc -c -I" FIXTURES "/abi -I" FIXTURES "/%s $c "
             "-o %s/$l/$(basename ${c%%.c}).o || exit 1; done",
             fixture, dir, fixture, dir);
    cr_assert_eq(run(cmd), 0, "cannot compile fixture %s", fixture);
}

ParameterizedTestParameters(layers, check)
{
    return cr_make_param_array(struct layer_case, cases, sizeof cases / sizeof *cases);
}

/* Links DIR/worker-bin from the objects of `layers` below OBJ. */
static void link_worker(const char *obj, const char *layers, const char *bin)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "o=; for l in %s; do o=\"$o $(ls %s/$l/*.o)\"; done; cc -o %s $o",
             layers, obj, bin);
    cr_assert_eq(run(cmd), 0, "cannot link a worker program of %s", layers);
}

RowTest(struct layer_case *c, layers, check)
{
    char dir[] = "/tmp/layers-test-XXXXXX", cmd[2048], out[300], bin[300], more[600];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(bin, sizeof bin, "%s/worker-bin", dir);
    const char *layers = c->layers[0] ? c->layers : "low high";
    snprintf(more, sizeof more, "%s", c->opts);
    if (c->objects) {
        char obj[300];
        snprintf(obj, sizeof obj, "%s/obj", dir);
        compile(c->fixture, obj);
        if (c->bin_layers[0]) {
            link_worker(obj, c->bin_layers, bin);
            snprintf(more, sizeof more, "%s -b %s", c->opts, bin);
        }
        snprintf(cmd, sizeof cmd, "sh " CHECK " -I " FIXTURES "/abi -o %s %s " FIXTURES "/%s %s >%s 2>&1",
                 obj, more, c->fixture, layers, out);
    } else {
        snprintf(cmd, sizeof cmd, "sh " CHECK " -I " FIXTURES "/abi %s " FIXTURES "/%s %s >%s 2>&1",
                 more, c->fixture, layers, out);
    }
    int status = run(cmd);

    FILE *f = fopen(out, "r");
    cr_assert_not_null(f);
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    cr_expect_eq(status, c->status, "%s: exit status %d, expected %d; it printed:\n%s",
                 c->fixture, status, c->status, text);
    /* each expected line, whole, after the previous one */
    const char *at = text;
    for (int i = 0; i < MAX_LINES && c->lines[i][0]; i++) {
        char want[600];
        if (!strncmp(c->lines[i], "@BIN@", 5))
            snprintf(want, sizeof want, "%s%s", bin, c->lines[i] + 5);
        else
            snprintf(want, sizeof want, "%s", c->lines[i]);
        size_t len = strlen(want);
        const char *hit = at;
        while ((hit = strstr(hit, want)) != NULL &&
               !((hit == text || hit[-1] == '\n') && (hit[len] == '\n' || hit[len] == '\0')))
            hit++;
        cr_expect_not_null(hit, "%s: no line '%s' in order; it printed:\n%s", c->fixture,
                           want, text);
        if (hit)
            at = hit + len;
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    run(cmd);
}
