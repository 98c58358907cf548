# candidates/onednn_graph/build.mk - the oneDNN Graph adapter,
# build/candidates/onednn_graph.so (`make candidates`; not part of `all`).
#
# The adapter is built only against a oneDNN 3.x that the machine's package
# archive provides: the Graph API (oneapi/dnnl/dnnl_graph.h) came with
# oneDNN 3.0, and third-party code here comes from the registries alone
# (README.md, "Where third-party code comes from").  Debian 12's libdnnl-dev
# is 2.6.3, without it, so there `make candidates` skips the adapter with
# one line, and the scoreboard keeps its dated record
# (reports/onednn_graph/record.json).
include candidates/adapters.mk

ADAPTER_LIBS += onednn_graph

ONEDNN_GRAPH_HEADER := /usr/include/oneapi/dnnl/dnnl_graph.h

.PHONY: adapter-install-onednn_graph
adapter-install-onednn_graph:
	@$(call adapter_apt,libdnnl-dev)

# Replaces the rule of adapters.mk for this library, to say why it is
# skipped where the archive's oneDNN has no Graph API.
.PHONY: candidates-onednn_graph
candidates-onednn_graph:
	@mkdir -p $(BUILD)
	@log=$(BUILD)/candidates-onednn_graph.log; \
	if ! $(MAKE) --no-print-directory -s adapter-install-onednn_graph >$$log 2>&1; then \
	  echo "candidates: skipped onednn_graph: could not install libdnnl-dev (see $$log)"; \
	elif [ ! -f $(ONEDNN_GRAPH_HEADER) ]; then \
	  echo "candidates: skipped onednn_graph: the package archive's oneDNN" \
	    "($$(dpkg-query -W -f='libdnnl-dev $${Version}' libdnnl-dev)) has no Graph API" \
	    "(no $(ONEDNN_GRAPH_HEADER)); reports/onednn_graph/record.json keeps its last results"; \
	elif ! $(MAKE) --no-print-directory $(ADAPTER_DIR)/onednn_graph.so >>$$log 2>&1; then \
	  echo "candidates: skipped onednn_graph: the adapter did not build (see $$log)"; \
	else echo "candidates: built $(ADAPTER_DIR)/onednn_graph.so"; fi

$(ADAPTER_DIR)/onednn_graph.so: candidates/adapter.map \
    $(BUILD)/obj/candidates/onednn_graph/onednn_graph.o
	@mkdir -p $(@D)
	$(CC) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) -ldnnl -lpthread
