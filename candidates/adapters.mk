# candidates/adapters.mk - what the library adapters share; included by each
# candidates/<library>/build.mk (the guard makes the second include a no-op).
#
# `make candidates` installs each library (apt-get or npm, as root) and
# builds its adapter into build/candidates/<library>.so.  A library that
# cannot be installed or built is skipped with one line saying so; the
# target itself never fails for that.  None of this is in `all` or `test`:
# the libraries are large (see candidates/<library>/README.md).
#
# `make scoreboard` runs the harness on every adapter that was built,
# profiles it, certifies it and reruns the bundle (`verify --rerun`), and
# writes reports/SCOREBOARD.md (candidates/scoreboard.py).
#
# Each build.mk adds `candidates-<library>` to ADAPTER_LIBS and defines:
#   $(ADAPTER_DIR)/<library>.so   the adapter
#   adapter-install-<library>  installs what the adapter needs
# Every adapter is built on the adapter kit, include/reshape_adapter.h
# (header-only, found through -Iinclude).
ifndef ADAPTERS_MK_INCLUDED
ADAPTERS_MK_INCLUDED := 1

ADAPTER_DIR        := $(BUILD)/candidates
# The adapter exports reshape_candidate_v1 only (adapter.map); -z defs
# catches a missing link flag at build time instead of at dlopen.
ADAPTER_SO_FLAGS   := -shared -fvisibility=hidden -Wl,-z,defs \
                      -Wl,--version-script=candidates/adapter.map
ADAPTER_LIBS       :=

$(BUILD)/obj/candidates/%.o: CFLAGS += -fvisibility=hidden

# Adapters over C++ libraries are one C++ file each, built with these flags.
CXX                ?= g++
ADAPTER_CXXFLAGS   := -std=c++17 -Wall -Wextra -Werror -O2 -g -fPIC \
                      -fvisibility=hidden -Iinclude -MMD -MP
$(BUILD)/obj/candidates/%.o: candidates/%.cpp
	@mkdir -p $(@D)
	$(CXX) $(ADAPTER_CXXFLAGS) -c $< -o $@

# $(call adapter_apt,PACKAGES): installs the Debian packages that are
# missing; waits for another apt-get holding the lock rather than failing.
adapter_apt = missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' \
	    || missing="$$missing $$p"; done; \
	[ -z "$$missing" ] || { echo "candidates: installing$$missing"; \
	  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install \
	    -y -qq --no-install-recommends $$missing >/dev/null \
	  || { apt-get -o DPkg::Lock::Timeout=600 update -qq && \
	       DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install \
	         -y -qq --no-install-recommends $$missing >/dev/null; }; }

# Installs, then builds in a second make (so nothing compiles before its
# headers exist); prints one line per library, built or skipped and why.
candidates-%:
	@mkdir -p $(BUILD)
	@if ! $(MAKE) --no-print-directory -s adapter-install-$* >$(BUILD)/candidates-$*.log 2>&1; then \
	  echo "candidates: skipped $*: could not install its library (see $(BUILD)/candidates-$*.log)"; \
	elif ! $(MAKE) --no-print-directory $(ADAPTER_DIR)/$*.so >>$(BUILD)/candidates-$*.log 2>&1; then \
	  echo "candidates: skipped $*: the adapter did not build (see $(BUILD)/candidates-$*.log)"; \
	else echo "candidates: built $(ADAPTER_DIR)/$*.so"; fi

.PHONY: candidates
candidates:
	@mkdir -p $(BUILD)
	@for lib in $(sort $(ADAPTER_LIBS)); do $(MAKE) --no-print-directory candidates-$$lib; done

# make scoreboard: the harness on every built adapter, then
# reports/SCOREBOARD.md; fails only when the harness itself fails.
# SCOREBOARD_ONLY=libtorch,armnn runs those again and renders the others
# from their reports.
SCOREBOARD_ONLY ?=
.PHONY: scoreboard
scoreboard: $(BUILD)/reshape-conform
	$(PYTHON) candidates/scoreboard.py --harness $(BUILD)/reshape-conform \
	  --adapters $(ADAPTER_DIR) --reports reports $(if $(SCOREBOARD_ONLY),--only $(SCOREBOARD_ONLY))

endif
