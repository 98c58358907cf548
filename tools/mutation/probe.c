/*
 * probe.c - the equivalence probe (probe.h): the same random valid calls
 * on two builds of the reference, compared.  tools/mutation/probe.py drives
 * it for every survivor.
 *
 * usage: probe ORIGINAL.so MUTANT.so [--calls N] [--seed S]
 *
 * Both builds are loaded with dlopen (each exports only
 * reshape_candidate_v1).  A call's arena (src, dst and guard bands around
 * them) starts as the same random bytes for both builds; what is compared
 * is infer_shape's status and dims, execute's status, the signal that
 * ended the process (a crash, or SIGALRM after CALL_SECONDS) or the status
 * a build exited with, and every
 * byte of the arena.  Where the original itself was ended by a signal (a
 * call near the 2^63-bit limit it accepted and read past), only how the
 * calls ended is compared.
 *
 * Two passes.  A sweep child makes each call on the original and then on
 * the mutant in one process and marks the calls whose answers differ; a
 * child that a call ends is replaced by a new one from the next call (one
 * sweep per RESHAPE_REF_PLAIN setting, which the reference reads once per
 * process).  Then each marked call is made again, each build in a child
 * of its own, to say what differs.  The probe stops early at a call that
 * timed out.
 *
 * Prints one JSON object on stdout: {"calls": N, "run": R, "separated": S,
 * "separated_far": F, "first": TEXT, "first_far": TEXT, "stopped": BOOL}:
 * of the R calls run, S (not near the limit) and F (near it) told the
 * builds apart; TEXT describes the first such call of each kind ("" when
 * none).  Exit 0 when no call told them apart, 1 when one did, 2 on bad
 * usage, a build that does not load, a fork that fails, or a sweep child
 * that ends outside any call.
 */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe.h"
#include "suite/fill.h"

/* How long one call may run before SIGALRM ends its process. */
#define CALL_SECONDS 3
#define TEXT_MAX 1024

/* What one build did with one call. */
struct answer {
    int infer_done, infer_status;
    int32_t rank;
    int64_t dims[RESHAPE_MAX_RANK];
    int exec_done, exec_status;
    int signal; /* that ended the process; 0: none */
    int exit;   /* the status the process exited with, when no signal */
};

/* One build's answer to a call and the arena after it. */
struct side {
    struct answer out;
    unsigned char *arena; /* guarded(): a call's arena ends at PROBE_ARENA_CAP */
};

/* What the sweep found of a call. */
enum mark { MARK_NONE, MARK_SAME, MARK_DIFFER, MARK_ENDED };

/* *at once the sweep child has made its last call. */
#define SWEEP_DONE UINT64_MAX
/* *at before the sweep child has started its first call. */
#define SWEEP_STARTING (UINT64_MAX - 1)

/* One probe run: the builds, the calls, and the memory its children share
 * with it. */
struct probe {
    const reshape_candidate *original, *mutant;
    uint64_t calls, seed;
    unsigned char *arena;  /* shared, guarded: the arena of a call made alone */
    struct answer *out;    /* shared: that call's answer */
    unsigned char *marks;  /* shared: an enum mark per call */
    uint64_t *at;          /* shared: the call the sweep child is making */
    struct side a, b;      /* the original's and the mutant's answers */
    int stopped;           /* a call timed out */
};

static const reshape_candidate *load(const char *path)
{
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "probe: cannot load '%s': %s\n", path, dlerror());
        return NULL;
    }
    reshape_candidate_entry entry;
    *(void **)&entry = dlsym(lib, RESHAPE_CANDIDATE_ENTRY);
    if (entry == NULL) {
        fprintf(stderr, "probe: '%s' exports no %s\n", path, RESHAPE_CANDIDATE_ENTRY);
        return NULL;
    }
    return entry();
}

static void set_plain(int plain)
{
    if (plain)
        setenv("RESHAPE_REF_PLAIN", "1", 1);
    else
        unsetenv("RESHAPE_REF_PLAIN");
}

/* Where the arena of `c` starts in `map` (PROBE_ARENA_CAP bytes and a
 * guard page, guarded()): flush against the guard page, so that a copy
 * that runs past the tensors (a call near the 2^63-bit limit the build
 * accepted) faults at once instead of walking through the heap. */
static unsigned char *arena_of(unsigned char *map, const probe_call *c)
{
    return map + PROBE_ARENA_CAP - c->arena_bytes;
}

/* The call `c` on `lib` over a fresh arena in `map`; answers into `out`,
 * which the caller has zeroed. */
