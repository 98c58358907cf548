/*
 * reach_test.c - the broken candidates that reach past their own (issue
 * 30): another process's /proc entries, a root-only file, a host Unix
 * socket, an abstract one, a UDP send to AF_UNSPEC.  Each run is
 * nonconformant (exit 1) with a finished report whose first CRASH says
 * what the candidate tried and that the worker was stopped; no process
 * outlives it (a marker in the environment, expect_caught.h);
 * nothing is left in its $TMPDIR (the scratch folder is a tmpfs gone with
 * the workers); the host socket received nothing.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "../common/folders.h"
#include "expect_caught.h"
#include "run.h"

/*
 * Runs build/broken/<name>.so on one case file with $TMPDIR a folder of
 * the test's, and checks: exit 1, nonconformant, the first CRASH holds
 * "it tried to " `act` and "(the worker was stopped)", no survivor,
 * $TMPDIR empty afterwards.
 */
static void reached_from(const char *so, const char *name, const char *act);

static void reached(const char *name, const char *act)
{
    char so[512];
    snprintf(so, sizeof so, "%s/%s.so", run_broken_dir(), name);
    reached_from(so, name, act);
}

/* reached, on candidate file `so`. */
static void reached_from(const char *so, const char *name, const char *act)
{
    char mark[128], label[96], json[512], tmp[64], cases[512], want[400];
    snprintf(tmp, sizeof tmp, "/tmp/reshape-reach-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
    chmod(tmp, 0755);
    snprintf(mark, sizeof mark, "%s-%ld", name, (long)getpid());
    snprintf(label, sizeof label, "reach-%s", name);
    snprintf(cases, sizeof cases, "%s/onednn_static_reshape_1.yaml", run_cases_dir());
    const char *more[] = {"--cases", cases, "--variants", "infer,dense", NULL};
    setenv("RESHAPE_HOSTILE_MARK", mark, 1);
    setenv("TMPDIR", tmp, 1);
    int rc = run_harness(so, run_runs_dir(), label, 3000, more, json, sizeof json);
    unsetenv("TMPDIR");
    unsetenv("RESHAPE_HOSTILE_MARK");
    /* the folder is judged and removed before anything can end the test */
    int left = !dir_is_empty(tmp);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    cr_expect_eq(system(cmd), 0);
    cr_expect(!left, "%s: the run left files in %s", name, tmp);
    snprintf(want, sizeof want, "it tried to %s", act);
    char full[160];
    snprintf(full, sizeof full, "RESHAPE_HOSTILE_MARK=%s", mark);
    expect_caught(name, label, rc, json, "CRASH", want, full);
    struct run_summary s;
    cr_assert_eq(run_summarize(json, "CRASH", &s), 0, "%s", s.error);
    cr_expect(strstr(s.first_detail, "(the worker was stopped)"), "%s", s.first_detail);
}

Test(reach, another_processes_cmdline_is_a_finding, .timeout = 300)
{
    reached("reads_other_processes_cmdline", "read /proc/1/cmdline (another process's)");
}

Test(reach, its_parents_memory_opened_for_writing_is_a_finding, .timeout = 300)
{
    reached("opens_proc_mem_for_write", "read and write /proc/");
}

/* What a test made outside its runs' folders, removed however it ends. */
static char made_file[96], made_dir[64], made_so[128];

static void remove_made(void)
{
    if (made_so[0])
        unlink(made_so);
    if (made_file[0])
        unlink(made_file);
    if (made_dir[0])
        rmdir(made_dir);
}

Test(reach, a_root_only_file_is_a_finding, .timeout = 300, .fini = remove_made)
{
    if (geteuid() != 0)
        cr_skip_test("as root only: the file is root's, the workers drop to nobody");
    char *path = made_file;
    snprintf(path, sizeof made_file, "/etc/reshape-reach-XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0, "cannot make a file below /etc: %s", strerror(errno));
    cr_assert_eq(write(fd, "root only\n", 10), 10);
    fchmod(fd, 0600);
    close(fd);
    setenv("RESHAPE_HOSTILE_TARGET", path, 1);
    char act[256];
    snprintf(act, sizeof act, "read %s (closed to uid 65534)", path);
    reached("reads_root_only_file", act);
    /* from a folder closed to the workers' uid (mktemp -d): it loads,
     * through a descriptor, and keeps no capability to read the file */
    char *dir = made_dir, *so = made_so, from[512];
    snprintf(dir, sizeof made_dir, "/tmp/reshape-closed-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(so, sizeof made_so, "%s/reads_root_only_file.so", dir);
    snprintf(from, sizeof from, "%s/reads_root_only_file.so", run_broken_dir());
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cp %s %s", from, so);
    cr_assert_eq(system(cmd), 0);
    reached_from(so, "reads_root_only_file", act);
    unsetenv("RESHAPE_HOSTILE_TARGET");
}

Test(reach, a_host_unix_socket_is_a_finding_and_hears_nothing, .timeout = 300,
     .fini = remove_made)
{
    char *dir = made_dir, *path = made_file;
    snprintf(dir, sizeof made_dir, "/tmp/reshape-sock-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    chmod(dir, 0755);
    snprintf(path, sizeof made_file, "%s/host.sock", dir);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_un un = {.sun_family = AF_UNIX};
    snprintf(un.sun_path, sizeof un.sun_path, "%s", path);
    cr_assert_eq(bind(s, (const struct sockaddr *)&un, sizeof un), 0);
    chmod(path, 0777);
    cr_assert_eq(listen(s, 8), 0);
    setenv("RESHAPE_HOSTILE_TARGET", path, 1);
    char act[256];
    snprintf(act, sizeof act, "connect to the Unix socket %s", path);
    reached("connects_to_host_unix_socket", act);
    unsetenv("RESHAPE_HOSTILE_TARGET");
    int c = accept(s, NULL, NULL);
    cr_expect_lt(c, 0, "the host socket was reached");
    if (c >= 0)
        close(c);
    close(s);
}

Test(reach, an_abstract_socket_is_a_finding, .timeout = 300)
{
    reached("connects_abstract_socket", "connect to the abstract Unix socket "
                                        "@reshape-hostile-probe");
}

Test(reach, a_udp_send_to_af_unspec_is_a_finding, .timeout = 300)
{
    reached("sends_udp_unspec", "send to an address of family AF_UNSPEC");
}

/* A loading candidate's output is quoted in the load error on stderr:
 * every line of it prefixed, none reads as the harness's own. */
Test(reach, a_forged_verdict_line_never_stands_alone, .timeout = 300)
{
    char label[96] = "reach-prints_fake_verdict_line", json[512], so[512], cases[512];
    snprintf(so, sizeof so, "%s/prints_fake_verdict_line.so", run_broken_dir());
    snprintf(cases, sizeof cases, "%s/onednn_static_reshape_1.yaml", run_cases_dir());
    const char *more[] = {"--cases", cases, "--variants", "infer,dense", NULL};
    int rc = run_harness(so, run_runs_dir(), label, 3000, more, json, sizeof json);
    cr_assert_eq(rc, 1, "exit %d; see %s/%s.log", rc, run_runs_dir(), label);
    char log[700], line[4096];
    snprintf(log, sizeof log, "%s/%s.log", run_runs_dir(), label);
    FILE *f = fopen(log, "r");
    cr_assert_not_null(f, "no %s", log);
    int quoted = 0;
    while (fgets(line, sizeof line, f)) {
        cr_expect(strncmp(line, "conformant: 9999", 16), "a forged line stands alone in %s",
                  log);
        quoted += !strncmp(line, "candidate: conformant: 9999", 27);
    }
    fclose(f);
    cr_expect_gt(quoted, 0, "the candidate's output is not quoted in %s", log);
}
