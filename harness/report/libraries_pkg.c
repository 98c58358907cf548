/*
 * libraries_pkg.c - the Debian package of each recorded shared object
 * (libraries.h, libraries_packages): `dpkg-query -S` over every path at
 * once, then `dpkg-query -W` for the versions of the packages it named.
 * Depends on jansson and util.h (run_capture); without dpkg-query every
 * package stays null.
 */
#include "libraries.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

/* The most bytes of dpkg-query's output read: ~100 bytes a line. */
#define PKG_OUTPUT_MAX (1u << 20)

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

/* The names dpkg registers `path` under: itself, and below /usr/lib also
 * /lib (merged /usr).  NULL when it holds a glob character, which
 * dpkg-query would read as a pattern. */
static int names_of(const char *path, const char *names[2])
{
    if (path[0] != '/' || strpbrk(path, "*?[\\"))
        return 0;
    names[0] = path;
    if (!strncmp(path, "/usr/lib/", 9)) {
        names[1] = path + 4;
        return 2;
    }
    return 1;
}

/*
 * Reads dpkg-query -S output "PKG[, PKG...]: PATH" into `owner` (PATH ->
 * the first PKG); diversion lines and anything else are skipped.
 */
static void read_owners(char *out, json_t *owner)
{
    for (char *save = NULL, *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char *sep = strstr(l, ": /");
        if (!sep || !strncmp(l, "diversion ", 10))
            continue;
        *sep = '\0';
        l[strcspn(l, ", ")] = '\0';
        json_object_set_new(owner, sep + 2, json_string(l));
    }
}

/* "PKG VERSION" lines of dpkg-query -W into `version` (PKG -> the line). */
static void read_versions(char *out, json_t *version)
{
    for (char *save = NULL, *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char *sp = strchr(l, ' ');
        if (!sp || !sp[1])
            continue;
        *sp = '\0';
        char *v = xasprintf("%s %s", l, sp + 1);
        sanitize_text(v);
        json_object_set_new(version, l, json_string(v));
        free(v);
    }
}

void libraries_packages(json_t *libs)
{
    size_t n = json_array_size(libs), i;
    char **argv = xmalloc((2 * n + 5) * sizeof *argv);
    int argc = 0;
    argv[argc++] = "dpkg-query";
    argv[argc++] = "-S";
    json_t *e;
    json_array_foreach(libs, i, e) {
        const char *names[2];
        int k = names_of(str(e, "path"), names);
        for (int j = 0; j < k; j++)
            argv[argc++] = (char *)names[j];
    }
    argv[argc] = NULL;
    int st;
    char *out = argc > 2 ? run_capture(argv, PKG_OUTPUT_MAX, &st) : NULL;
    json_t *owner = json_object(), *version = json_object();
    if (out) {
        read_owners(out, owner);
        free(out);
    }
    /* the versions of the packages named, once each */
    argc = 0;
    argv[argc++] = "dpkg-query";
    argv[argc++] = "-W";
    argv[argc++] = "-f";
    argv[argc++] = "${binary:Package} ${Version}\n";
    const char *path;
    json_t *pkg;
    json_object_foreach(owner, path, pkg) {
        int seen = 0;
        for (int j = 4; j < argc; j++)
            seen |= !strcmp(argv[j], json_string_value(pkg));
        if (!seen)
            argv[argc++] = (char *)json_string_value(pkg);
    }
    argv[argc] = NULL;
    out = argc > 4 ? run_capture(argv, PKG_OUTPUT_MAX, &st) : NULL;
    if (out) {
        read_versions(out, version);
        free(out);
    }
    json_array_foreach(libs, i, e) {
        const char *names[2];
        int k = names_of(str(e, "path"), names);
        for (int j = 0; j < k; j++) {
            const char *p = json_string_value(json_object_get(owner, names[j]));
            json_t *v = p ? json_object_get(version, p) : NULL;
            if (v) {
                json_object_set(e, "package", v);
                break;
            }
        }
    }
    json_decref(owner);
    json_decref(version);
    free(argv);
}
