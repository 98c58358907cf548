/*
 * host.c - facts about the machine, the candidate file and the source
 * tree for the report (report.h).  Depends on libcrypto (SHA-256),
 * jansson, and POSIX.
 */
#include <openssl/evp.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "report.h"

extern char **environ;

json_t *host_info(void)
{
    struct utsname u;
    char os[512] = "unknown", cpu[256] = "unknown";
    if (uname(&u) == 0)
        snprintf(os, sizeof os, "%s %s %s", u.sysname, u.release, u.machine);
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10))
                continue;
            char *colon = strchr(line, ':');
            if (colon) {
                snprintf(cpu, sizeof cpu, "%s", colon + 1 + (colon[1] == ' '));
                cpu[strcspn(cpu, "\n")] = '\0';
                sanitize_text(cpu);
            }
            break;
        }
        fclose(f);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return json_pack("{s:s, s:s, s:I, s:s}", "os", os, "cpu", cpu, "cores",
                     (json_int_t)(cores > 0 ? cores : 1), "compiler", "gcc " __VERSION__);
}

int sha256_file(const char *path, char out[65])
{
    size_t len;
    char *data = read_file(path, &len);
    if (!data)
        return -1;
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    int ok = EVP_Digest(data, len, d, &n, EVP_sha256(), NULL);
    free(data);
    if (!ok)
        return -1;
    for (unsigned i = 0; i < n && i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
    return 0;
}

char *git_commit(const char *dir)
{
    int fds[2];
    if (pipe(fds) != 0)
        return xstrdup("unknown");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {"git", "-C", (char *)dir, "rev-parse", "HEAD", NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, "git", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    char buf[128] = "";
    size_t got = 0;
    if (rc == 0) {
        ssize_t n;
        while (got < sizeof buf - 1 && (n = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0)
            got += (size_t)n;
        int st;
        waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            got = 0;
    }
    close(fds[0]);
    buf[got] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    if (strlen(buf) < 40 || strspn(buf, "0123456789abcdef") != strlen(buf))
        return xstrdup("unknown");
    return xstrdup(buf);
}

void utc_now(char out[32])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