static void call(const reshape_candidate *lib, const probe_call *c, unsigned char *map,
                 struct answer *out)
{
    unsigned char *arena = arena_of(map, c);
    fill_random(arena, c->arena_bytes, c->fill);
    reshape_tensor shape = {c->shape_dtype, c->shape_rank, (int64_t *)c->shape_dims, NULL,
                            (void *)c->shape_bytes};
    reshape_params p = {c->op, c->special_zero, &shape};
    reshape_tensor src = {c->dtype, c->src.rank, c->src.dims,
                          c->src.strided ? c->src.strides : NULL, arena + c->src.at};
    reshape_tensor dst = {c->dtype, c->dst.rank, c->dst.dims,
                          c->dst.strided ? c->dst.strides : NULL, arena + c->dst.at};
    out->infer_status = lib->infer_shape(&p, &src, &out->rank, out->dims);
    out->infer_done = 1;
    out->exec_status = lib->execute(&p, &src, &dst);
    out->exec_done = 1;
}

static int in_region(size_t i, const probe_tensor *t)
{
    return i >= t->at && i < t->at + t->bytes;
}

/* What tells the two sides of `c` apart, or NULL when nothing does. */
static const char *differ(const probe_call *c, const struct side *a, const struct side *b)
{
    const struct answer *x = &a->out, *y = &b->out;
    if (x->signal != y->signal || x->exit != y->exit)
        return "how the call ended";
    if (x->infer_done != y->infer_done || x->infer_status != y->infer_status)
        return "infer_shape's status";
    if (x->infer_done && x->infer_status == RESHAPE_OK &&
        (x->rank != y->rank || x->rank < 0 || x->rank > RESHAPE_MAX_RANK ||
         memcmp(x->dims, y->dims, (size_t)x->rank * sizeof x->dims[0]) != 0))
        return "infer_shape's dims";
    if (x->exec_done != y->exec_done || x->exec_status != y->exec_status)
        return "execute's status";
    if (x->signal != 0 || x->exit != 0)
        return NULL; /* the original read past: its partial writes are not compared */
    const unsigned char *x_bytes = arena_of(a->arena, c), *y_bytes = arena_of(b->arena, c);
    for (size_t i = 0; i < c->arena_bytes; i++) {
        if (x_bytes[i] == y_bytes[i])
            continue;
        if (in_region(i, &c->dst))
            return "dst bytes";
        return in_region(i, &c->src) ? "src bytes" : "bytes around dst";
    }
    return NULL;
}

/* ------------------------------------------------------------ the sweep */

/* In the sweep child: calls `from` onwards of one RESHAPE_REF_PLAIN
 * setting, each on both builds, marked. */
static void sweep_child(struct probe *pr, int plain, uint64_t from)
{
    set_plain(plain);
    for (uint64_t i = from; i < pr->calls; i++) {
        probe_call c;
        probe_draw(&c, pr->seed, i, pr->original);
        if (c.plain != plain)
            continue;
        *pr->at = i;
        alarm(CALL_SECONDS);
        memset(&pr->a.out, 0, sizeof pr->a.out);
        memset(&pr->b.out, 0, sizeof pr->b.out);
        call(pr->original, &c, pr->a.arena, &pr->a.out);
        call(pr->mutant, &c, pr->b.arena, &pr->b.out);
        alarm(0);
        pr->marks[i] = differ(&c, &pr->a, &pr->b) ? MARK_DIFFER : MARK_SAME;
    }
    *pr->at = SWEEP_DONE;
    _exit(0);
}

/* Sweeps the calls of one setting, a new child after each call that ends
 * its process (a signal, or an exit from inside a build).  Returns 0, or
 * -1 when fork fails or a child ends outside any call. */
static int sweep(struct probe *pr, int plain)
{
    for (uint64_t from = 0; from < pr->calls;) {
        *pr->at = SWEEP_STARTING;
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0)
            return -1;
        if (pid == 0)
            sweep_child(pr, plain, from);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            continue;
        if (*pr->at == SWEEP_DONE)
            return 0;
        if (*pr->at == SWEEP_STARTING) {
            errno = ECHILD;
            return -1;
        }
        pr->marks[*pr->at] = MARK_ENDED;
        from = *pr->at + 1;
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
            pr->stopped = 1;
            return 0;
        }
    }
    return 0;
}

/* ---------------------------------------------- a call in a child alone */

/* Makes `c` on `lib` in a child of its own; `side` gets what it did.
 * Returns 0, or -1 when fork fails. */
static int run_alone(struct probe *pr, const reshape_candidate *lib, const probe_call *c,
                     struct side *side)
{
    memset(pr->out, 0, sizeof *pr->out);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        set_plain(c->plain);
        alarm(CALL_SECONDS);
        call(lib, c, pr->arena, pr->out);
        _exit(0);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        continue;
    side->out = *pr->out;
    side->out.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    side->out.exit = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    memcpy(arena_of(side->arena, c), arena_of(pr->arena, c), c->arena_bytes);
    return 0;
}

