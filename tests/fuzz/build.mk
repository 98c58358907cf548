# tests/fuzz/build.mk - libFuzzer targets (clang, ASan+UBSan), one file a
# target: tests/fuzz/fuzz_<name>.c.
#
#   make fuzz                 each target for FUZZ_SECONDS (default 60) in
#                             turn, seeded from tests/fuzz/corpus/<name>/
#                             (and cases/, tests/harness/data/ for the case
#                             loader); new inputs go to build/fuzz/corpus/,
#                             a crash to build/fuzz/crash-<name>-*, and fails
#   make test-fuzz-replay     (part of make test) every committed seed and
#                             regression input (tests/fuzz/regressions/
#                             <name>/) through the same entry points, built
#                             with gcc under ASan+UBSan, no libFuzzer
#   make fuzz-cfl             (part of make fuzz) .clusterfuzzlite/build.sh
#                             run the way its header says (clang-14,
#                             ASan, libFuzzer) into build/cfl/out/, then
#                             its target for a few seconds from its seed
#                             corpus: the ClusterFuzzLite build cannot rot
#                             unseen
#   make test-fuzz-candidate  (part of make test) fuzz_candidate.c, the
#                             differential target (a candidate against the
#                             reference; docs/fuzzing.md, "Fuzzing at
#                             scale"), for a few seconds on the reference
#                             and on a broken candidate
#                             (tests/fuzz/candidate_test.c)
#
# A target's dictionary, when it has one, is tests/fuzz/<name>.dict.
# FUZZ_CANDIDATE_SO names the candidate fuzz_candidate fuzzes when
# RESHAPE_FUZZ_CANDIDATE does not (default: the reference); `make fuzz`
# runs it like the others.
#
# A crash found by make fuzz becomes a regression: copy the input to
# tests/fuzz/regressions/<name>/ with a name that says what it found.

FUZZ_CC      := clang-14
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS  := $(CSTD) $(WARN) -O1 -g -Iinclude -Iharness -pthread \
                -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
                -fno-omit-frame-pointer
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_HOBJ    := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(filter-out harness/cli/main.c,$(HARNESS_SRC)))
FUZZ_BINS    := $(FUZZ_NAMES:%=$(BUILD)/fuzz/bin/fuzz_%)
FUZZ_REPLAYS := $(FUZZ_NAMES:%=$(BUILD)/san/fuzz-replay/fuzz_%)
FUZZ_SAN_HOBJ:= $(filter-out %/main.o,$(HARNESS_SOBJ))

$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -c $< -o $@

FUZZ_CANDIDATE_SO ?=
$(BUILD)/fuzz/obj/tests/fuzz/fuzz_candidate.o: FUZZ_CFLAGS += \
    $(if $(FUZZ_CANDIDATE_SO),-DFUZZ_CANDIDATE='"$(FUZZ_CANDIDATE_SO)"')

$(BUILD)/fuzz/bin/fuzz_%: $(BUILD)/fuzz/obj/tests/fuzz/fuzz_%.o $(FUZZ_HOBJ)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -o $@ $(HARNESS_LIBS)

$(BUILD)/san/obj/tests/fuzz/%.o: SAN_CFLAGS += -Iharness -pthread

$(BUILD)/san/fuzz-replay/fuzz_%: $(BUILD)/san/obj/tests/fuzz/fuzz_%.o \
                                 $(BUILD)/san/obj/tests/fuzz/replay.o $(FUZZ_SAN_HOBJ)
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) $^ -o $@ $(HARNESS_LIBS)

$(BUILD)/tests/fuzz_replay: $(BUILD)/obj/tests/fuzz/regressions_test.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ -o $@ -lcriterion

$(BUILD)/tests/fuzz_candidate: $(BUILD)/obj/tests/fuzz/candidate_test.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ -o $@ -lcriterion

ALL_TARGETS  += $(FUZZ_REPLAYS) $(BUILD)/tests/fuzz_replay $(BUILD)/tests/fuzz_candidate \
                $(BUILD)/fuzz/bin/fuzz_candidate
DEB_PACKAGES += clang-14 libclang-rt-14-dev zip unzip zlib1g-dev
TEST_RUNS    += test-fuzz-replay test-fuzz-candidate

.PHONY: fuzz fuzz-run fuzz-cfl test-fuzz-replay test-fuzz-candidate
test-fuzz-replay: $(BUILD)/tests/fuzz_replay $(FUZZ_REPLAYS) $(BUILD)/libreshape_ref.so
	@$(call san_run,$(BUILD)/tests/fuzz_replay)

