/*
 * test_journal.c - the run's journal (harness/journal.h): a harness
 * SIGKILLed mid-run resumes to the report a clean run writes; torn last
 * lines, other candidates and other options on resume; the reader on
 * malformed journals.  Runs the real reshape-conform.
 */
#include "run_harness.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>

#include "report/report.h"

/* The report at `path` without what differs between any two runs: its
 * times, and the slots it ran (a resumed run starts its own, and adds
 * them as its own deaths go: harness/run/widen.h). */
static json_t *load_report(const char *path)
{
    json_error_t je;
    json_t *r = json_load_file(path, 0, &je);
    cr_assert(r, "cannot read %s: %s", path, je.text);
    json_object_del(r, "duration_s");
    json_object_del(r, "started_utc");
    json_object_del(r, "slots");
    return r;
}

static int count_lines(const char *path)
{
    char *s = slurp(path);
    int n = 0;
    for (char *p = s; *p; p++)
        n += *p == '\n';
    free(s);
    return n;
}

static void make_dir(char *buf, size_t size)
{
    temp_template(buf, size, "/tmp/journal-test-");
    cr_assert(mkdtemp(buf));
}

#define SLOW_ARGS "--candidate " CANDS "slow.so --shard 1/3 --variants dense --quiet"

Test(journal, a_sigkilled_run_resumes_to_the_clean_report, .timeout = 240)
{
    char d[64];
    make_dir(d, sizeof d);
    /* the clean run, in the same folder so that argv is the same */
    cr_assert_eq(sh_status("%s " SLOW_ARGS " --report-dir %s/out >/dev/null 2>&1", harness_bin(), d), 1);
    cr_assert_eq(sh_status("mv %s/out/report.json %s/clean.json && rm -rf %s/out", d, d, d), 0);

    char jpath[128], rpath[128];
    snprintf(jpath, sizeof jpath, "%s/out/journal.jsonl", d);
    snprintf(rpath, sizeof rpath, "%s/out/report.json", d);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "exec %s " SLOW_ARGS " --report-dir %s/out >/dev/null 2>&1",
                 harness_bin(), d);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    /* killed once 300 verdicts are in the journal: mid-run */
    for (int i = 0; i < 3000 && count_lines(jpath) < 301; i++)
        usleep(10000);
    int before = count_lines(jpath);
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "the run ended before the kill");
    cr_assert_gt(before, 300, "the journal did not grow");
    cr_assert_neq(access(rpath, F_OK), 0, "a killed run left a report");
    int entries = count_lines(jpath) - 1;
    cr_assert_lt(entries, 1765, "the run was not cut (%d entries)", entries);

    cr_assert_eq(sh_status("%s run --resume %s >%s/resume.out 2>&1", harness_bin(), jpath, d), 1,
                 "resume: %s", d);
    json_t *clean = load_report(strcat(strcpy((char[128]){0}, d), "/clean.json"));
    json_t *resumed = load_report(rpath);
    cr_expect(json_equal(clean, resumed), "the resumed report differs from the clean one");
    cr_expect_eq(json_array_size(json_object_get(resumed, "cases")),
                 json_array_size(json_object_get(clean, "cases")));
    cr_expect_neq(access(jpath, F_OK), 0, "the default journal outlived the finished run");
    json_decref(clean);
    json_decref(resumed);
    sh_status("rm -rf %s", d);
}

/* A finished run with --journal J and --json R; then J cut to its header,
 * `keep` entries and `torn` bytes of the next line. */
static void cut_journal(const char *d, int keep, int torn)
{
    cr_assert_eq(sh_status("%s --candidate %s/cand.so --cases " BASIC " --quiet --journal %s/j.jsonl "
                    "--json %s/r.json >/dev/null 2>&1", harness_bin(), d, d, d), 1);
    cr_assert_eq(sh_status("cp %s/r.json %s/clean.json", d, d), 0);
    cr_assert_eq(access(strcat(strcpy((char[128]){0}, d), "/j.jsonl"), F_OK), 0,
                 "--journal FILE is kept");
    cr_assert_eq(sh_status("head -n %d %s/j.jsonl >%s/cut && sed -n %dp %s/j.jsonl | head -c %d >>%s/cut"
                    " && mv %s/cut %s/j.jsonl && rm %s/r.json",
                    keep + 1, d, d, keep + 2, d, torn, d, d, d, d), 0);
}

Test(journal, a_torn_last_line_is_reported_and_its_result_runs_again, .timeout = 120)
{
    char d[64];
    make_dir(d, sizeof d);
    cr_assert_eq(sh_status("cp " CANDS "write_past_dst.so %s/cand.so", d), 0);
    cut_journal(d, 20, 37);
    cr_assert_eq(sh_status("%s --resume %s/j.jsonl >%s/out 2>%s/err", harness_bin(), d, d, d), 1);
    char path[128];
    snprintf(path, sizeof path, "%s/err", d);
    char *err = slurp(path);
    cr_expect(strstr(err, "j.jsonl:22: torn last line (37 bytes"), "stderr: %s", err);
    free(err);
    json_t *clean = load_report(strcat(strcpy((char[128]){0}, d), "/clean.json"));
    json_t *resumed = load_report(strcat(strcpy((char[128]){0}, d), "/r.json"));
    cr_expect(json_equal(clean, resumed), "the resumed report differs from the clean one");
    json_decref(clean);
    json_decref(resumed);
    /* the torn bytes are gone and the journal is whole again */
    journal j;
    char *jerr = NULL;
    snprintf(path, sizeof path, "%s/j.jsonl", d);
    cr_assert_eq(journal_load(&j, path, &jerr), 0, "%s", jerr);
    cr_expect_eq(j.torn_line, 0);
    cr_expect_gt(j.n, 20);
    journal_free(&j);
    sh_status("rm -rf %s", d);
}

