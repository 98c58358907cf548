# tests/adapters/repro.mk - the runner of the reproducers (issue 40): one
# standalone program per finding about a real library, in
# reports/<lib>/repro/ (reports/<lib>/repro/README.md says what each shows).
# Each candidates/<lib>/build.mk that has some declares
#   REPRO_LIBS += <lib>
#   REPRO_READY_<lib>   a file that exists only once the library is installed
#   REPRO_CC_<lib>      $(CC) or $(CXX), for the .c / .cpp reproducers
#   REPRO_FLAGS_<lib>   -I... and other compile flags
#   REPRO_LDLIBS_<lib>  -L... -l... -Wl,-rpath,...
#   REPRO_ENV_<lib>     an `env VAR=...` prefix to run them (PYTHONPATH for
#                       the .py ones), may be empty
#   REPRO_DIR_<lib>     optional: the folder of its reproducers where not
#                       reports/<lib>/repro (a second build of a library,
#                       e.g. onednn_graph313, runs the first one's)
# (values without single quotes).  tests/adapters/repro.sh builds each
# reports/<lib>/repro/*.c|*.cpp into build/repro/<lib>/<name> and runs it,
# and each *.py with $(PYTHON): exit 0 = the finding holds, 1 = the
# behaviour changed (the finding must be updated), 77 = skipped; a library
# whose READY file is missing is one "skipped" line.  `make repro` runs
# them alone; `make test-adapters` runs them after its Criterion binary
# (never under -san: the reproducers show what the library does unchecked).
# tests/adapters/repro_test.c checks repro.sh on stand-in reproducers.
# Included by tests/adapters/build.mk; the variables are read when the
# recipe runs, after every candidates/*/build.mk was read.

REPRO_OUT := $(BUILD)/repro
repro_lib  = REPRO_READY='$(REPRO_READY_$(1))' REPRO_CC='$(REPRO_CC_$(1))' \
	REPRO_FLAGS='$(REPRO_FLAGS_$(1))' REPRO_LDLIBS='$(REPRO_LDLIBS_$(1))' \
	REPRO_ENV='$(REPRO_ENV_$(1))' PYTHON='$(PYTHON)' \
	sh tests/adapters/repro.sh $(1) $(or $(REPRO_DIR_$(1)),reports/$(1)/repro) $(REPRO_OUT)/$(1) || rc=1;
# The recipe line both targets share: every library, then fails when any failed.
REPRO_RUN  = rc=0; $(foreach l,$(sort $(REPRO_LIBS)),$(call repro_lib,$(l))) \
	echo "repro: $(words $(sort $(REPRO_LIBS))) libraries declare reproducers"; exit $$rc

.PHONY: repro
repro:
	@$(REPRO_RUN)
