/* abi_mismatch.c - reports abi_version 2. */
#define DEFECT_ABI_VERSION 2u
#include "base.h"
