# candidates/libtorch/build.mk - the libtorch adapter,
# build/candidates/libtorch.so (`make candidates`; not part of `all`).
# libtorch.c is C like the rest; torch_shim.cpp is the one C++ file.
include candidates/adapters.mk

ADAPTER_LIBS += libtorch

CXX          ?= g++
TORCH_CXXFLAGS := -std=c++17 -Wall -Wextra -Werror -O2 -g -fPIC -fvisibility=hidden \
                  -Iinclude -MMD -MP

.PHONY: adapter-install-libtorch
adapter-install-libtorch:
	@$(call adapter_apt,libtorch-dev)

$(BUILD)/obj/candidates/libtorch/torch_shim.o: candidates/libtorch/torch_shim.cpp
	@mkdir -p $(@D)
	$(CXX) $(TORCH_CXXFLAGS) -c $< -o $@

$(ADAPTER_DIR)/libtorch.so: candidates/adapter.map $(BUILD)/obj/candidates/libtorch/libtorch.o \
                            $(BUILD)/obj/candidates/libtorch/torch_shim.o
	@mkdir -p $(@D)
	$(CXX) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) -ltorch_cpu -lc10 -lpthread

# The reproducers of its findings (reports/libtorch/repro/, run by
# tests/adapters/repro.mk): C++ programs on ATen alone.
REPRO_LIBS            += libtorch
REPRO_READY_libtorch  := /usr/include/ATen/ATen.h
REPRO_CC_libtorch     := $(CXX)
REPRO_FLAGS_libtorch  :=
REPRO_LDLIBS_libtorch := -ltorch_cpu -lc10
REPRO_ENV_libtorch    :=
