/*
 * runner_lsan_test.c - tests/common/runner_lsan.c keeps LeakSanitizer on
 * where tests run.  It turns the leak check off only in Criterion's runner,
 * which it recognises by the missing BXFI_MAP; if a Criterion upgrade
 * stopped setting BXFI_MAP in test children, leaks in code under test would
 * go unreported, and this test fails.  Only the sanitized binary links
 * runner_lsan.o; in the plain one the weak symbol is absent and the test
 * says so.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

int __lsan_is_turned_off(void) __attribute__((weak));

Test(runner_lsan, leak_check_on_in_test_children)
{
    if (__lsan_is_turned_off == NULL) {
        cr_skip_test("plain build: runner_lsan.o is linked into sanitized binaries only");
        return;
    }
    cr_assert_not_null(getenv("BXFI_MAP"), "Criterion no longer marks its test children");
    cr_assert_eq(__lsan_is_turned_off(), 0);
}
