/*
 * worker_exe.h - the program a slot's processes run (worker_exe.c): the
 * parent spawns it, the policy lets a confined process read it.  Depends
 * on nothing.
 */
#ifndef HARNESS_WORKER_EXE_H
#define HARNESS_WORKER_EXE_H

/* The program a slot's processes run: reshape-conform-worker beside the
 * running executable, else (installed) in ../libexec/reshape-conform/
 * from it, else the harness itself (/proc/self/exe), whose `__worker`
 * command runs the same code.  Allocated. */
char *engine_worker_exe(void);

#endif