# The differential target for a few seconds, built with clang and libFuzzer
# (the harness objects too, once): it finds nothing in the reference and
# finds build/broken/special_zero_ignored.so's defect (candidate_test.c).
test-fuzz-candidate: $(BUILD)/tests/fuzz_candidate $(BUILD)/fuzz/bin/fuzz_candidate \
                     $(BUILD)/libreshape_ref.so $(BUILD)/broken/special_zero_ignored.so \
                     $(BUILD)/reshape-conform
	$(BUILD)/tests/fuzz_candidate

# Seeds: the committed corpus of each target, plus the case files for the
# case loader.  libFuzzer writes new inputs into the first folder only.
fuzz_seeds_case_load := cases tests/harness/data/basic tests/harness/data/extremes \
                        tests/harness/data/malformed tests/harness/data/open

# Like test: install first (clang-14, libFuzzer, zip), then build and run.
fuzz: deps
	@$(MAKE) --no-print-directory fuzz-run fuzz-cfl

# The ClusterFuzzLite build as its runner does it, from scratch each time
# (it builds its own objects, into build/cfl/work), then the target on
# FUZZ_CFL_SEEDS inputs of its seed corpus (the whole corpus, 5,929
# inputs, takes a minute) and FUZZ_CFL_RUNS runs, 10 s at most: a link
# error, a seed corpus that is not there or a target that crashes fails.
FUZZ_CFL_RUNS ?= 2000
FUZZ_CFL_SEEDS ?= 200
fuzz-cfl:
	@rm -rf $(BUILD)/cfl && mkdir -p $(BUILD)/cfl/out $(BUILD)/cfl/work $(BUILD)/cfl/corpus
	CC=$(FUZZ_CC) CFLAGS=-fsanitize=address,fuzzer-no-link LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
	  OUT=$(abspath $(BUILD)/cfl/out) WORK=$(abspath $(BUILD)/cfl/work) .clusterfuzzlite/build.sh
	cd $(BUILD)/cfl/corpus && zip=../out/fuzz_candidate_seed_corpus.zip && \
	  unzip -Z1 $$zip | grep -v '/$$' | head -n $(FUZZ_CFL_SEEDS) | xargs unzip -q $$zip
	$(BUILD)/cfl/out/fuzz_candidate -runs=$(FUZZ_CFL_RUNS) -max_total_time=10 -timeout=10 \
	  -dict=$(BUILD)/cfl/out/fuzz_candidate.dict -print_final_stats=1 \
	  -artifact_prefix=$(BUILD)/cfl/crash- $(BUILD)/cfl/corpus >$(BUILD)/cfl/run.log 2>&1 \
	  || { tail -n 60 $(BUILD)/cfl/run.log; echo "fuzz-cfl: the ClusterFuzzLite target failed" >&2; \
	       exit 1; }
	@grep -E '^stat::number_of_executed_units' $(BUILD)/cfl/run.log

fuzz-run: $(FUZZ_BINS)
	@set -e; for n in $(FUZZ_NAMES); do \
	  mkdir -p $(BUILD)/fuzz/corpus/$$n; \
	  seeds=""; for d in tests/fuzz/corpus/$$n tests/fuzz/regressions/$$n; do \
	    [ -d $$d ] && seeds="$$seeds $$d"; done; \
	  [ $$n = case_load ] && seeds="$$seeds $(fuzz_seeds_case_load)"; \
	  dict=""; [ -f tests/fuzz/$$n.dict ] && dict=-dict=tests/fuzz/$$n.dict; \
	  echo "fuzz: $$n for $(FUZZ_SECONDS) s"; \
	  $(BUILD)/fuzz/bin/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) -max_len=16384 $$dict \
	    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=$(BUILD)/fuzz/crash-$$n- \
	    $(BUILD)/fuzz/corpus/$$n $$seeds >$(BUILD)/fuzz/$$n.log 2>&1 \
	    || { tail -n 60 $(BUILD)/fuzz/$$n.log; \
	         echo "fuzz: $$n failed; the input is in $(BUILD)/fuzz/crash-$$n-*" >&2; exit 1; }; \
	  grep -E '^stat::number_of_executed_units|^#[0-9]+ *DONE' $(BUILD)/fuzz/$$n.log | tail -n 2; \
	done
