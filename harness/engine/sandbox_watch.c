/*
 * sandbox_watch.c - the observer (sandbox.h): a thread of the parent that
 * receives each confined process's seccomp listener and answers its
 * notifications.  For each it asks sandbox_act.c what the call tries;
 * the kernel then decides (SECCOMP_USER_NOTIF_FLAG_CONTINUE: Landlock and
 * the namespaces hold whatever the observer thinks), except for the calls
 * refused everywhere, answered with their errno.  An act that would change
 * a file outside the scratch folder, read a secret or reach the network
 * is recorded, then the process that made the call is SIGKILLed before
 * its call returns, with the harness's child it descends from (a worker,
 * never the zygote that forked it); so does any other refused act (a
 * read outside what it may read, a change below /proc): each is a
 * finding.  A process whose listener is gone (the observer died) gets
 * ENOSYS for every observed call: still refused.
 * Depends on libseccomp, sandbox_int.h, util.h, pthreads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/base.h"
#include "sandbox_int.h"

typedef struct listener {
    int fd;                     /* of a zygote or a spawned process; its
                                   forks and children share it */
} listener;

typedef struct stop_record {
    pid_t pid;
    char what[SANDBOX_ACT_BYTES];
} stop_record;

struct sandbox_watch {
    const sandbox_policy *p;
    int sock[2];                /* [0] ours, [1] the confined processes' */
    int wake[2];                /* a byte on [1] ends the thread */
    pthread_t thread;
    pthread_mutex_t lock;       /* stops and sum */
    listener *ls;               /* the thread's own */
    int nls;
    stop_record *stops;
    int nstops;
    sandbox_summary sum;
    struct seccomp_notif *req;
    struct seccomp_notif_resp *resp;
};

/*
 * Receives one confined process's hello: takes the fd it names (its
 * listener, or with `probe` any fd, to try) through a pidfd, keeps the
 * facts of a hello that is no probe, and answers with a signal to that
 * process alone (sandbox_confine.c): SIGURG taken (or nothing to take),
 * SIGWINCH not.
 */
static void receive_hello(sandbox_watch *w)
{
    sandbox_hello h;
    /* the process is the one the kernel says sent the hello (SO_PASSCRED,
     * set before any process had the socket), never the pid written in
     * it: a hello naming another process would have the observer take
     * that one's descriptors and signal it */
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(struct ucred))];
    } control;
    struct iovec iov = {&h, sizeof h};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1,
                       .msg_control = control.buf, .msg_controllen = sizeof control.buf};
    if (recvmsg(w->sock[0], &m, MSG_DONTWAIT) != (ssize_t)sizeof h)
        return;
    pid_t sender = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
            c->cmsg_len == CMSG_LEN(sizeof(struct ucred))) {
            struct ucred cred;
            memcpy(&cred, CMSG_DATA(c), sizeof cred);
            sender = cred.pid;
        }
    if (sender <= 0)
        return;     /* no credentials: from no process the kernel names */
    int pidfd = (int)syscall(SYS_pidfd_open, sender, 0);
    int fd = pidfd >= 0 && h.fd >= 0 ? (int)syscall(SYS_pidfd_getfd, pidfd, h.fd, 0) : -1;
    if (!h.probe) {
        h.facts.observed = fd >= 0;
        pthread_mutex_lock(&w->lock);
        w->sum.known = 1;
        w->sum.facts = h.facts;
        pthread_mutex_unlock(&w->lock);
    }
    if (fd >= 0 && h.probe) {
        close(fd);
    } else if (fd >= 0) {
        w->ls = xrealloc(w->ls, (size_t)(w->nls + 1) * sizeof *w->ls);
        w->ls[w->nls++] = (listener){fd};
    }
    if (pidfd < 0)
        return;     /* it is gone */
    int answer = fd >= 0 || h.fd < 0 ? SIGURG : SIGWINCH;
    if (syscall(SYS_pidfd_send_signal, pidfd, answer, NULL, 0) != 0) {
        /* it died meanwhile */
    }
    close(pidfd);
}

/*
 * `what` with the numbers of "/proc/N/" and "/task/N/" spelled PID and
 * TID, into out[SANDBOX_ACT_BYTES]: an act every worker and thread repeats
 * (a runtime naming its threads through /proc/self/task/N/comm) is one
 * note, not one per thread.
 */
