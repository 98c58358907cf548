# generators/build.mk - the case generators: `make generate` and their tests.
#
#   generate       rewrite cases/generated/*.yaml and cases/COVERAGE.md from
#                  generators/*.py (deterministic; the output is committed)
#   test-generate  regenerate into build/generate-check and fail when the
#                  committed cases/generated/ or cases/COVERAGE.md differ
#   test-model     generators/selfcheck.py: the Python model against every
#                  hand-written case, and every quote against its spec file

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

test-model:
	@$(PYTHON) -B generators/selfcheck.py
