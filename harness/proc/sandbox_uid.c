/*
 * sandbox_uid.c - the uid a root harness drops its workers to
 * (sandbox_int.h, sandbox_choose_uid): "nobody", tried in a child first;
 * a scratch folder that uid cannot reach moved to /tmp; a candidate it
 * cannot reach loaded through a descriptor (SANDBOX_DROP_FD), never with
 * a capability kept.  Depends on sandbox_int.h, util.h, POSIX.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/base.h"
#include "groups.h"
#include "sandbox_uid.h"

/*
 * As root: whether uid/gid can read the candidate and its folders and
 * change the scratch folder, tried in a child that drops to them.  Returns
 * 0 and in *bad NULL or the first path it cannot (new string), or -1 when
 * the child could not drop to them.
 */
static int unreadable_after_drop(const sandbox_policy *p, const char *candidate, int first_own,
                                 char **bad_path)
{
    int fds[2];
    *bad_path = NULL;
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        if (setgroups(0, NULL) || setresgid(p->gid, p->gid, p->gid) ||
            setresuid(p->uid, p->uid, p->uid))
            _exit(1);
        const char *bad = access(candidate, R_OK) ? candidate
                          : access(p->scratch, W_OK | X_OK) ? p->scratch : NULL;
        for (int i = first_own; !bad && i < p->read.n; i++)
            if (access(p->read.v[i], R_OK))
                bad = p->read.v[i];
        if (bad && write(fds[1], bad, strlen(bad)) < 0)
            _exit(1);
        _exit(0);
    }
    close(fds[1]);
    char buf[PATH_MAX] = "";
    ssize_t n = pid > 0 ? read(fds[0], buf, sizeof buf - 1) : -1;
    close(fds[0]);
    int st = 1;
    if (pid > 0)
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
    if (pid <= 0 || st != 0)
        return -1;
    if (n > 0) {
        buf[n] = '\0';
        *bad_path = xstrdup(buf);
    }
    return 0;
}

/* Root drops to "nobody" ("nogroup"), or 65534 where they are missing. */
void sandbox_choose_uid(sandbox_policy *p, const char *candidate, int first_own)
{
    if (geteuid() != 0)
        return;
    struct passwd *pw = getpwnam("nobody");
    struct group *gr = getgrnam("nogroup");
    p->uid = pw ? pw->pw_uid : 65534;
    p->gid = gr ? gr->gr_gid : pw ? pw->pw_gid : 65534;
    if (chown(p->scratch, p->uid, p->gid) != 0)
        warn("cannot give the scratch folder '%s' to uid %u: %s", p->scratch, (unsigned)p->uid,
             strerror(errno));
    char *bad;
    if (unreadable_after_drop(p, candidate, first_own, &bad) != 0) {
        /* a root without capabilities cannot write into nobody's folder */
        if (chown(p->scratch, geteuid(), getegid()) != 0)
            warn("cannot take the scratch folder '%s' back: %s", p->scratch, strerror(errno));
        p->drop_note = xasprintf("uid %u cannot be taken here (setresuid failed)",
                                 (unsigned)p->uid);
        return;
    }
    /* a scratch folder the uid cannot reach ($TMPDIR closed to others)
     * moves to /tmp, where it can */
    char *moved = bad && !strcmp(bad, p->scratch) ? xstrdup("/tmp/reshape-scratch-XXXXXX") : NULL;
    if (moved && mkdtemp(moved) && chown(moved, p->uid, p->gid) == 0) {
        rmdir(p->scratch);
        free(p->scratch);
        p->scratch = moved;
        groups_scratch(p->scratch);
        moved = NULL;
        free(bad);
        if (unreadable_after_drop(p, candidate, first_own, &bad) != 0)
            bad = NULL;
    }
    free(moved);
    p->drop = bad ? SANDBOX_DROP_FD : SANDBOX_DROP_FULL;
    if (bad)
        p->drop_note = xasprintf("uid %u cannot read '%s' (a folder on its way is closed to "
                                 "others): the candidate is loaded through a descriptor opened "
                                 "before the drop, and no capability is kept",
                                 (unsigned)p->uid, bad);
    free(bad);
}
