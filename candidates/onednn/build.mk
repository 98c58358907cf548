# candidates/onednn/build.mk - the oneDNN adapter, build/candidates/onednn.so
# (`make candidates`; not part of `all`), over Debian 12's libdnnl-dev 2.6.3.
# The same source built against PyPI's oneDNN 3.2.0 is candidates/onednn3.
include candidates/adapters.mk

ADAPTER_LIBS += onednn

.PHONY: adapter-install-onednn
adapter-install-onednn:
	@$(call adapter_apt,libdnnl-dev)

$(ADAPTER_DIR)/onednn.so: candidates/adapter.map $(BUILD)/obj/candidates/onednn/onednn.o
	@mkdir -p $(@D)
	$(CC) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) -ldnnl -lpthread

# The reproducers of reports/onednn/repro (tests/adapters/repro.mk), against
# Debian's 2.6.3.
REPRO_LIBS          += onednn
REPRO_READY_onednn  := /usr/include/oneapi/dnnl/dnnl.h
REPRO_CC_onednn     := $(CC)
REPRO_FLAGS_onednn  := -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
REPRO_LDLIBS_onednn := -ldnnl
REPRO_ENV_onednn    := env OMP_NUM_THREADS=1
