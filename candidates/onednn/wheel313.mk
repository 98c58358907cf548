# candidates/onednn/wheel313.mk - oneDNN 3.13.2 from PyPI, for the second
# build of candidates/onednn_graph (onednn_graph313).  Included by
# candidates/onednn_graph/build.mk after adapters.mk.
#
# Intel's onednn 2026.1.0 wheel holds oneDNN 3.13.2 built with
# DNNL_CPU_RUNTIME=SYCL: libdnnl.so.3 NEEDs libtbb.so.12, libsvml.so,
# libimf.so, libintlc.so.5 and libsycl.so.9, and its CPU engine is a SYCL
# CPU device, which libsycl reaches through the Unified Runtime loader
# (libur_loader.so.0, whose OpenCL adapter is built in) and the OpenCL ICD
# loader (libOpenCL.so.1) to Intel's OpenCL CPU runtime (libintelocl.so).
# These seven wheels, each --no-deps and pinned, are the smallest set with
# which dnnl_engine_create(dnnl_cpu) succeeds (without intel-opencl-rt
# it fails: "SYCL cpu devices queried but not found"); onednn's own
# requirements (dpcpp-cpp-rt, which adds umf and tcmlib) are not needed.
# Measured on 2026-12-02: 576 MB downloaded, 1.8 GB installed (pip writes
# each .so symlink of the wheels as a copy), about a minute to install.
# So the build is opt-in: `make candidates ONEDNN_GRAPH313=1`.
ifndef ONEDNN_WHEEL313_MK_INCLUDED
ONEDNN_WHEEL313_MK_INCLUDED := 1
include candidates/pypi.mk

ONEDNN_GRAPH313 ?= 0
ONEDNN313_WHEEL   := onednn
ONEDNN313_VERSION := 2026.1.0
ONEDNN313_PINS    := onednn-devel==2026.1.0 tbb==2023.2.0 \
                     intel-cmplr-lib-rt==2026.2.0 intel-sycl-rt==2026.2.0 \
                     intel-cmplr-lib-ur==2026.2.0 intel-opencl-rt==2026.2.0
ONEDNN313_READY   := $(call pypi_dir,$(ONEDNN313_WHEEL),$(ONEDNN313_VERSION))/.installed
ONEDNN313_DATA     = $(call pypi_data,$(ONEDNN313_WHEEL),$(ONEDNN313_VERSION))
ONEDNN313_CFLAGS   = -I$(ONEDNN313_DATA)/include \
                     -DONEDNN_OCL_ICD='"$(ONEDNN313_DATA)/lib/libintelocl.so"' \
                     -DONEDNN_PRELOAD='"$(ONEDNN313_DATA)/lib/libirng.so"'
# DT_RPATH, not RUNPATH: libdnnl.so.3 has no RUNPATH of its own, and only
# an RPATH of the object that loads it is searched for its NEEDED
# libraries (libsvml.so ...).  The sandbox reads the folders the
# candidate's RPATH or RUNPATH names.
ONEDNN313_LDLIBS   = -L$(ONEDNN313_DATA)/lib -ldnnl \
                     -Wl,--disable-new-dtags,-rpath,$(ONEDNN313_DATA)/lib

.PHONY: onednn313-wheel
onednn313-wheel:
	@if [ '$(ONEDNN_GRAPH313)' != 1 ] && [ ! -f '$(ONEDNN313_READY)' ]; then \
	  echo "onednn_graph313 is opt-in (1.8 GB installed): make candidates ONEDNN_GRAPH313=1"; \
	  exit 1; fi
	@$(call pypi_install,$(ONEDNN313_WHEEL),$(ONEDNN313_VERSION),--no-deps $(ONEDNN313_PINS))

endif
