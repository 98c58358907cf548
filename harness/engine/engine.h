/*
 * engine.h - the engine layer's door (harness/ARCHITECTURE.md): the
 * parent's side of the worker protocol, running requests on a candidate
 * in isolated worker processes.  Public: worker.h (slots, submitting a
 * batch, waiting for it), sandbox_watch.h (the sandbox's observer) and
 * device_check.h (whether a candidate's device can be used here); with
 * them the doors of the layers below that its interface speaks in:
 * wire/wire.h (the arena, its records and the protocol) and proc/proc.h
 * (the sandbox's policy, reaping).  Never the worker side (worker/).
 * Private: engine_int.h, census.h, deadline.h, spawner.h, sandbox_int.h.
 * Uses base/, suite/, proc/ and wire/.
 */
#ifndef HARNESS_ENGINE_H
#define HARNESS_ENGINE_H

#include "proc/proc.h"
#include "wire/wire.h"
#include "worker.h"
#include "sandbox_watch.h"
#include "device_check.h"

#endif