static void note_key(const char *what, char *out)
{
    size_t n = 0;
    for (const char *s = what; *s && n + 4 < SANDBOX_ACT_BYTES;) {
        const char *word = !strncmp(s, "/proc/", 6) ? "PID" : !strncmp(s, "/task/", 6) ? "TID"
                                                                                       : NULL;
        if (word && s[6] >= '0' && s[6] <= '9') {
            n += (size_t)snprintf(out + n, SANDBOX_ACT_BYTES - n, "%.6s%s", s, word);
            for (s += 6; *s >= '0' && *s <= '9'; s++)
                ;
        } else {
            out[n++] = *s++;
        }
    }
    out[n < SANDBOX_ACT_BYTES ? n : SANDBOX_ACT_BYTES - 1] = '\0';
}

static void note(sandbox_watch *w, const char *act)
{
    char what[SANDBOX_ACT_BYTES];
    note_key(act, what);
    pthread_mutex_lock(&w->lock);
    int seen = 0;
    for (int i = 0; i < w->sum.nnotes && !seen; i++)
        seen = !strcmp(w->sum.notes[i], what);
    if (!seen && w->sum.nnotes < SANDBOX_NOTES)
        snprintf(w->sum.notes[w->sum.nnotes++], SANDBOX_ACT_BYTES, "%s", what);
    else if (!seen)
        w->sum.more_notes = 1;
    pthread_mutex_unlock(&w->lock);
}

/*
 * The process a call of thread `tid` stops: the child of the harness that
 * thread's process is or descends from (a worker, which a zygote forks
 * with the harness as its parent; a spawned process, the zygote itself
 * only for what the candidate did while it loaded there).  Its own
 * process when that chain cannot be read (it, or one on the way, ended).
 */
static pid_t stopped_process(pid_t tid)
{
    pid_t self = getpid(), caller = sandbox_proc_field(tid, "Tgid:");
    if (caller <= 0)
        return tid;
    pid_t p = caller;
    for (int depth = 0; depth < 64; depth++) {
        pid_t up = sandbox_proc_field(p, "PPid:");
        if (up == self)
            return p;
        if (up <= 1)
            break;
        p = up;
    }
    return caller;
}

/* Records why the process of thread `tid` and the harness's child it
 * descends from are stopped (under the latter's pid, which the engine
 * asks about when it sees that child die), then kills both. */
static void stop(sandbox_watch *w, pid_t tid, const char *what)
{
    pid_t top = stopped_process(tid);
    pthread_mutex_lock(&w->lock);
    w->stops = xrealloc(w->stops, (size_t)(w->nstops + 1) * sizeof *w->stops);
    w->stops[w->nstops].pid = top;
    char *s = w->stops[w->nstops++].what;
    memcpy(s, "tried to ", 9);
    snprintf(s + 9, SANDBOX_ACT_BYTES - 9, "%.*s", SANDBOX_ACT_BYTES - 10, what);
    pthread_mutex_unlock(&w->lock);
    kill(tid, SIGKILL);     /* a thread's id names its process */
    kill(top, SIGKILL);
}

/* Answers one notification of listener `l`. */
static void answer(sandbox_watch *w, const listener *l)
{
    memset(w->req, 0, sizeof *w->req);
    if (seccomp_notify_receive(l->fd, w->req) != 0)
        return;     /* the caller died meanwhile */
    char what[SANDBOX_ACT_BYTES];
    int refuse;
    act_outcome o = sandbox_act_judge(w->p, w->req, what, &refuse);
    /* what was read belongs to this call of this process, still waiting */
    if (seccomp_notify_id_valid(l->fd, w->req->id) != 0)
        return;
    if (o == ACT_OWN_NAME && sandbox_act_open_own_name(l->fd, w->req, what) == 0)
        return;     /* answered: the fd is the call's result */
    if (o == ACT_OWN_NAME)
        refuse = EACCES;
    if (o == ACT_OWN_OWNER) {
        /* answered: the observer set the owner, the call returns its result */
        int rc = sandbox_owner_set(l->fd, w->req);
        memset(w->resp, 0, sizeof *w->resp);
        w->resp->id = w->req->id;
        w->resp->error = rc;
        if (seccomp_notify_respond(l->fd, w->resp) != 0) {
            /* the caller is gone */
        }
        return;
    }
    /* every refused act is a finding: a note's act stops its worker too,
     * and the report names it; a note with no words (its path could not
     * be read) is kept among the notes only */
    int stopped = o == ACT_STOP || (o == ACT_NOTE && what[0]);
    if (stopped)
        stop(w, (pid_t)w->req->pid, what);
    else if (o == ACT_NOTE)
        note(w, "an act whose path could not be read");
    memset(w->resp, 0, sizeof *w->resp);
    w->resp->id = w->req->id;
    if (refuse || stopped)
        w->resp->error = -(refuse ? refuse : EACCES);
    else
        w->resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    if (seccomp_notify_respond(l->fd, w->resp) != 0) {
        /* the caller is gone (killed): nothing waits for the answer */
    }
}

