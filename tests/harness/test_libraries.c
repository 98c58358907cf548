/*
 * test_libraries.c - certificates pin what they certify: `run --libraries`
 * records every shared object the workers mapped (the candidate, a
 * library it links, the C library with its Debian package), `certify`
 * puts them in libraries.sha256, `verify` checks that member against the
 * report, and `verify --rerun` fails, naming the library, when one of the
 * candidate's libraries was swapped, or libc was (unless
 * --allow-system-updates).  The swapped library is built here, twice, with
 * the system's cc.
 */
#include "forge.h"

/* A helper library and a candidate linked against it, built in `dir`:
 * the helper returns `value` (so two builds differ in their bytes). */
static void build_with_helper(const char *dir, int value)
{
    char top[512];
    cr_assert(getcwd(top, sizeof top));
    cr_assert_eq(sh_status("cd %s && printf 'int swap_helper_value(void) { return %d; }\\n' >helper.c"
                          " && cc -shared -fPIC -Wl,-soname,libswap_helper.so.1 helper.c -o "
                          "libswap_helper.so.1 && ln -sf libswap_helper.so.1 libswap_helper.so",
                          dir, value), 0);
    cr_assert_eq(sh_status("cd %s && printf '#include \"tests/harness/candidates/base.h\"\\n"
                          "int swap_helper_value(void);\\n"
                          "__attribute__((constructor)) static void use(void) "
                          "{ (void)swap_helper_value(); }\\n' >cand.c && "
                          "cc -std=c11 -shared -fPIC -fvisibility=hidden -I%s/include -I%s cand.c "
                          "-o cand.so -L. -Wl,--no-as-needed -lswap_helper -Wl,-rpath,%s",
                          dir, top, top, dir), 0);
}

static json_t *library(json_t *report, const char *soname)
{
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(report, "libraries"), i, l)
        if (!strcmp(field(l, "soname"), soname))
            return l;
    return NULL;
}

/* The run's last request killed its worker, and a candidate that starts a
 * thread while loading has no zygote to read instead: a worker is loaded
 * for the record (xtensor's run had none, and no bundle). */
Test(libraries, a_run_whose_last_worker_died_still_records_them)
{
    run r = run_harness("--candidate " CANDS "ctor_thread.so --cases " BASIC
                        " --filter trigger_f32 --variants dense --jobs 1 --libraries --quiet");
    cr_assert_eq(r.code, 1, "%s%s", r.out, r.err);
    cr_expect_null(strstr(r.err, "records no libraries"), "%s", r.err);
    json_t *cand = json_array_get(json_object_get(r.report, "libraries"), 0);
    cr_assert(cand, "no libraries: %s", r.err);
    cr_expect_str_eq(field(cand, "role"), "candidate");
    cr_expect(strstr(field(cand, "path"), "ctor_thread.so"), "%s", field(cand, "path"));
    cr_expect(library(r.report, "libc.so.6"), "no libc.so.6 among the libraries");
    run_free(&r);
}

Test(libraries, a_run_records_what_its_workers_mapped)
{
    run r = run_harness("--candidate " CANDS "good.so --cases " BASIC " --libraries --quiet");
    cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
    json_t *libs = json_object_get(r.report, "libraries");
    cr_assert(json_array_size(libs) > 2, "%s", r.err);
    json_t *cand = json_array_get(libs, 0);
    cr_expect_str_eq(field(cand, "role"), "candidate");
    cr_expect(strstr(field(cand, "path"), "/build/tests/harness_cands/good.so"));
    char sha[65];
    cr_assert_eq(sha256_file(CANDS "good.so", sha), 0);
    cr_expect_str_eq(field(cand, "sha256"), sha);
    json_t *libc = library(r.report, "libc.so.6");
    cr_assert(libc, "no libc.so.6 among the libraries");
    cr_expect_str_eq(field(libc, "role"), "harness");
    cr_expect(!strncmp(field(libc, "package"), "libc6:", 6), "libc's package: '%s'",
              field(libc, "package"));
    /* the harness executable itself is no library of the candidate */
    size_t i;
    json_t *l;
    json_array_foreach(libs, i, l)
        cr_expect_null(strstr(field(l, "path"), "reshape-conform"), "%s", field(l, "path"));
    run_free(&r);
    /* without --libraries, nothing is recorded (it costs the hashing) */
    r = run_harness("--candidate " CANDS "good.so --cases " BASIC " --quiet");
    cr_expect_null(json_object_get(r.report, "libraries"));
    run_free(&r);
}

