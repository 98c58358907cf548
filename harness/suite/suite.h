/*
 * suite.h - the suite layer's door (harness/ARCHITECTURE.md): the cases of
 * cases/FORMAT.md, loaded from YAML and validated, and the payload bytes
 * they define.  Public: case.h (the case model, loading a set of case
 * files, cases_sha256), abuse.h (the contract calls a case can ask for),
 * fill.h (payload fills, sub-byte access) and strided.h (extents,
 * overlaps and walks of strided tensors).  Uses
 * base/ only, and libyaml and libcrypto.
 */
#ifndef HARNESS_SUITE_H
#define HARNESS_SUITE_H

#include "abuse.h"
#include "case.h"
#include "fill.h"
#include "strided.h"

#endif