static void *watch_main(void *arg)
{
    sandbox_watch *w = arg;
    struct pollfd *f = NULL;
    for (;;) {
        f = xrealloc(f, (size_t)(w->nls + 2) * sizeof *f);
        f[0] = (struct pollfd){w->wake[0], POLLIN, 0};
        f[1] = (struct pollfd){w->sock[0], POLLIN, 0};
        for (int i = 0; i < w->nls; i++)
            f[i + 2] = (struct pollfd){w->ls[i].fd, POLLIN, 0};
        int nls = w->nls;
        if (poll(f, (nfds_t)nls + 2, -1) < 0 && errno != EINTR)
            break;
        if (f[0].revents)
            break;
        int kept = 0;
        for (int i = 0; i < nls; i++) {
            if (f[i + 2].revents & POLLIN)
                answer(w, &w->ls[i]);
            else if (f[i + 2].revents & (POLLHUP | POLLERR | POLLNVAL)) {
                close(w->ls[i].fd);     /* every process of its filter ended */
                continue;
            }
            w->ls[kept++] = w->ls[i];
        }
        w->nls = kept;
        if (f[1].revents & POLLIN)
            receive_hello(w);
    }
    free(f);
    return NULL;
}

sandbox_watch *sandbox_watch_start(const sandbox_policy *p, char **err)
{
    sandbox_watch *w = xcalloc(1, sizeof *w);
    w->p = p;
    pthread_mutex_init(&w->lock, NULL);
    int sp = socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, w->sock);
    int on = 1;
    int cred = sp == 0 ? setsockopt(w->sock[0], SOL_SOCKET, SO_PASSCRED, &on, sizeof on) : -1;
    int pp = cred == 0 ? pipe2(w->wake, O_CLOEXEC) : -1;
    if (cred != 0 || pp != 0 || seccomp_notify_alloc(&w->req, &w->resp) != 0) {
        *err = xasprintf("cannot start the sandbox's observer: %s", strerror(errno));
        if (sp == 0) {
            close(w->sock[0]);
            close(w->sock[1]);
        }
        if (pp == 0) {
            close(w->wake[0]);
            close(w->wake[1]);
        }
        pthread_mutex_destroy(&w->lock);
        free(w);
        return NULL;
    }
    /* above the fds a confined process gets (0 to SANDBOX_FD_WATCH), so
     * that setting those up never overwrites it */
    int high = fcntl(w->sock[1], F_DUPFD_CLOEXEC, 10);
    if (high >= 0) {
        close(w->sock[1]);
        w->sock[1] = high;
    }
    int n;
    sandbox_act_calls(&n);      /* numbers resolved before any notification */
    if (pthread_create(&w->thread, NULL, watch_main, w) != 0)
        die(EXIT_HARNESS, "cannot start the sandbox's observer thread");
    return w;
}

int sandbox_watch_worker_fd(const sandbox_watch *w)
{
    return w->sock[1];
}

int sandbox_watch_take_stop(sandbox_watch *w, pid_t pid, char *buf, size_t size)
{
    int found = 0;
    pthread_mutex_lock(&w->lock);
    for (int i = 0; i < w->nstops && !found; i++) {
        if (w->stops[i].pid != pid)
            continue;
        snprintf(buf, size, "%s", w->stops[i].what);
        w->stops[i] = w->stops[--w->nstops];
        found = 1;
    }
    pthread_mutex_unlock(&w->lock);
    return found;
}

void sandbox_watch_summary(sandbox_watch *w, sandbox_summary *out)
{
    pthread_mutex_lock(&w->lock);
    *out = w->sum;
    pthread_mutex_unlock(&w->lock);
}

void sandbox_watch_stop(sandbox_watch *w)
{
    if (!w)
        return;
    char c = 'x';
    if (write(w->wake[1], &c, 1) != 1) {
        /* the pipe is ours and empty: cannot fail */
    }
    pthread_join(w->thread, NULL);
    for (int i = 0; i < w->nls; i++)
        close(w->ls[i].fd);
    close(w->sock[0]);
    close(w->sock[1]);
    close(w->wake[0]);
    close(w->wake[1]);
    seccomp_notify_free(w->req, w->resp);
    pthread_mutex_destroy(&w->lock);
    free(w->ls);
    free(w->stops);
    free(w);
}
