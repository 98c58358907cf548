# candidates/onednn/wheel.mk - oneDNN 3.x from PyPI, for the two adapters
# built against it: candidates/onednn3 (the primitive API, beside Debian's
# 2.6.3) and candidates/onednn_graph (the Graph API).  Included by their
# build.mk files after adapters.mk (the guard makes the second include a
# no-op); the reproducers of reports/onednn3 and reports/onednn_graph use
# the same flags.
#
# The wheel is Intel's GNU-OpenMP build, onednn-devel-cpu-gomp 2023.2.0
# (the headers, oneapi/dnnl/dnnl_graph.h among them), which requires
# onednn-cpu-gomp 2023.2.0 (libdnnl.so.3, oneDNN 3.2.0, NEEDED: libgomp,
# libstdc++ and libc only).  Intel's newer onednn 2026.1.0 wheel holds
# oneDNN 3.13.2, but built with DNNL_CPU_RUNTIME=SYCL: its libdnnl needs
# libsycl, libtbb, libsvml and libimf, which it pulls in from PyPI as
# dpcpp-cpp-rt and intel-opencl-rt (candidates/onednn3/README.md).
ifndef ONEDNN_WHEEL_MK_INCLUDED
ONEDNN_WHEEL_MK_INCLUDED := 1
include candidates/pypi.mk

ONEDNN3_WHEEL   := onednn-devel-cpu-gomp
ONEDNN3_VERSION := 2023.2.0
# The install's stamp: there only once both wheels are in place.
ONEDNN3_READY   := $(call pypi_dir,$(ONEDNN3_WHEEL),$(ONEDNN3_VERSION))/.installed
# Recursive, so that sysconfig is asked only by a rule that uses them.
ONEDNN3_DATA     = $(call pypi_data,$(ONEDNN3_WHEEL),$(ONEDNN3_VERSION))
ONEDNN3_CFLAGS   = -I$(ONEDNN3_DATA)/include
ONEDNN3_LDLIBS   = -L$(ONEDNN3_DATA)/lib -ldnnl -Wl,-rpath,$(ONEDNN3_DATA)/lib

# Installs both wheels (the devel wheel names the runtime one); a no-op,
# downloading nothing, once they are there.
.PHONY: onednn3-wheel
onednn3-wheel:
	@$(call pypi_install,$(ONEDNN3_WHEEL),$(ONEDNN3_VERSION))

endif
