# candidates/numpy/build.mk - the NumPy adapter, build/candidates/numpy.so
# (`make candidates`; not part of `all`).  It embeds Debian's Python 3.11;
# numpy's headers are found through /usr/include/python3.11/numpy.
include candidates/adapters.mk

ADAPTER_LIBS += numpy

NUMPY_GEN := $(BUILD)/gen/candidates/numpy

.PHONY: adapter-install-numpy
adapter-install-numpy:
	@$(call adapter_apt,python3-numpy libpython3.11-dev)

# The numpy version the adapter reports, asked of Debian's Python once.
$(NUMPY_GEN)/numpy_version.h:
	@mkdir -p $(@D)
	$(PYTHON) -c 'import numpy; print("#define NUMPY_VERSION \"%s\"" % numpy.__version__)' > $@.tmp
	mv $@.tmp $@

$(BUILD)/obj/candidates/numpy/numpy.o: $(NUMPY_GEN)/numpy_version.h
$(BUILD)/obj/candidates/numpy/numpy.o: CFLAGS += -I/usr/include/python3.11 -I$(NUMPY_GEN) \
	-DPYTHON_SONAME='"libpython3.11.so.1.0"'

$(ADAPTER_DIR)/numpy.so: candidates/adapter.map $(BUILD)/obj/candidates/numpy/numpy.o
	@mkdir -p $(@D)
	$(CC) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) -lpython3.11 -ldl -lpthread

# The reproducers of its findings (reports/numpy/repro/, run by
# tests/adapters/repro.mk): Python programs on Debian's python3-numpy.
REPRO_LIBS         += numpy
REPRO_READY_numpy  := /usr/lib/python3/dist-packages/numpy/__init__.py
REPRO_CC_numpy     := $(CC)
REPRO_FLAGS_numpy  :=
REPRO_LDLIBS_numpy :=
REPRO_ENV_numpy    :=
