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
