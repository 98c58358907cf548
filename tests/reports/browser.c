/*
 * browser.c - report.html in a real headless browser (Debian's chromium):
 * it loads from a file:// URL with no console error and no error caught by
 * the page's own recorder (templates/errors.js), shows the verdict, runs its
 * filter, and leaves a screenshot for a person to look at.  A control test
 * proves both error checks catch a broken page.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <criterion/criterion.h>

#include "support.h"

#define BROWSER "chromium"
#define BROWSER_TIMEOUT_S 120.0

/* Runs the browser on the file `html` with `action` (--dump-dom or
 * --screenshot=...) and a fresh profile in `dir`/profile, logs kept in
 * `dir`.  The DOM dump is r->out; console messages are the lines of r->err
 * with ":CONSOLE". */
static void browse(rt_result *r, const char *html, const char *action, const char *dir)
{
    char abs[PATH_MAX], abs_dir[PATH_MAX], url[PATH_MAX + 16], profile_arg[PATH_MAX + 32];
    cr_assert_not_null(realpath(html, abs), "no page at \"%s\"", html);
    snprintf(url, sizeof url, "file://%s", abs);
    /* A fresh, empty profile for every run, removed afterwards. */
    cr_assert_not_null(realpath(dir, abs_dir), "no folder \"%s\"", dir);
    char *profile = rt_join(abs_dir, "profile");
    cr_assert_eq(rt_remove_tree(profile), 0, "cannot empty \"%s\"", profile);
    cr_assert_eq(mkdir(profile, 0700), 0, "cannot make a browser profile folder \"%s\"", profile);
    snprintf(profile_arg, sizeof profile_arg, "--user-data-dir=%s", profile);
    char *argv[] = {
        BROWSER, "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--disable-dev-shm-usage", "--hide-scrollbars",
        "--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000",
        "--window-size=1280,2000", profile_arg, (char *)action, url, NULL};
    int started = rt_run(r, argv, dir, BROWSER_TIMEOUT_S);
    rt_remove_tree(profile);
    free(profile);
    cr_assert_eq(started, 0, "cannot start " BROWSER " (install Debian's chromium: make deps)");
    cr_assert(!r->timed_out, BROWSER " did not finish within %.0f s", BROWSER_TIMEOUT_S);
    cr_assert_eq(r->exit_code, 0, BROWSER " exited %d (signal %d):\n%s", r->exit_code, r->signal, r->err);
}

/* The first line of `log` that is a console message, or NULL. */
static const char *console_line(const char *log)
{
    return strstr(log, ":CONSOLE");
}

/* Renders `fixture`, opens it, and asserts the page loaded cleanly: the
 * recorder marked it loaded and counted no error, and the browser logged no
 * console message.  Returns the DOM dump; `*dir` gets the workdir. */
static char *load_clean(const char *fixture, const char *name, char **dir)
{
    free(rt_render_fixture(fixture, name, "report.html", dir));
    char *html = rt_join(*dir, "report.html");
    rt_result r;
    browse(&r, html, "--dump-dom", *dir);
    cr_assert_not_null(strstr(r.out, "data-page-state=\"loaded\""),
                       "the page did not finish loading (or its recorder did not run)");
    cr_assert_null(strstr(r.out, "data-page-errors="), "the page recorded errors: %.400s",
                   strstr(r.out, "data-page-error"));
    const char *console = console_line(r.err);
    cr_assert_null(console, "the browser logged a console message: %.300s", console);
    free(r.err);
    free(html);
    return r.out;
}

Test(browser, conformant_page_loads_clean_and_shows_the_verdict, .timeout = 180)
{
    char *dir;
    char *dom = load_clean("conformant.json", "browser_conformant", &dir);
    cr_assert_not_null(strstr(dom, "<div class=\"verdict\">CONFORMANT</div>"), "no verdict banner");
    cr_assert_not_null(strstr(dom, "<div class=\"who\">fixture-kernel 2.3</div>"));
    free(dom);
    free(dir);
}

Test(browser, nonconformant_page_loads_clean_and_runs_no_injected_script, .timeout = 180)
{
    char *dir;
    char *dom = load_clean("nonconformant.json", "browser_nonconformant", &dir);
    cr_assert_not_null(strstr(dom, "<div class=\"verdict\">NONCONFORMANT</div>"), "no verdict banner");
    /* The detail's <script> is text in the DOM, not an element. */
    cr_assert_not_null(strstr(dom, "returned OK for an error case &lt;script&gt;alert('x')&lt;/script&gt;"));
    cr_assert_eq(rt_count(dom, "<script"), 2, "only the page's own 2 scripts are elements");
    free(dom);
    free(dir);
}

/* The control: a page with a blocked outside image and a script the policy
 * refuses must be caught by both checks, or the checks above prove nothing. */
