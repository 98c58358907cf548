# candidates/pypi.mk - pinned wheels from PyPI for the adapters of libraries
# we certify, installed outside the clone and outside the system Python.
# Included by candidates/<library>/build.mk after adapters.mk (the guard
# makes the second include a no-op).
#
# Debian 12 marks its Python externally managed, so nothing goes into it:
# each pinned requirement is installed by Debian's pip (python3-pip) with
# `pip install --prefix` into a folder of its own under PYPI_CACHE, which is
# outside the clone so that the next `make candidates` on the same machine
# (a second CI run too) finds it and downloads nothing.  A folder is used
# only once it is complete: pip installs into DIR.tmp, and a stamp file is
# written before DIR.tmp becomes DIR.  Where PyPI does not answer, pip fails
# within its timeout, the adapter's install target fails, and
# `make candidates` skips that library with one line (adapters.mk).
ifndef PYPI_MK_INCLUDED
PYPI_MK_INCLUDED := 1

PYPI_CACHE ?= /var/cache/reshape-conformance/pypi
# pip's own options: wheels only (nothing is built from a source archive),
# no byte-compiling into the folder, a short network timeout.
PYPI_PIP_FLAGS := --disable-pip-version-check --no-input -q --no-compile \
                  --only-binary=:all: --timeout 30 --retries 2

# $(call pypi_dir,NAME,VERSION): the folder NAME==VERSION is installed into.
pypi_dir = $(PYPI_CACHE)/$(1)-$(2)
# --prefix, not --target: --target drops the lib/ of a wheel's data files
# (libdnnl.so of oneDNN's wheels).  Under a prefix, Debian's Python puts
# everything below local/ (its posix_local scheme); these ask sysconfig, as
# pip does, only when a rule uses them.
# $(call pypi_data,NAME,VERSION): where a wheel's data files went (its
# include/ and lib/); $(call pypi_site,NAME,VERSION): its Python packages.
pypi_scheme = $(PYTHON) -c 'import sys, sysconfig; d = sys.argv[1]; \
	print(sysconfig.get_paths(sysconfig.get_preferred_scheme("prefix"), \
	vars=dict(base=d, platbase=d, installed_base=d, installed_platbase=d))[sys.argv[2]])'
pypi_data = $(shell $(pypi_scheme) '$(call pypi_dir,$(1),$(2))' data)
pypi_site = $(shell $(pypi_scheme) '$(call pypi_dir,$(1),$(2))' purelib)

# $(call pypi_install,NAME,VERSION[,PIP_ARGS]): installs NAME==VERSION, with
# the dependencies its wheel names unless PIP_ARGS says --no-deps, into
# $(call pypi_dir,NAME,VERSION); a no-op (no download) once it is there.
pypi_install = d='$(call pypi_dir,$(1),$(2))'; [ -f "$$d/.installed" ] || { \
	  $(PYTHON) -m pip --version >/dev/null 2>&1 || { $(call adapter_apt,python3-pip); }; \
	  echo "candidates: pip install $(1)==$(2) into $$d"; \
	  mkdir -p '$(PYPI_CACHE)' && rm -rf "$$d.tmp" && \
	  $(PYTHON) -m pip install $(PYPI_PIP_FLAGS) --prefix "$$d.tmp" $(3) '$(1)==$(2)' && \
	  echo '$(1)==$(2)' >"$$d.tmp/.installed" && rm -rf "$$d" && mv "$$d.tmp" "$$d"; }

endif
