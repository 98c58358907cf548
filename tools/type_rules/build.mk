# tools/type_rules/build.mk - the type rules (which data and shape types each
# operation accepts) from their one source, specs/type_rules.yaml, into the
# ABI header; the reference (reference/rules.c) uses the header's functions
# and the generators (generators/model.py) read the YAML.
#
#   type-rules       rewrite the generated block of include/reshape_candidate.h
#   test-type-rules  fail when the header's block is not what the YAML gives;
#                    then prove the check can fail (a copy of the rules with
#                    one type taken away must be refused, naming the line)

TEST_RUNS += test-type-rules
.PHONY: type-rules test-type-rules

type-rules:
	@$(PYTHON) -B tools/type_rules/type_rules.py

test-type-rules:
	@$(PYTHON) -B tools/type_rules/type_rules.py --check
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	  sed '/onednn_static_reshape_1:/,/shape:/s/data: \[f32, f16, bf16\]/data: [f32, f16]/' \
	    specs/type_rules.yaml >"$$d/rules.yaml" && \
	  if $(PYTHON) -B tools/type_rules/type_rules.py --check --rules "$$d/rules.yaml" \
	     2>"$$d/err"; then \
	    echo "test-type-rules: a header with other rules passed the check" >&2; exit 1; fi && \
	  grep -q 'RESHAPE_DT_BIT(RESHAPE_DT_F32) | RESHAPE_DT_BIT(RESHAPE_DT_F16);' "$$d/err" || \
	    { cat "$$d/err" >&2; echo "test-type-rules: the check did not name the line" >&2; exit 1; }
	@echo "test-type-rules: 2 passed, 0 failed"