Test(libraries, a_swapped_library_fails_the_rerun_naming_it, .timeout = 240)
{
    forge f;
    forge_init(&f);
    build_with_helper(f.dir, 1);
    cr_assert_eq(sh_status("%s certify --candidate %s/cand.so --cases " BASIC " --out %s/out "
                          "--quiet >%s/log 2>&1", harness_bin(), f.dir, f.dir, f.dir), 0);
    char *out;
    char args[256];
    snprintf(args, sizeof args, "--cases " BASIC " --rerun %s/cand.so", f.dir);
    cr_expect_eq(verify(f.path, args, &out), 0, "%s", out);
    HAS(out, "every library as the bundle pins it");
    free(out);
    /* the library's member lists the helper, and sha256sum can check it */
    cr_expect_eq(sh_status("cd %s && tar xzf out/harness-test-1.tar.gz && cd harness-test-1 && "
                          "grep -q '  %s/libswap_helper.so.1$' libraries.sha256 && "
                          "sha256sum --quiet -c libraries.sha256", f.dir, f.dir), 0);
    /* the same candidate file, another build of the library it links */
    build_with_helper(f.dir, 2);
    cr_expect_eq(verify(f.path, args, &out), 1, "%s", out);
    HAS(out, "problem: rerun-library-mismatch: libswap_helper.so.1: the bundle certifies sha256 ");
    HAS(out, "libraries differ from the bundle's");
    free(out);
    /* no system library: the option does not let it pass */
    snprintf(args, sizeof args, "--cases " BASIC " --rerun %s/cand.so --allow-system-updates",
             f.dir);
    cr_expect_eq(verify(f.path, args, &out), 1, "%s", out);
    HAS(out, "problem: rerun-library-mismatch: libswap_helper.so.1: ");
    free(out);
    forge_free(&f);
}

Test(libraries, libc_may_differ_only_with_allow_system_updates, .timeout = 240)
{
    forge f;
    forge_certify(&f, "good", BASIC);
    cr_assert_eq(f.code, 0);
    /* as if the host's libc had a security update since */
    json_t *r = member(&f.b, "report.json");
    json_t *libc = library(r, "libc.so.6");
    cr_assert(libc);
    json_object_set_new(libc, "sha256", json_string("0000000000000000000000000000000000000000000"
                                                    "000000000000000000000"));
    char *libs = libraries_manifest(r);
    bundle_add(&f.b, BUNDLE_LIBRARIES, libs, strlen(libs));
    free(libs);
    put_report(&f, r);
    forge_write(&f);
    char *out;
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 0, "consistent: %s", out);
    free(out);
    cr_expect_eq(verify(f.forged, "--cases " BASIC " --rerun " CANDS "good.so", &out), 1, "%s",
                 out);
    HAS(out, "problem: rerun-library-mismatch: libc.so.6: the bundle certifies sha256 "
             "000000000000... (/usr/lib/x86_64-linux-gnu/libc.so.6, libc6:");
    free(out);
    cr_expect_eq(verify(f.forged, "--cases " BASIC " --rerun " CANDS "good.so "
                        "--allow-system-updates", &out), 0, "%s", out);
    HAS(out, "note: libc.so.6: the bundle certifies sha256 000000000000...");
    HAS(out, "(allowed by --allow-system-updates)");
    free(out);
    forge_free(&f);
}

Test(libraries, libraries_sha256_must_be_the_reports, .timeout = 120)
{
    forge f;
    forge_certify(&f, "good", BASIC);
    cr_assert_eq(f.code, 0);
    bundle_add(&f.b, BUNDLE_LIBRARIES, "x  /lib/libfake.so\n", 19);
    forge_write(&f);
    char *out;
    cr_expect_eq(verify(f.forged, "--cases " BASIC, &out), 1, "%s", out);
    HAS(out, "problem: libraries-mismatch: member 'libraries.sha256' is not the report's "
             "libraries");
    free(out);
    forge_free(&f);
}
