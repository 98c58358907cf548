/*
 * cert.h - the cert layer's door (harness/ARCHITECTURE.md): the
 * certification bundle (bundle.h: a tar.gz of a run's reports and
 * evidence, with its manifest), its signature (signature.h, bundle_sign.h)
 * and checking a bundle (verify.h: problems, re-deriving its views).  Uses
 * libarchive, libcrypto and every layer up to report/.
 */
#ifndef HARNESS_CERT_H
#define HARNESS_CERT_H

#include "bundle.h"
#include "signature.h"
#include "bundle_sign.h"
#include "verify.h"

#endif
