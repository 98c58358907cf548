/*
 * probe.c - the equivalence probe (probe.h): the same random calls on two
 * builds of the reference, compared.  tools/mutation/probe.py drives it for
 * every survivor, both builds compiled with ASan and the mutant with a
 * counter beside its change (reach.py).
 *
 * usage: probe ORIGINAL.so MUTANT.so [--calls N] [--seed S]
 *
 * Both builds are loaded with dlopen.  The mutant's exported `mut_hit`
 * pointer, when it has one, is set to a counter the children share: each
 * time the mutated statement begins, it counts.  A call's arena (src, dst
 * and guard bands, between two guard pages) starts as the same random bytes
 * for both builds; what is compared is infer_shape's status and dims,
 * execute's status, the signal that ended the process (a crash, or SIGALRM
 * after CALL_SECONDS) or the status a build exited with (an ASan report),
 * and every byte of the arena (probe_call.c); last_error()'s texts are
 * compared and counted apart, since the contract leaves them free.  First
 * supports() is swept (probe_supports.c).
 *
 * Two passes.  A sweep child makes each call on the original and then on
 * the mutant in one process and marks the calls whose answers differ; a
 * child that a call ends is replaced by a new one from the next call (one
 * sweep per RESHAPE_REF_PLAIN setting, which the reference reads once per
 * process).  Then each marked call is made again, each build in a child
 * of its own, to say what differs.  The probe stops early at a call that
 * timed out.
 *
 * Prints one JSON object on stdout: {"calls", "run", "separated",
 * "separated_far", "first", "first_far", "stopped", "counted" (0 when the
 * mutant has no counter), "reached" (calls, the supports() sweep counting
 * as one, during which the mutated statement began), "hits" (times it
 * began), "messages" (calls whose last_error() texts differ),
 * "first_message", "enumerated" (calls whose dst the overlap test
 * enumerates, by the probe's own account of D12, with the original's
 * inference OK), "enumerated_multiword" (those with a bitmap above one
 * word), "bitmap_words_max", "enumerated_refused_bitmap" (PROBE_ENUM_HUGE
 * calls)}.  Exit 0 when no call told the builds apart, 1 when one did, 2
 * on bad usage, a build that does not load, a fork that fails, or a sweep
 * child that ends outside any call.
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

#include "probe_run.h"

/* How long one call may run before SIGALRM ends its process. */
#define CALL_SECONDS 30 /* far above any call of the probe, even on a loaded machine */
#define TEXT_MAX 1024

/* What the sweep found of a call. */
enum mark { MARK_NONE, MARK_SAME, MARK_DIFFER, MARK_ENDED };

/* *at once the sweep child has made its last call. */
#define SWEEP_DONE UINT64_MAX
/* *at before the sweep child has started its first call. */
#define SWEEP_STARTING (UINT64_MAX - 1)

/* Counters the sweep children share with the probe. */
struct tally {
    uint64_t hits;       /* the mutant's counter (mut_hit points here) */
    uint64_t before;     /* hits before the call being made */
    uint64_t reached, messages;
    uint64_t enumerated, multiword, words_max, huge;
    uint64_t first_message; /* index + 1 of the first call whose texts differ */
};

/* One probe run: the builds, the calls, and the memory its children share
 * with it. */
struct probe {
    const reshape_candidate *original, *mutant;
    int counted;           /* the mutant has a counter */
    uint64_t calls, seed;
    unsigned char *arena;  /* shared, guarded: the arena of a call made alone */
    struct answer *out;    /* shared: that call's answer */
    unsigned char *marks;  /* shared: an enum mark per call */
    uint64_t *at;          /* shared: the call the sweep child is making */
    struct tally *tally;   /* shared */
    struct side a, b;      /* the original's and the mutant's answers */
    int stopped;           /* a call timed out */
};

static const reshape_candidate *load(const char *path, struct probe *pr, int mutant)
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
    uint64_t **hit = dlsym(lib, "mut_hit");
    if (mutant && hit != NULL) {
        *hit = &pr->tally->hits;
        pr->counted = 1;
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

/* ------------------------------------------------------------ the sweep */

/* The probe's own account of the enumeration `c` reaches, after the
 * original answered `a`. */
static void count_enumeration(struct tally *t, const probe_call *c, const struct answer *a)
{
    uint64_t words = probe_bitmap_words(c);
    if (c->kind == PROBE_ENUM_HUGE && a->infer_status == RESHAPE_OK)
        t->huge++;
    if (words == 0 || a->infer_status != RESHAPE_OK || c->kind == PROBE_ENUM_HUGE)
        return;
    t->enumerated++;
    t->multiword += words > 1;
    if (words > t->words_max)
        t->words_max = words;
}

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
        pr->tally->before = pr->tally->hits;
        probe_call_make(pr->original, &c, pr->a.arena, &pr->a.out);
        probe_call_make(pr->mutant, &c, pr->b.arena, &pr->b.out);
        alarm(0);
        pr->tally->reached += pr->tally->hits != pr->tally->before;
        count_enumeration(pr->tally, &c, &pr->a.out);
        pr->marks[i] = probe_differ(&c, &pr->a, &pr->b) ? MARK_DIFFER : MARK_SAME;
        if (probe_messages_differ(&pr->a.out, &pr->b.out)) {
            pr->tally->messages++;
            if (pr->tally->first_message == 0)
                pr->tally->first_message = i + 1;
        }
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
        pr->tally->reached += pr->tally->hits != pr->tally->before;
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
        probe_call_make(lib, c, pr->arena, pr->out);
        _exit(0);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        continue;
    side->out = *pr->out;
    side->out.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    side->out.exit = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    memcpy(probe_arena_of(side->arena, c), probe_arena_of(pr->arena, c), c->arena_bytes);
    return 0;
}

