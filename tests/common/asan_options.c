/*
 * asan_options.c - AddressSanitizer's defaults in the sanitized Criterion
 * binaries (build/san/tests/...): intercept_strstr=0.
 *
 * libcriterion starts libgit2 in every process it runs (its runner, and
 * each test's child, which it starts by exec'ing the binary), and libgit2
 * then loads the system's CA bundle (/etc/ssl/certs/ca-certificates.crt,
 * about 140 certificates) through mbedtls, which finds each certificate
 * with strstr over the rest of the file.  ASan's strstr interceptor
 * measures that whole rest on every call: about 20 ms of CPU a process
 * (measured: 200 empty tests took 10.7 CPU-s under ASan, 6.5 with this
 * option).
 *
 * What it costs: ASan no longer checks the bytes a strstr call reads, in
 * these binaries only; every other access, and every other string
 * function, is still checked.  The harness and the workers these tests
 * start (build/san/reshape-conform, reshape-conform-worker) keep ASan's
 * defaults, and ASAN_OPTIONS in the environment still overrides this.
 */
const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
    return "intercept_strstr=0";
}
