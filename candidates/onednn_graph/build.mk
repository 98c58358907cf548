# candidates/onednn_graph/build.mk - the oneDNN Graph adapter,
# build/candidates/onednn_graph.so (`make candidates`; not part of `all`).
#
# oneDNN 3.x (the Graph API) is not in Debian 12: it is built from the
# vendored source tarball ONEDNN_TARBALL by build_onednn.sh into a cache
# outside the clone, ONEDNN_CACHE/onednn-<version>-<config hash>/, once
# (`make onednn-graph`, about 20 minutes on 2 idle cores; `make candidates`
# runs it first, with ninja's progress on the terminal).  A kernel team with
# its own oneDNN 3.x install names it with ONEDNN_GRAPH_ROOT instead and
# nothing is built.  Without either, the adapter is skipped with one line.
include candidates/adapters.mk

ADAPTER_LIBS += onednn_graph

ONEDNN_VERSION    := 3.13.1
ONEDNN_SHA256     := ed3389852ba0130f414056d50c4a668135c1aa906a8922fe50efceb70c6aa0dc
ONEDNN_TARBALL    ?= ../shared/vendor/oneDNN-$(ONEDNN_VERSION).tar.gz
ONEDNN_CACHE      ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/reshape-conform
ONEDNN_JOBS       ?= 2
ONEDNN_GRAPH_ROOT ?=
ONEDNN_BUILD_SH   := sh candidates/onednn_graph/build_onednn.sh "$(ONEDNN_TARBALL)" \
                     $(ONEDNN_SHA256) $(ONEDNN_VERSION) "$(ONEDNN_CACHE)" $(ONEDNN_JOBS)
# The install the adapter compiles and links against (asked of the script,
# which only prints the cache path for --prefix; expanded when used).
ONEDNN_PREFIX      = $(or $(ONEDNN_GRAPH_ROOT),$(shell $(ONEDNN_BUILD_SH) --prefix))

# Builds oneDNN into the cache (or checks ONEDNN_GRAPH_ROOT); never fails the
# caller: without a tarball it says so and the adapter is skipped later.
.PHONY: onednn-graph
onednn-graph:
	@if [ -n "$(ONEDNN_GRAPH_ROOT)" ]; then \
	  echo "onednn-graph: using ONEDNN_GRAPH_ROOT=$(ONEDNN_GRAPH_ROOT)"; \
	elif [ ! -f "$(ONEDNN_TARBALL)" ]; then \
	  echo "onednn-graph: no tarball at $(ONEDNN_TARBALL) and no ONEDNN_GRAPH_ROOT: the adapter will be skipped"; \
	else $(call adapter_apt,cmake ninja-build) && \
	  $(ONEDNN_BUILD_SH) >/dev/null || echo "onednn-graph: the oneDNN build failed"; fi

candidates: onednn-graph

.PHONY: adapter-install-onednn_graph
adapter-install-onednn_graph:
	@if [ -n "$(ONEDNN_GRAPH_ROOT)" ]; then \
	  test -f "$(ONEDNN_GRAPH_ROOT)/include/oneapi/dnnl/dnnl_graph.h" || { \
	    echo "ONEDNN_GRAPH_ROOT=$(ONEDNN_GRAPH_ROOT) has no include/oneapi/dnnl/dnnl_graph.h" >&2; exit 1; }; \
	else $(call adapter_apt,cmake ninja-build) && $(ONEDNN_BUILD_SH) >/dev/null; fi

$(BUILD)/obj/candidates/onednn_graph/onednn_graph.o: CFLAGS += -I$(ONEDNN_PREFIX)/include

$(ADAPTER_DIR)/onednn_graph.so: candidates/adapter.map \
    $(BUILD)/obj/candidates/onednn_graph/onednn_graph.o
	@mkdir -p $(@D)
	$(CC) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) -L$(ONEDNN_PREFIX)/lib \
	  -Wl,-rpath,$(ONEDNN_PREFIX)/lib -ldnnl -lpthread
