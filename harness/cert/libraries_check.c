/*
 * libraries_check.c - the shared objects a certificate pins (verify.h):
 * the bundle's libraries.sha256, what verify checks it against, and the
 * comparison of a rerun's libraries with the certified ones, each
 * difference a problem naming the library.  Depends on jansson, bundle.h
 * and verify_problem.c.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "verify.h"

/* The sonames of the C and C++ runtimes: with --allow-system-updates they
 * may differ from the certified ones (security updates of the host), as
 * may the harness's own libraries (role "harness"). */
static const char *const system_sonames[] = {
    "ld-linux", "libc.so.", "libm.so.", "libmvec.so.", "libpthread.so.", "libdl.so.",
    "librt.so.", "libresolv.so.", "libutil.so.", "libanl.so.", "libgcc_s.so.", "libstdc++.so.",
    "libatomic.so.",
};

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

char *libraries_manifest(json_t *report)
{
    json_t *libs = json_object_get(report, "libraries");
    if (!json_is_array(libs))
        return NULL;
    strbuf b;
    sb_init(&b);
    size_t i;
    json_t *l;
    json_array_foreach(libs, i, l)
        sb_addf(&b, "%s  %s\n", str(l, "sha256"), str(l, "path"));
    return sb_take(&b);
}

void libraries_member_check(checker *k, const bundle *b, json_t *report)
{
    const bundle_member *m = bundle_get(b, BUNDLE_LIBRARIES);
    char *want = libraries_manifest(report);
    if (!m && want)
        verify_problem(k, "member-missing", "no member '%s', but the report records libraries",
                       BUNDLE_LIBRARIES);
    else if (m && !want)
        verify_problem(k, "libraries-mismatch", "member '%s' is there, but the report records "
                       "no libraries", BUNDLE_LIBRARIES);
    else if (m && (m->size != strlen(want) || memcmp(m->data, want, m->size)))
        verify_problem(k, "libraries-mismatch", "member '%s' is not the report's libraries",
                       BUNDLE_LIBRARIES);
    free(want);
}

/* The name a library is matched by: "the candidate", its soname, or the
 * last part of its path. */
static const char *key_of(json_t *l)
{
    if (!strcmp(str(l, "role"), "candidate"))
        return "the candidate";
    if (*str(l, "soname"))
        return str(l, "soname");
    const char *slash = strrchr(str(l, "path"), '/');
    return slash ? slash + 1 : str(l, "path");
}

/* The libraries of `report` keyed by key_of. */
static json_t *by_key(json_t *report)
{
    json_t *o = json_object();
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(report, "libraries"), i, l)
        json_object_set(o, key_of(l), l);
    return o;
}

static int allowed(const char *key, json_t *a, json_t *b)
{
    if ((a && !strcmp(str(a, "role"), "harness")) || (b && !strcmp(str(b, "role"), "harness")))
        return 1;
    for (size_t i = 0; i < sizeof system_sonames / sizeof *system_sonames; i++)
        if (!strncmp(key, system_sonames[i], strlen(system_sonames[i])))
            return 1;
    return 0;
}

static const char *package(json_t *l)
{
    return *str(l, "package") ? str(l, "package") : "no package";
}

/* One difference: a problem, or a note when `allow` lets it differ. */
static void differ(checker *k, int allow, const char *key, json_t *was, json_t *now)
{
    char *what = !now ? xasprintf("loaded by the certified run (%s, sha256 %.12s..., %s), not "
                                  "by the rerun", str(was, "path"), str(was, "sha256"),
                                  package(was))
                 : !was ? xasprintf("loaded by the rerun from %s (sha256 %.12s..., %s), not by "
                                    "the certified run", str(now, "path"), str(now, "sha256"),
                                    package(now))
                        : xasprintf("the bundle certifies sha256 %.12s... (%s, %s), the rerun "
                                    "loaded %.12s... from %s (%s)", str(was, "sha256"),
                                    str(was, "path"), package(was), str(now, "sha256"),
                                    str(now, "path"), package(now));
    if (allow) {
        printf("note: %s: %s (allowed by --allow-system-updates)\n", key, what);
    } else {
        verify_problem(k, "rerun-library-mismatch", "%s: %s", key, what);
    }
    free(what);
}

int libraries_compare(checker *k, json_t *was, json_t *now, int allow_system)
{
    if (!json_is_array(json_object_get(was, "libraries")))
        return 0;   /* certified before libraries were recorded */
    if (!json_is_array(json_object_get(now, "libraries"))) {
        verify_problem(k, "rerun-library-mismatch", "the rerun could not record the libraries "
                       "its workers loaded (see its warning)");
        return 1;
    }
    json_t *a = by_key(was), *b = by_key(now);
    int problems = 0;
    const char *key;
    json_t *l;
    json_object_foreach(a, key, l) {
        json_t *r = json_object_get(b, key);
        if (r && !strcmp(str(l, "sha256"), str(r, "sha256")))
            continue;
        int allow = allow_system && allowed(key, l, r);
        problems += !allow;
        differ(k, allow, key, l, r);
    }
    json_object_foreach(b, key, l) {
        if (json_object_get(a, key))
            continue;
        int allow = allow_system && allowed(key, NULL, l);
        problems += !allow;
        differ(k, allow, key, NULL, l);
    }
    json_decref(a);
    json_decref(b);
    return problems;
}
