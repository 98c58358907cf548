# tests/python/build.mk - pyflakes over every Python file of the project.
#
#   test-python  Debian's pyflakes3 on generators/, reports/, candidates/,
#                tools/ and tests/: an undefined name or an unused import
#                fails the run.  Then once on tests/python/undefined_name.py,
#                which must be refused, so that the check is known to bite.
#
# Python here runs only in make generate, the report views and the scoreboard;
# a name error in a branch that the usual run does not reach (the scoreboard's
# comparison, taken only when both oneDNN adapters are built) would otherwise
# surface first in CI.

DEB_PACKAGES += pyflakes3
TEST_RUNS    += test-python
.PHONY: test-python

TEST_PYTHON_FILES = $(filter-out tests/python/undefined_name.py, \
	$(wildcard generators/*.py reports/*.py candidates/*.py candidates/*/*.py \
	           tools/*/*.py tests/*/*.py))

test-python:
	@pyflakes3 $(TEST_PYTHON_FILES) || { \
	  echo "test-python: pyflakes3 found the problems above" >&2; \
	  echo "test-python: 0 passed, 1 failed"; exit 1; }
	@if pyflakes3 tests/python/undefined_name.py >/dev/null 2>&1; then \
	  echo "test-python: pyflakes3 passed a file with an undefined name" >&2; exit 1; fi
	@echo "test-python: $(words $(TEST_PYTHON_FILES)) files clean, an undefined name refused: 2 passed, 0 failed"
