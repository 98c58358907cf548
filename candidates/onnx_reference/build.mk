# candidates/onnx_reference/build.mk - ONNX's own reference evaluator
# (onnx.reference.ReferenceEvaluator, from PyPI's onnx wheel) as a
# candidate, built twice from onnx_reference.c: build/candidates/
# onnx_reference.so (opset 14) and onnx_reference_latest.so (the newest
# opset the wheel knows) (`make candidates`; not part of `all`).  It embeds Debian's Python 3.11, as candidates/numpy does, with
# a module search path of the standard library and the wheels' folder only.
include candidates/adapters.mk
include candidates/pypi.mk

ADAPTER_LIBS += onnx_reference

# onnx and every package it imports, each pinned: --no-deps, so that pip
# installs exactly these wheels, and --ignore-installed, so that Debian's
# python3-numpy, -protobuf and -typing-extensions neither satisfy nor are
# touched by the install.
ONNX_REF_VERSION := 1.23.2
ONNX_REF_PINS    := numpy==2.4.6 protobuf==6.33.6 ml_dtypes==0.7.0 typing_extensions==4.16.0
ONNX_REF_DIR      = $(call pypi_dir,onnx,$(ONNX_REF_VERSION))
ONNX_REF_SITE     = $(call pypi_site,onnx,$(ONNX_REF_VERSION))
ONNX_REF_GEN     := $(BUILD)/gen/candidates/onnx_reference

.PHONY: adapter-install-onnx_reference
adapter-install-onnx_reference:
	@$(call adapter_apt,libpython3.11-dev)
	@$(call pypi_install,onnx,$(ONNX_REF_VERSION),--no-deps --ignore-installed $(ONNX_REF_PINS))
# The second build needs the same wheels.
ADAPTER_LIBS += onnx_reference_latest
.PHONY: adapter-install-onnx_reference_latest
adapter-install-onnx_reference_latest: adapter-install-onnx_reference

# glue.py as one C string literal.
$(ONNX_REF_GEN)/glue_py.h: candidates/onnx_reference/glue.py
	@mkdir -p $(@D)
	$(PYTHON) -c 'import json, sys; print("#define GLUE_SOURCE " + json.dumps(open(sys.argv[1]).read()))' $< > $@.tmp
	mv $@.tmp $@

# The versions each build reports, asked of the wheels it imports.
$(ONNX_REF_GEN)/%/onnx_ref_version.h: candidates/onnx_reference/version.py \
                                      candidates/onnx_reference/glue.py
	@mkdir -p $(@D)
	$(PYTHON) -I -S candidates/onnx_reference/version.py '$(ONNX_REF_SITE)' $* \
	  candidates/onnx_reference/glue.py $@.tmp
	mv $@.tmp $@

ONNX_REF_OBJ := $(BUILD)/obj/candidates/onnx_reference
ONNX_REF_CFLAGS = -I/usr/include/python3.11 -I$(ONNX_REF_GEN) \
	-DPYTHON_SONAME='"libpython3.11.so.1.0"' -DONNX_REF_SITE='"$(ONNX_REF_SITE)"'
# The RUNPATH names the wheels' folder: the sandbox lets a worker read the
# folders its candidate's RUNPATH names (docs/harness/sandbox.md).
ONNX_REF_LDLIBS = -Wl,--enable-new-dtags,-rpath,$(ONNX_REF_SITE) -lpython3.11 -ldl -lpthread

$(ONNX_REF_OBJ)/onnx_reference.o: $(ONNX_REF_GEN)/glue_py.h $(ONNX_REF_GEN)/14/onnx_ref_version.h
$(ONNX_REF_OBJ)/onnx_reference.o: CFLAGS += $(ONNX_REF_CFLAGS) -I$(ONNX_REF_GEN)/14
$(ONNX_REF_OBJ)/onnx_reference_latest.o: candidates/onnx_reference/onnx_reference.c \
                                         $(ONNX_REF_GEN)/glue_py.h \
                                         $(ONNX_REF_GEN)/latest/onnx_ref_version.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fvisibility=hidden $(ONNX_REF_CFLAGS) -I$(ONNX_REF_GEN)/latest \
	  $(DEPFLAGS) -c $< -o $@

$(ADAPTER_DIR)/onnx_reference.so $(ADAPTER_DIR)/onnx_reference_latest.so: \
$(ADAPTER_DIR)/%.so: candidates/adapter.map $(ONNX_REF_OBJ)/%.o
	@mkdir -p $(@D)
	$(CC) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) $(ONNX_REF_LDLIBS)

# Reproducers (reports/onnx_reference/repro/*.py; tests/adapters/repro.mk
# runs them with Debian's Python, the wheels' folder first on its path).
REPRO_LIBS += onnx_reference
REPRO_READY_onnx_reference  = $(ONNX_REF_DIR)/.installed
REPRO_CC_onnx_reference    := $(CC)
REPRO_FLAGS_onnx_reference :=
REPRO_LDLIBS_onnx_reference :=
REPRO_ENV_onnx_reference    = env PYTHONPATH=$(ONNX_REF_SITE)

# tests/adapters/onnx_reference_test.c runs onnx_backend_compare.py with the
# wheels' folder.
$(BUILD)/obj/tests/adapters/onnx_reference_test.o $(BUILD)/san/obj/tests/adapters/onnx_reference_test.o: \
	CFLAGS += -DONNX_REF_SITE='"$(ONNX_REF_SITE)"'
$(BUILD)/san/obj/tests/adapters/onnx_reference_test.o: \
	SAN_CFLAGS += -DONNX_REF_SITE='"$(ONNX_REF_SITE)"'
