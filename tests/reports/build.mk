# tests/reports/build.mk - the report-rendering tests (reports/render.py).
#
# build/tests/reports and build/san/tests/reports are Criterion binaries that
# run the renderer (Python, from the source tree) on the fixtures in
# tests/reports/data/ and open its HTML in headless chromium.  They run from
# the repository root; REPORTS_TEST_DIR keeps the plain and sanitized runs'
# files apart; each run renders a fixture once (support.c, rendered_once)
# into REPORTS_TEST_DIR/fixture-cache-<runner pid>/.  After a run,
# build/reports-test/report.png is a screenshot of the nonconformant
# fixture's page.  junit.c and junit_known.c also run the harness
# (REPORTS_HARNESS, or build/reshape-conform) on broken candidates and
# validate its JUnit with xmllint (junit.xsd, and Jenkins' junit-10.xsd from
# JUNIT_XSD, tests/ci/build.mk).

REPORTS_TEST_SRC := $(sort $(wildcard tests/reports/*.c))
REPORTS_TEST_LIBS := -lcriterion -ljansson

$(BUILD)/tests/reports: $(REPORTS_TEST_SRC:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ -o $@ $(REPORTS_TEST_LIBS)

$(BUILD)/san/tests/reports: $(REPORTS_TEST_SRC:%.c=$(BUILD)/san/obj/%.o) $(SAN_TEST_RUNNER)
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) $^ -o $@ $(REPORTS_TEST_LIBS)

ALL_TARGETS += $(BUILD)/tests/reports $(BUILD)/san/tests/reports
TEST_RUNS += test-reports test-reports-san
DEB_PACKAGES += python3-jinja2 python3-yaml chromium fonts-dejavu-core \
                libcriterion-dev libjansson-dev libxml2-utils

.PHONY: test-reports test-reports-san
test-reports: $(BUILD)/tests/reports
	@rm -rf $(BUILD)/reports-test/fixture-cache-*
	@$(junit_xsd_note)
	REPORTS_TEST_DIR=$(BUILD)/reports-test JUNIT_XSD=$(JUNIT_XSD) $(BUILD)/tests/reports

# The sanitized tier runs the tests whose C under test is the harness's: the
# JUnit writer and merge (junit.c, junit_known.c), with the sanitized harness.
# The others test reports/*.py and chromium's reading of its page, which no
# sanitizer sees; the plain tier runs them (under ASan they only sanitized
# this binary's string searches).
test-reports-san: $(BUILD)/san/tests/reports $(BUILD)/san/reshape-conform
	@rm -rf $(BUILD)/san/reports-test/fixture-cache-*
	@$(junit_xsd_note)
	@$(call san_run,REPORTS_TEST_DIR=$(BUILD)/san/reports-test JUNIT_XSD=$(JUNIT_XSD) \
	  REPORTS_HARNESS=$(BUILD)/san/reshape-conform \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 $(BUILD)/san/tests/reports \
	  --filter '@(junit|junit_known)/*')
