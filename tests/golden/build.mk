# tests/golden/build.mk - `make golden`: every report of the harness over the
# whole suite, for the reference and every broken candidate, normalized
# (tests/golden/golden.sh: start time, durations, host facts and the git
# commit taken out) into GOLDEN_OUT, with GOLDEN_OUT/SHA256SUMS.  Two builds
# behave alike when their folders are the same byte for byte:
#
#   make golden GOLDEN_OUT=build/golden/before     # on the old tree
#   make golden GOLDEN_BASE=build/golden/before    # on the new one: diffs
#
# With GOLDEN_BASE the target fails, listing the files that differ, unless
# every report is the same.  Not part of `make test`: it runs the harness
# over the whole suite once per candidate and renders each report; on the
# 2-core development machine under load, 34 candidates took 37 minutes
# (10 to 90 s each, most of it the candidates that fault on every case).

GOLDEN_OUT  ?= build/golden/now
GOLDEN_BASE ?=

.PHONY: golden
golden: deps
	@$(MAKE) --no-print-directory $(BUILD)/reshape-conform $(BUILD)/libreshape_ref.so $(BROKEN_SOS)
	HARNESS=$(BUILD)/reshape-conform PYTHON=$(PYTHON) tests/golden/golden.sh $(GOLDEN_OUT) \
	  $(BUILD)/libreshape_ref.so $(BROKEN_SOS)
	@if [ -n "$(GOLDEN_BASE)" ]; then \
	  if diff -r -q $(GOLDEN_BASE) $(GOLDEN_OUT); then \
	    echo "golden: $(GOLDEN_OUT) is the same as $(GOLDEN_BASE)"; \
	  else \
	    echo "golden: $(GOLDEN_OUT) differs from $(GOLDEN_BASE) (diff -r them)" >&2; exit 1; \
	  fi; \
	fi
