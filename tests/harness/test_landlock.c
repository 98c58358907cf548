/*
 * test_landlock.c - the Landlock layer alone (worker/sandbox_fs.c), with
 * no observer and no uid change: a child restricted by a run's policy can
 * read its candidate's folder but not a path carved out of it (nor list
 * the carved folder), cannot read or create outside what it may read,
 * can create in the scratch folder but make no device node there, cannot
 * truncate a file it may only read (ABI 3) nor open a TCP connection
 * (ABI 4).  Skipped where the kernel has no Landlock.
 */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/folders.h"
#include "engine/engine.h"
#include "worker/confine_int.h"

/* 1 when open(`path`, `flags`) fails with EACCES. */
static int refused(const char *path, int flags)
{
    int fd = open(path, flags, 0600);
    if (fd >= 0)
        close(fd);
    return fd < 0 && errno == EACCES;
}

static int opens(const char *path, int flags)
{
    int fd = open(path, flags, 0600);
    if (fd >= 0)
        close(fd);
    return fd >= 0;
}

/* The checks, in the restricted child: 0, or the number of the first
 * that failed (from 1, in the order below). */
static int checks(const char *t, const sandbox_policy *p, int abi)
{
    char a[256], b[256], c[256], d[256], e[256], f[256], g[256];
    snprintf(a, sizeof a, "%s/cand/sub/ok.txt", t);
    snprintf(b, sizeof b, "%s/cand/lib.so", t);
    snprintf(c, sizeof c, "%s/cand/secret.txt", t);
    snprintf(d, sizeof d, "%s/cand", t);
    snprintf(e, sizeof e, "%s/other/file.txt", t);
    snprintf(f, sizeof f, "%s/cand/new.txt", t);
    snprintf(g, sizeof g, "%s/new.txt", p->scratch);
    DIR *dir = opendir(d);      /* carved: no rule lets it be listed */
    int listed = dir != NULL;
    if (dir)
        closedir(dir);
    char node[256];
    snprintf(node, sizeof node, "%s/null", p->scratch);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in to;
    memset(&to, 0, sizeof to);
    to.sin_family = AF_INET;
    to.sin_port = htons(9);
    inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    int tcp_refused = s >= 0 && connect(s, (struct sockaddr *)&to, sizeof to) != 0 &&
                      errno == EACCES;
    const int ok[] = {
        opens(a, O_RDONLY), opens(b, O_RDONLY), refused(c, O_RDONLY), !listed,
        refused(e, O_RDONLY), refused(f, O_WRONLY | O_CREAT), opens(g, O_WRONLY | O_CREAT),
        mknod(node, S_IFCHR | 0600, makedev(1, 3)) != 0, abi < 3 || truncate(a, 0) != 0,
        abi < 4 || tcp_refused,
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (!ok[i])
            return (int)i + 1;
    return 0;
}

Test(landlock, a_policy_keeps_a_process_to_its_folders)
{
    int abi = sandbox_landlock_abi();
    if (abi == 0)
        cr_skip_test("this kernel has no Landlock");
    char t[64];
    snprintf(t, sizeof t, "/tmp/landlock-test-%c%c%c%c%c%c", 'X', 'X', 'X', 'X', 'X', 'X');
    cr_assert_not_null(mkdtemp(t));
    char dir[128], cand[128], secret[128];
    snprintf(dir, sizeof dir, "%s/cand", t);
    cr_assert_eq(mkdir(dir, 0755), 0);
    snprintf(dir, sizeof dir, "%s/cand/sub", t);
    cr_assert_eq(mkdir(dir, 0755), 0);
    snprintf(dir, sizeof dir, "%s/other", t);
    cr_assert_eq(mkdir(dir, 0755), 0);
    snprintf(dir, sizeof dir, "%s/cand", t);
    put_file(dir, "lib.so", "a library\n");
    put_file(dir, "secret.txt", "a secret\n");
    snprintf(dir, sizeof dir, "%s/cand/sub", t);
    put_file(dir, "ok.txt", "readable\n");
    snprintf(dir, sizeof dir, "%s/other", t);
    put_file(dir, "file.txt", "not readable\n");
    snprintf(cand, sizeof cand, "%s/cand/lib.so", t);
    snprintf(secret, sizeof secret, "%s/cand/secret.txt", t);
    const char *deny[] = {secret};
    sandbox_spec spec = {NULL, 0, NULL, 0, deny, 1, 0};
    sandbox_policy p;
    char *err = NULL;
    cr_assert_eq(sandbox_policy_make(&p, cand, &spec, &err), 0, "%s", err);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int fd = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? sandbox_fs_ruleset(&p, abi) : -1;
        if (fd < 0 || sandbox_fs_restrict(fd) != 0)
            _exit(255);
        _exit(checks(t, &p, abi));
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_expect(WIFEXITED(st), "the child died");
    cr_expect_eq(WEXITSTATUS(st), 0, "check %d of checks() failed", WEXITSTATUS(st));
    sandbox_policy_free(&p);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", t);
    cr_expect_eq(system(cmd), 0);
}
