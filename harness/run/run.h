/*
 * run.h - the run layer's door (harness/ARCHITECTURE.md): the settings
 * of a run and their parsers (options.h), which cases it takes (select.h),
 * its jobs driven through the engine's slots, each staged and judged by
 * the slot's thread (schedule.h), the verdicts of a candidate that does
 * not load (load_failure.h), the skips of its declared limits
 * (limits.h), and the execute after an accepted error case (followup.h).  Uses base/, suite/, engine/ and judge/.
 */
#ifndef HARNESS_RUN_H
#define HARNESS_RUN_H

#include "options.h"
#include "select.h"
#include "schedule.h"
#include "load_failure.h"
#include "limits.h"
#include "followup.h"

#endif
