# generators/build.mk - the case generators: `make generate` and their tests.
#
#   generate       rewrite cases/generated/*.yaml and cases/COVERAGE.md from
#                  generators/*.py (deterministic; the output is committed)
#   test-generate  regenerate into build/generate-check and fail when the
#                  committed cases/generated/ or cases/COVERAGE.md differ
#   test-model     generators/selfcheck.py: the Python model against every
#                  hand-written case, and every quote against its spec file
#                  in specs/ (and once against an altered quote, which must fail)

DEB_PACKAGES += python3-yaml python3-onnx libonnx-testdata
TEST_RUNS += test-generate test-model
.PHONY: test-generate test-model

generate: deps
	@$(PYTHON) -B generators/generate.py

test-generate:
	@rm -rf $(BUILD)/generate-check
	@$(PYTHON) -B generators/generate.py --out $(BUILD)/generate-check >/dev/null
	@if diff -r -q cases/generated $(BUILD)/generate-check/generated \
	   && diff -q cases/COVERAGE.md $(BUILD)/generate-check/COVERAGE.md; then \
	  echo "test-generate: 1 passed, 0 failed"; \
	else \
	  echo "test-generate: committed cases are stale: run 'make generate' and commit cases/" >&2; \
	  echo "test-generate: 0 passed, 1 failed"; exit 1; \
	fi

# The second half proves the quote check can fail: one quote of a copy of the
# cases gets a word that no spec has, and selfcheck must reject that case.
test-model:
	@$(PYTHON) -B generators/selfcheck.py
	@rm -rf $(BUILD)/selfcheck-bad && mkdir -p $(BUILD)/selfcheck-bad
	@cp cases/*.yaml $(BUILD)/selfcheck-bad/
	@sed -i '0,/quote: "/s//quote: "unquotable /' $(BUILD)/selfcheck-bad/onnx_reshape_14.yaml
	@if $(PYTHON) -B generators/selfcheck.py --cases $(BUILD)/selfcheck-bad \
	     >$(BUILD)/selfcheck-bad/out.txt 2>&1; then \
	  echo "test-model: a quote missing from its spec passed selfcheck" >&2; exit 1; fi
	@if grep -q "quote not found in 'onnx_reshape_14.md': 'unquotable " $(BUILD)/selfcheck-bad/out.txt \
	   && grep -q '^selfcheck: [0-9]* passed, 1 failed$$' $(BUILD)/selfcheck-bad/out.txt; then \
	  echo "test-model: a quote missing from its spec is rejected: 1 passed, 0 failed"; \
	else cat $(BUILD)/selfcheck-bad/out.txt >&2; \
	  echo "test-model: selfcheck did not name the altered quote" >&2; exit 1; fi
