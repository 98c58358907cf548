/*
 * sandbox_uid.h - the uid a confined process drops to, private to proc/:
 * sandbox_uid.c, for sandbox_policy.c.  Depends on sandbox.h.
 */
#ifndef HARNESS_SANDBOX_UID_H
#define HARNESS_SANDBOX_UID_H

#include "sandbox.h"

/*
 * As root: sets p->uid, p->gid to "nobody", "nogroup" (65534 where they
 * are missing) and p->drop: SANDBOX_DROP_FULL, or SANDBOX_DROP_FD when
 * that uid cannot read `candidate` or the folders of p->read from index
 * `first_own` on (the scratch folder is moved to /tmp first when it is
 * the one it cannot reach), SANDBOX_DROP_NONE when it cannot be taken
 * (p->drop_note says why); gives it the scratch folder.  Not root: does
 * nothing.  In sandbox_uid.c.
 */
void sandbox_choose_uid(sandbox_policy *p, const char *candidate, int first_own);

#endif
