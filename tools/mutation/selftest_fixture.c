/*
 * selftest_fixture.c - input of selftest.py, never built into anything.
 * Operators and constants in comments and strings must not be mutated:
 * a < b, a + 1, x == 2, i++
 */
#include <string.h>

static const char *label = "a < b + 1 == 2";

int fixture(int a, int b)
{
    /* a <= b - 3 */
    if (a < b) // b > a + 4
        return strlen(label) + 7;
    return a;
}
