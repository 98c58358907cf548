/*
 * fuzz.h - the fuzz layer's door (harness/ARCHITECTURE.md): random cases
 * (fuzz_case.h: generated, given the reference's outcome, shrunk, written
 * as YAML) and the fuzzing session that runs them on a candidate through
 * the engine and groups what fails (fuzz_run.h).  Uses every layer up to
 * report/.
 */
#ifndef HARNESS_FUZZ_H
#define HARNESS_FUZZ_H

#include "fuzz_case.h"
#include "fuzz_run.h"

#endif
