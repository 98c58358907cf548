/*
 * sanitizer.h - HARNESS_ASAN, defined (to 1) in a build under
 * AddressSanitizer, whichever compiler made it: GCC says so with
 * __SANITIZE_ADDRESS__, clang 14 (the fuzz targets' compiler) only through
 * __has_feature(address_sanitizer).  Code that must not bound or measure
 * what ASan's shadow memory and quarantine inflate tests it.
 */
#ifndef HARNESS_SANITIZER_H
#define HARNESS_SANITIZER_H

#if defined(__SANITIZE_ADDRESS__)
#define HARNESS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HARNESS_ASAN 1
#endif
#endif

#endif