Test(browser, error_checks_catch_a_broken_page, .timeout = 180)
{
    char *dir;
    char *page = rt_render_fixture("nonconformant.json", "browser_broken", "report.html", &dir);
    const char inject[] = "<img src=\"https://example.invalid/x.png\"><script>nosuch()</script>";
    char *end = strstr(page, "</body>");
    cr_assert_not_null(end);
    size_t head = (size_t)(end - page), len = strlen(page);
    char *broken = malloc(len + sizeof inject);
    cr_assert_not_null(broken);
    memcpy(broken, page, head);
    memcpy(broken + head, inject, sizeof inject - 1);
    memcpy(broken + head + sizeof inject - 1, end, len - head + 1);
    char *path = rt_join(dir, "broken.html");
    cr_assert_eq(rt_write(path, broken, strlen(broken)), 0);

    rt_result r;
    browse(&r, path, "--dump-dom", dir);
    cr_assert_not_null(strstr(r.out, "data-page-errors="), "the recorder missed the errors");
    cr_assert_not_null(strstr(r.out, "blocked https://example.invalid/x.png by img-src"),
                       "the recorder did not name the blocked image");
    cr_assert_not_null(console_line(r.err), "the browser logged no console message");
    rt_run_free(&r);
    free(path);
    free(broken);
    free(page);
    free(dir);
}

/* page.js: typing in the filter hides the cases that do not match.  The
 * test types with a script of its own, so the copy it opens drops the
 * Content-Security-Policy that would (rightly) refuse that script. */
Test(browser, filter_hides_cases_that_do_not_match, .timeout = 180)
{
    char *dir;
    char *page = rt_render_fixture("nonconformant.json", "browser_filter", "report.html", &dir);
    char *csp = strstr(page, "<meta http-equiv=\"Content-Security-Policy\"");
    cr_assert_not_null(csp);
    char *csp_end = strchr(csp, '>');
    memset(csp, ' ', (size_t)(csp_end - csp + 1));
    const char typing[] =
        "<script>window.addEventListener('load', function () {"
        " var f = document.getElementById('case-filter'); f.value = 'crash';"
        " f.dispatchEvent(new Event('input')); });</script>";
    char *end = strstr(page, "</body>");
    size_t head = (size_t)(end - page), len = strlen(page);
    char *typed = malloc(len + sizeof typing);
    cr_assert_not_null(typed);
    memcpy(typed, page, head);
    memcpy(typed + head, typing, sizeof typing - 1);
    memcpy(typed + head + sizeof typing - 1, end, len - head + 1);
    char *path = rt_join(dir, "typed.html");
    cr_assert_eq(rt_write(path, typed, strlen(typed)), 0);

    rt_result r;
    browse(&r, path, "--dump-dom", dir);
    cr_assert_null(strstr(r.out, "data-page-errors="), "%.300s", strstr(r.out, "data-page-error"));
    cr_assert_not_null(strstr(r.out, "<span id=\"case-filter-count\" class=\"muted\">1 of 3 shown</span>"),
                       "the filter count is wrong");
    cr_assert_not_null(strstr(r.out, "<div class=\"case\" id=\"case-onednn_static_two_minus_ones\" "
                                     "data-search=\"onednn_static_two_minus_ones onednn_static_reshape_1 bf16 "
                                     "crash timeout flood accepted_invalid infer in_place repeat dense\">"),
                       "the crashing case should stay shown");
    cr_assert_not_null(strstr(r.out, "id=\"case-openvino_example_2_copy_first_infer_second\""));
    cr_assert_not_null(strstr(r.out, "in_place infer\" hidden=\"\">"), "the FAIL case should be hidden");
    rt_run_free(&r);
    free(path);
    free(typed);
    free(page);
    free(dir);
}

/* Big-endian 32-bit integer at `p`. */
static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

Test(browser, screenshot_for_a_person, .timeout = 180)
{
    char *dir;
    free(rt_render_fixture("nonconformant.json", "browser_screenshot", "report.html", &dir));
    char *html = rt_join(dir, "report.html");
    /* REPORTS_TEST_DIR/report.png: the picture to open after a run. */
    char *shot = rt_join(dir, "../report.png");
    char action[PATH_MAX + 16];
    snprintf(action, sizeof action, "--screenshot=%s", shot);
    remove(shot);
    rt_result r;
    browse(&r, html, action, dir);
    size_t len = 0;
    unsigned char *png = (unsigned char *)rt_read(shot, &len);
    cr_assert_not_null(png, "no screenshot at \"%s\"", shot);
    cr_assert_geq(len, 24u);
    cr_assert_eq(memcmp(png, "\x89PNG\r\n\x1a\n", 8), 0, "not a PNG");
    cr_assert_eq(memcmp(png + 12, "IHDR", 4), 0, "no PNG header chunk");
    cr_assert_eq(be32(png + 16), 1280u, "width");
    cr_assert_eq(be32(png + 20), 2000u, "height");
    /* A blank 1280x2000 page compresses to a few KiB; this one has text,
     * tables and colour. */
    cr_assert_gt(len, 60000u, "the screenshot is suspiciously small (%zu bytes)", len);
    rt_run_free(&r);
    free(png);
    free(shot);
    free(html);
    free(dir);
}