/* "call N: WHAT differ on CALL: original ..., mutant ..." */
static void separation_text(uint64_t index, const char *what, const probe_call *c,
                            const struct probe *pr, char *buf, size_t size)
{
    char call_text[TEXT_MAX / 2], ta[TEXT_MAX / 8], tb[TEXT_MAX / 8];
    probe_describe(c, call_text, sizeof call_text);
    probe_answer_text(&pr->a.out, ta, sizeof ta);
    probe_answer_text(&pr->b.out, tb, sizeof tb);
    snprintf(buf, size, "call %llu: %s differ on %s: original %s, mutant %s",
             (unsigned long long)index, what, call_text, ta, tb);
}

/* A JSON string's body: `s` with '"' and '\\' escaped, control bytes as
 * spaces. */
static void json_text(const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        putchar((unsigned char)*s < 0x20 ? ' ' : *s);
    }
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

int main(int argc, char **argv)
{
    struct probe pr = {0};
    if (options(argc, argv, &pr) != 0)
        return usage();
    pr.tally = shared(sizeof *pr.tally);
    if (pr.tally == NULL)
        return 2;
    pr.original = load(argv[1], &pr, 0);
    pr.mutant = load(argv[2], &pr, 1);
    if (pr.original == NULL || pr.mutant == NULL)
        return 2;
    pr.arena = probe_guarded(MAP_SHARED);
    pr.out = shared(sizeof *pr.out);
    pr.marks = shared(pr.calls ? pr.calls : 1);
    pr.at = shared(sizeof *pr.at);
    pr.a.arena = probe_guarded(MAP_PRIVATE);
    pr.b.arena = probe_guarded(MAP_PRIVATE);
    if (!pr.arena || !pr.out || !pr.marks || !pr.at || !pr.a.arena || !pr.b.arena) {
        fprintf(stderr, "probe: out of memory\n");
        return 2;
    }
    static char first[TEXT_MAX], first_far[TEXT_MAX], first_message[TEXT_MAX];
    uint64_t run = 1, separated = 0, separated_far = 0;
    int sup_differ = 0, sup_msg = 0;
    uint64_t before = pr.tally->hits;
    if (probe_supports_sweep(pr.original, pr.mutant, &sup_differ, &sup_msg, first,
                             sizeof first) != 0) {
        fprintf(stderr, "probe: the supports() sweep failed: %s\n", strerror(errno));
        return 2;
    }
    pr.tally->reached += pr.tally->hits != before;
    separated += sup_differ;
    pr.tally->messages += sup_msg;
    if (sup_msg)
        snprintf(first_message, sizeof first_message, "the supports() sweep");
    if (sweep(&pr, 0) != 0 || sweep(&pr, 1) != 0) {
        fprintf(stderr, "probe: a sweep failed: %s\n", strerror(errno));
        return 2;
    }
    for (uint64_t i = 0; i < pr.calls; i++) {
        probe_call c;
        if (pr.tally->first_message == i + 1 && *first_message == '\0') {
            probe_draw(&c, pr.seed, i, pr.original);
            char call_text[TEXT_MAX / 2];
            probe_describe(&c, call_text, sizeof call_text);
            snprintf(first_message, sizeof first_message, "call %llu: %s",
                     (unsigned long long)i, call_text);
        }
        run += pr.marks[i] != MARK_NONE;
        if (pr.marks[i] != MARK_DIFFER && pr.marks[i] != MARK_ENDED)
            continue;
        probe_draw(&c, pr.seed, i, pr.original);
        if (run_alone(&pr, pr.original, &c, &pr.a) || run_alone(&pr, pr.mutant, &c, &pr.b)) {
            fprintf(stderr, "probe: fork: %s\n", strerror(errno));
            return 2;
        }
        const char *what = probe_differ(&c, &pr.a, &pr.b);
        if (what == NULL && pr.marks[i] == MARK_DIFFER)
            what = "the answers (after the calls before it, in one process)";
        if (what == NULL)
            continue;
        char *text = c.far ? first_far : first;
        if (*text == '\0')
            separation_text(i, what, &c, &pr, text, TEXT_MAX);
        *(c.far ? &separated_far : &separated) += 1;
    }
    const struct tally *t = pr.tally;
    printf("{\"calls\": %llu, \"run\": %llu, \"separated\": %llu, \"separated_far\": %llu, "
           "\"first\": \"", (unsigned long long)pr.calls, (unsigned long long)run,
           (unsigned long long)separated, (unsigned long long)separated_far);
    json_text(first);
    printf("\", \"first_far\": \"");
    json_text(first_far);
    printf("\", \"stopped\": %s, \"counted\": %d, \"reached\": %llu, \"hits\": %llu, "
           "\"messages\": %llu, \"first_message\": \"", pr.stopped ? "true" : "false",
           pr.counted, (unsigned long long)t->reached, (unsigned long long)t->hits,
           (unsigned long long)t->messages);
    json_text(first_message);
    printf("\", \"enumerated\": %llu, \"enumerated_multiword\": %llu, \"bitmap_words_max\": %llu, "
           "\"enumerated_refused_bitmap\": %llu}\n", (unsigned long long)t->enumerated,
           (unsigned long long)t->multiword, (unsigned long long)t->words_max,
           (unsigned long long)t->huge);
    return separated + separated_far ? 1 : 0;
}
