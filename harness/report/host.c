/*
 * host.c - facts about the machine, the candidate file and the source
 * tree for the report (report.h).  Depends on libcrypto (SHA-256),
 * jansson, and POSIX.
 */
#include <openssl/evp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "report.h"

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

int sha256_fd(int fd, char out[65])
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
    unsigned char buf[1 << 16];
    ssize_t n;
    while (ok && (n = read(fd, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        ok = n > 0 && EVP_DigestUpdate(ctx, buf, (size_t)n);
    }
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    ok = ok && EVP_DigestFinal_ex(ctx, d, &len) && len == 32;
    EVP_MD_CTX_free(ctx);
    if (!ok)
        return -1;
    for (unsigned i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
    return 0;
}

int sha256_file(const char *path, char out[65])
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = sha256_fd(fd, out);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

char *git_commit(const char *dir)
{
    char *argv[] = {"git", "-C", (char *)dir, "rev-parse", "HEAD", NULL};
    int st;
    char *out = run_capture(argv, 128, &st);
    if (out)
        out[strcspn(out, "\n")] = '\0';
    if (!out || st != 0 || strlen(out) < 40 || strspn(out, "0123456789abcdef") != strlen(out)) {
        free(out);
        return xstrdup("unknown");
    }
    return out;
}

void utc_now(char out[32])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
