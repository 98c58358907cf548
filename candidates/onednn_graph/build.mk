# candidates/onednn_graph/build.mk - the oneDNN Graph adapter,
# build/candidates/onednn_graph.so (`make candidates`; not part of `all`).
#
# Built against PyPI's oneDNN 3.2.0 (candidates/onednn/wheel.mk: Intel's
# GNU-OpenMP wheels, onednn-devel-cpu-gomp and onednn-cpu-gomp 2023.2.0),
# which has the Graph API (oneapi/dnnl/dnnl_graph.h); Debian 12's
# libdnnl-dev 2.6.3 predates it.  Where PyPI does not answer, `make
# candidates` skips the adapter with one line and the scoreboard keeps the
# dated record of oneDNN 3.13.1 (reports/onednn_graph/record.json).
include candidates/adapters.mk
include candidates/onednn/wheel.mk

ADAPTER_LIBS += onednn_graph

.PHONY: adapter-install-onednn_graph
adapter-install-onednn_graph: onednn3-wheel

# Replaces the rule of adapters.mk for this library, to say what is kept
# when the wheel cannot be installed.
.PHONY: candidates-onednn_graph
candidates-onednn_graph:
	@mkdir -p $(BUILD)
	@log=$(BUILD)/candidates-onednn_graph.log; \
	if ! $(MAKE) --no-print-directory -s adapter-install-onednn_graph >$$log 2>&1; then \
	  echo "candidates: skipped onednn_graph: could not install" \
	    "$(ONEDNN3_WHEEL)==$(ONEDNN3_VERSION) from PyPI (see $$log);" \
	    "reports/onednn_graph/record.json keeps the results of oneDNN 3.13.1"; \
	elif ! $(MAKE) --no-print-directory $(ADAPTER_DIR)/onednn_graph.so >>$$log 2>&1; then \
	  echo "candidates: skipped onednn_graph: the adapter did not build (see $$log)"; \
	else echo "candidates: built $(ADAPTER_DIR)/onednn_graph.so"; fi

$(BUILD)/obj/candidates/onednn_graph/onednn_graph.o: CFLAGS += $(ONEDNN3_CFLAGS)

$(ADAPTER_DIR)/onednn_graph.so: candidates/adapter.map \
    $(BUILD)/obj/candidates/onednn_graph/onednn_graph.o
	@mkdir -p $(@D)
	$(CC) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) $(ONEDNN3_LDLIBS) -lpthread

# The reproducers of reports/onednn_graph/repro (tests/adapters/repro.mk).
REPRO_LIBS              += onednn_graph
REPRO_READY_onednn_graph := $(ONEDNN3_READY)
REPRO_CC_onednn_graph    := $(CC)
REPRO_FLAGS_onednn_graph  = -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(ONEDNN3_CFLAGS)
REPRO_LDLIBS_onednn_graph = $(ONEDNN3_LDLIBS)
REPRO_ENV_onednn_graph   := env OMP_NUM_THREADS=1

# The second build, onednn_graph313: the same source against PyPI's
# oneDNN 3.13.2 (candidates/onednn/wheel313.mk; opt-in, 1.8 GB installed:
# `make candidates ONEDNN_GRAPH313=1`).  Its reports go to
# reports/onednn_graph313 (candidates/scoreboard.py SOURCE_FOLDER).
include candidates/onednn/wheel313.mk

ADAPTER_LIBS += onednn_graph313

.PHONY: adapter-install-onednn_graph313
adapter-install-onednn_graph313: onednn313-wheel

$(BUILD)/obj/candidates/onednn_graph/onednn_graph313.o: candidates/onednn_graph/onednn_graph.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fvisibility=hidden $(ONEDNN313_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(ADAPTER_DIR)/onednn_graph313.so: candidates/adapter.map \
    $(BUILD)/obj/candidates/onednn_graph/onednn_graph313.o
	@mkdir -p $(@D)
	$(CC) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) $(ONEDNN313_LDLIBS) -lpthread

REPRO_LIBS                 += onednn_graph313
REPRO_READY_onednn_graph313 := $(ONEDNN313_READY)
REPRO_CC_onednn_graph313    := $(CC)
REPRO_FLAGS_onednn_graph313  = -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(ONEDNN313_CFLAGS)
REPRO_LDLIBS_onednn_graph313 = $(ONEDNN313_LDLIBS)
REPRO_ENV_onednn_graph313    = env OMP_NUM_THREADS=1 OCL_ICD_FILENAMES=$(ONEDNN313_DATA)/lib/libintelocl.so
REPRO_DIR_onednn_graph313  := reports/onednn_graph/repro