Test(journal, resume_refuses_another_candidate_or_other_options, .timeout = 120)
{
    char d[64];
    make_dir(d, sizeof d);
    cr_assert_eq(sh_status("cp " CANDS "write_past_dst.so %s/cand.so", d), 0);
    cut_journal(d, 5, 0);
    cr_expect_eq(sh_status("%s --resume %s/j.jsonl --seed 7 >%s/out 2>%s/err", harness_bin(), d, d, d), 2);
    char path[128];
    snprintf(path, sizeof path, "%s/err", d);
    char *err = slurp(path);
    cr_expect(strstr(err, "cannot resume: option 'seed' is 7 here but 1 in the journal"), "%s", err);
    free(err);
    /* the same options given again are fine; then another file at the same path is not */
    cr_assert_eq(sh_status("cp " CANDS "good.so %s/cand.so", d), 0);
    cr_expect_eq(sh_status("%s --resume %s/j.jsonl --cases " BASIC " >%s/out 2>%s/err", harness_bin(),
                    d, d, d), 2);
    err = slurp(path);
    cr_expect(strstr(err, "it was written for another candidate file (sha256 "), "%s", err);
    free(err);
    cr_expect_neq(access(strcat(strcpy((char[128]){0}, d), "/r.json"), F_OK), 0,
                  "a refused resume wrote a report");
    sh_status("rm -rf %s", d);
}

Test(journal, resume_of_a_journal_that_is_none_says_where)
{
    char d[64];
    make_dir(d, sizeof d);
    cr_assert_eq(sh_status("printf '{\"a\":1}\\n' >%s/j.jsonl", d), 0);
    run r = run_harness("--resume %s/j.jsonl", d);
    cr_expect_eq(r.code, 2);
    cr_expect(strstr(r.err, "j.jsonl:1: invalid journal header: not a reshape-conform journal"),
              "%s", r.err);
    run_free(&r);
    sh_status("rm -rf %s", d);
}

#define SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define HEADER "{\"journal\":\"reshape-conform\",\"journal_version\":1,\"candidate_sha256\":\"" \
    SHA "\",\"cases_sha256\":\"" SHA "\",\"started_utc\":\"x\",\"options\":{\"argv\":[\"r\"]}}\n"
#define ENTRY(id, vd) "{\"id\":\"" id "\",\"variant\":\"dense\",\"verdict\":\"" vd "\"," \
    "\"detail\":\"\",\"got\":\"\",\"status_agrees\":null}\n"

static int parse(const char *text, journal *j, char **err)
{
    return journal_parse(j, "J", text, strlen(text), err);
}

Test(journal, the_reader_takes_entries_and_a_torn_tail)
{
    journal j;
    char *err = NULL;
    const char *text = HEADER ENTRY("a", "PASS") ENTRY("b", "CRASH") "{\"id\":\"c\",\"var";
    cr_assert_eq(parse(text, &j, &err), 0, "%s", err);
    cr_expect_eq(j.n, 2);
    cr_expect_str_eq(j.e[1].id, "b");
    cr_expect_eq(j.e[1].vd, VD_CRASH);
    cr_expect_eq(j.e[1].line, 3);
    cr_expect_eq(j.torn_line, 4);
    cr_expect_eq(j.torn_bytes, 14);
    cr_expect_eq(j.good_len, strlen(text) - 14);
    journal_free(&j);
}

Test(journal, the_reader_refuses_with_the_line)
{
    static const struct { const char *text, *msg; } bad[] = {
        {"", "J:1: no journal header"},
        {"{\"journal\":\"reshape-conform\"", "J:1: no journal header"},
        {HEADER ENTRY("a", "WAIVED"), "J:2: invalid journal entry: unknown verdict"},
        {HEADER ENTRY("a", "PASS") "not json\n" ENTRY("b", "PASS"), "J:3:3: invalid journal line"},
        {HEADER "[]\n", "J:2: invalid journal entry: the entry is not a JSON object"},
        {HEADER "{\"id\":\"a\",\"variant\":\"sideways\",\"verdict\":\"PASS\",\"detail\":\"\","
                "\"got\":\"\",\"status_agrees\":null}\n", "J:2: invalid journal entry: unknown variant"},
        {HEADER "{\"id\":\"a\",\"variant\":\"dense\",\"verdict\":\"PASS\",\"detail\":\"\","
                "\"got\":\"\",\"status_agrees\":3}\n", "status_agrees is not null, true or false"},
        {"{\"journal\":\"reshape-conform\",\"journal_version\":2}\n", "journal_version is not 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        journal j;
        char *err = NULL;
        cr_expect_eq(parse(bad[i].text, &j, &err), -1, "case %zu parsed", i);
        cr_expect(err && strstr(err, bad[i].msg), "case %zu: '%s' lacks '%s'", i, err, bad[i].msg);
        free(err);
    }
}
