/*
 * base.h - the base layer's door (harness/ARCHITECTURE.md), the bottom of
 * the harness: allocation that cannot fail, growing strings, messages and
 * exit codes, paths, the clock (util.h), and writing a file so that it
 * appears whole or not at all (atomic_write.h), whether the build is under
 * AddressSanitizer (sanitizer.h).  Uses libc only.
 */
#ifndef HARNESS_BASE_H
#define HARNESS_BASE_H

#include "util.h"
#include "atomic_write.h"
#include "sanitizer.h"

#endif
