# candidates/onnxruntime/build.mk - the ONNX Runtime adapter,
# build/candidates/onnxruntime.so (`make candidates`; not part of `all`).
#
# The library is libonnxruntime.so.1 from the npm package onnxruntime-node
# (installed into build/npm with its CUDA download skipped: there is no
# network but the registries); it is copied beside the adapter, which finds
# it through an $ORIGIN rpath.  The C API header is taken from the npm
# package com.github.asus4.onnxruntime (only its Headers folder is kept).
# The models are generated at build time with Debian's python3-onnx.
# npm keeps the packages and their metadata in its own cache, outside the
# clone (~/.npm), and --prefer-offline takes them from there without asking
# the registry: a second install on the same machine downloads nothing
# (measured: with no network at all, `unshare -n make candidates-onnxruntime`
# built the adapter in 12 s; without the flag npm waited on the registry
# for more than 15 minutes).
include candidates/adapters.mk

ADAPTER_LIBS += onnxruntime

ORT_NODE_VERSION := 1.30.0
ORT_HDR_PACKAGE  := com.github.asus4.onnxruntime@0.4.9
ORT_NPM          := $(BUILD)/npm
ORT_LIB_SRC      := $(ORT_NPM)/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1
ORT_HEADERS      := $(ORT_NPM)/ort-headers
ORT_GEN          := $(BUILD)/gen/candidates/onnxruntime

.PHONY: adapter-install-onnxruntime
adapter-install-onnxruntime:
	@$(call adapter_apt,python3-onnx)
	@command -v npm >/dev/null || { $(call adapter_apt,npm); }
	@mkdir -p $(ORT_NPM)
	@[ -f $(ORT_LIB_SRC) ] || { echo "candidates: npm install onnxruntime-node@$(ORT_NODE_VERSION)"; \
	  ONNXRUNTIME_NODE_INSTALL=skip npm install --prefer-offline --prefix $(ORT_NPM) --no-audit --no-fund \
	    --no-save --loglevel=error onnxruntime-node@$(ORT_NODE_VERSION); }
	@[ -f $(ORT_HEADERS)/onnxruntime_c_api.h ] || { echo "candidates: npm pack $(ORT_HDR_PACKAGE) (headers)"; \
	  cd $(ORT_NPM) && rm -rf package && npm pack --prefer-offline --silent $(ORT_HDR_PACKAGE) >/dev/null && \
	  tar -xzf com.github.asus4.onnxruntime-*.tgz --wildcards \
	    'package/Plugins/iOS~/onnxruntime.xcframework/ios-arm64/onnxruntime.framework/Headers/*' && \
	  rm -rf ort-headers && mv 'package/Plugins/iOS~/onnxruntime.xcframework/ios-arm64/onnxruntime.framework/Headers' ort-headers && \
	  rm -rf package com.github.asus4.onnxruntime-*.tgz; }

$(ORT_GEN)/models.c: candidates/onnxruntime/make_models.py
	@mkdir -p $(@D)
	$(PYTHON) $< $@.tmp
	mv $@.tmp $@

$(ADAPTER_DIR)/libonnxruntime.so.1: $(ORT_LIB_SRC)
	@mkdir -p $(@D)
	cp $< $@

ORT_OBJS := $(BUILD)/obj/candidates/onnxruntime/onnxruntime.o $(ORT_GEN)/models.o

$(ORT_OBJS): CFLAGS += -isystem $(ORT_HEADERS) -Icandidates/onnxruntime

$(ORT_GEN)/models.o: $(ORT_GEN)/models.c
	$(CC) $(CFLAGS) -fvisibility=hidden -c $< -o $@

$(ADAPTER_DIR)/onnxruntime.so: candidates/adapter.map $(ORT_OBJS) $(ADAPTER_DIR)/libonnxruntime.so.1
	$(CC) $(ADAPTER_SO_FLAGS) -o $@ $(ORT_OBJS) \
	  $(ADAPTER_DIR)/libonnxruntime.so.1 -Wl,-rpath,'$$ORIGIN' -lpthread

# The reproducers of its findings (reports/onnxruntime/repro/, run by
# tests/adapters/repro.mk): C programs on the C API, linked to npm's
# libonnxruntime.so.1 where it was installed.
REPRO_LIBS               += onnxruntime
REPRO_READY_onnxruntime  := $(ORT_HEADERS)/onnxruntime_c_api.h
REPRO_CC_onnxruntime     := $(CC)
REPRO_FLAGS_onnxruntime  := -isystem $(ORT_HEADERS)
REPRO_LDLIBS_onnxruntime := $(ORT_LIB_SRC) -Wl,-rpath,$(abspath $(dir $(ORT_LIB_SRC)))
REPRO_ENV_onnxruntime    :=