static void answer_text(const struct answer *o, char *buf, size_t size)
{
    const char *infer = reshape_status_name((reshape_status)o->infer_status);
    const char *exec = reshape_status_name((reshape_status)o->exec_status);
    if (o->signal != 0)
        snprintf(buf, size, "signal %d (%s) in %s", o->signal, strsignal(o->signal),
                 o->infer_done ? "execute" : "infer_shape");
    else if (o->exit != 0)
        snprintf(buf, size, "exit %d in %s", o->exit, o->infer_done ? "execute" : "infer_shape");
    else
        snprintf(buf, size, "infer_shape %s, execute %s", infer ? infer : "?",
                 exec ? exec : "?");
}

/* "call N: WHAT differ on CALL: original ..., mutant ..." */
static void separation_text(uint64_t index, const char *what, const probe_call *c,
                            const struct probe *pr, char *buf, size_t size)
{
    char call_text[TEXT_MAX / 2], ta[TEXT_MAX / 8], tb[TEXT_MAX / 8];
    probe_describe(c, call_text, sizeof call_text);
    answer_text(&pr->a.out, ta, sizeof ta);
    answer_text(&pr->b.out, tb, sizeof tb);
    snprintf(buf, size, "call %llu: %s differ on %s: original %s, mutant %s",
             (unsigned long long)index, what, call_text, ta, tb);
}

static int usage(void)
{
    fprintf(stderr, "usage: probe ORIGINAL.so MUTANT.so [--calls N] [--seed S]\n");
    return 2;
}

static int options(int argc, char **argv, struct probe *pr)
{
    pr->calls = 3000;
    pr->seed = 1;
    if (argc < 3)
        return -1;
    for (int i = 3; i < argc; i += 2) {
        char *end = NULL;
        if (i + 1 >= argc)
            return -1;
        uint64_t v = strtoull(argv[i + 1], &end, 10);
        if (*argv[i + 1] == '\0' || *end != '\0')
            return -1;
        if (strcmp(argv[i], "--calls") == 0)
            pr->calls = v;
        else if (strcmp(argv[i], "--seed") == 0)
            pr->seed = v;
        else
            return -1;
    }
    return 0;
}

static void *shared(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* PROBE_ARENA_CAP bytes followed by a page no one may touch; `flags`
 * MAP_SHARED or MAP_PRIVATE. */
static unsigned char *guarded(int flags)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *p = mmap(NULL, PROBE_ARENA_CAP + page, PROT_READ | PROT_WRITE,
                            flags | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    return mprotect(p + PROBE_ARENA_CAP, page, PROT_NONE) == 0 ? p : NULL;
}

int main(int argc, char **argv)
{
    struct probe pr = {0};
    if (options(argc, argv, &pr) != 0)
        return usage();
    pr.original = load(argv[1]);
    pr.mutant = load(argv[2]);
    if (pr.original == NULL || pr.mutant == NULL)
        return 2;
    pr.arena = guarded(MAP_SHARED);
    pr.out = shared(sizeof *pr.out);
    pr.marks = shared(pr.calls ? pr.calls : 1);
    pr.at = shared(sizeof *pr.at);
    pr.a.arena = guarded(MAP_PRIVATE);
    pr.b.arena = guarded(MAP_PRIVATE);
    if (!pr.arena || !pr.out || !pr.marks || !pr.at || !pr.a.arena || !pr.b.arena) {
        fprintf(stderr, "probe: out of memory\n");
        return 2;
    }
    if (sweep(&pr, 0) != 0 || sweep(&pr, 1) != 0) {
        fprintf(stderr, "probe: a sweep failed: %s\n", strerror(errno));
        return 2;
    }
    static char first[TEXT_MAX], first_far[TEXT_MAX];
    uint64_t run = 0, separated = 0, separated_far = 0;
    for (uint64_t i = 0; i < pr.calls; i++) {
        run += pr.marks[i] != MARK_NONE;
        if (pr.marks[i] != MARK_DIFFER && pr.marks[i] != MARK_ENDED)
            continue;
        probe_call c;
        probe_draw(&c, pr.seed, i, pr.original);
        if (run_alone(&pr, pr.original, &c, &pr.a) || run_alone(&pr, pr.mutant, &c, &pr.b)) {
            fprintf(stderr, "probe: fork: %s\n", strerror(errno));
            return 2;
        }
        const char *what = differ(&c, &pr.a, &pr.b);
        if (what == NULL && pr.marks[i] == MARK_DIFFER)
            what = "the answers (after the calls before it, in one process)";
        if (what == NULL)
            continue;
        char *text = c.far ? first_far : first;
        if (*text == '\0')
            separation_text(i, what, &c, &pr, text, TEXT_MAX);
        *(c.far ? &separated_far : &separated) += 1;
    }
    printf("{\"calls\": %llu, \"run\": %llu, \"separated\": %llu, \"separated_far\": %llu, "
           "\"first\": \"%s\", \"first_far\": \"%s\", \"stopped\": %s}\n",
           (unsigned long long)pr.calls, (unsigned long long)run,
           (unsigned long long)separated, (unsigned long long)separated_far, first, first_far,
           pr.stopped ? "true" : "false");
    return separated + separated_far ? 1 : 0;
}
