# candidates/openvino/build.mk - the OpenVINO adapters (`make candidates`;
# not part of `all`): build/candidates/openvino_core.so (the core's shape
# inference and Reshape::evaluate), build/candidates/openvino_cpu.so (the
# CPU plugin through ov::Core::compile_model and an InferRequest, the
# pattern a Constant) and build/candidates/openvino_cpu_pattern.so (the
# same with the pattern a second Parameter; one source, openvino_cpu.cpp).
#
# The library is the `openvino` wheel from PyPI (pinned; candidates/pypi.mk),
# installed with --no-deps into a folder outside the clone that the next run
# reuses.  The wheel carries libopenvino.so.2641, its plugins and TBB in
# openvino/libs and the C++ headers in openvino/include (under the
# prefix's site-packages: Debian's scheme puts it below local/).  The
# adapters link that libopenvino.so.2641 by path and name its folder in
# their RUNPATH, so the harness's sandbox lets them read it (and the CPU
# plugin, which OpenVINO finds beside itself).
include candidates/adapters.mk
include candidates/pypi.mk

ADAPTER_LIBS += openvino_core openvino_cpu openvino_cpu_pattern

OV_VERSION  := 2026.4.1
OV_SITE      = $(call pypi_site,openvino,$(OV_VERSION))
OV_LIBS      = $(OV_SITE)/openvino/libs
OV_INCLUDE   = $(OV_SITE)/openvino/include
OV_SONAME   := libopenvino.so.2641
OV_LINK      = $(OV_LIBS)/$(OV_SONAME) -Wl,-rpath,$(OV_LIBS)
# OpenVINO's headers are not ours to keep -Werror clean.
OV_CXXFLAGS  = $(ADAPTER_CXXFLAGS) -isystem $(OV_INCLUDE) -Icandidates/openvino

.PHONY: adapter-install-openvino_core adapter-install-openvino_cpu \
        adapter-install-openvino_cpu_pattern adapter-install-openvino
adapter-install-openvino_core adapter-install-openvino_cpu \
adapter-install-openvino_cpu_pattern: adapter-install-openvino
adapter-install-openvino:
	@$(call pypi_install,openvino,$(OV_VERSION),--no-deps)

$(BUILD)/obj/candidates/openvino/%.o: candidates/openvino/%.cpp
	@mkdir -p $(@D)
	$(CXX) $(OV_CXXFLAGS) -c $< -o $@

$(BUILD)/obj/candidates/openvino/openvino_cpu_pattern.o: candidates/openvino/openvino_cpu.cpp
	@mkdir -p $(@D)
	$(CXX) $(OV_CXXFLAGS) -DOV_PATTERN_PARAMETER=1 -c $< -o $@

$(ADAPTER_DIR)/openvino_%.so: candidates/adapter.map $(BUILD)/obj/candidates/openvino/openvino_%.o
	@mkdir -p $(@D)
	$(CXX) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) $(OV_LINK) -lpthread

-include $(wildcard $(BUILD)/obj/candidates/openvino/*.d)

# The reproducers of reports/openvino_core/repro/ and reports/openvino_cpu/
# repro/ (tests/adapters/repro.mk builds and runs them; README.md there).
OV_REPRO_FLAGS    = -std=c++17 -O1 -isystem $(OV_INCLUDE)
OV_REPRO_LDLIBS   = $(OV_LINK)
REPRO_LIBS        += openvino_core openvino_cpu
REPRO_READY_openvino_core  = $(OV_LIBS)/$(OV_SONAME)
REPRO_CC_openvino_core    := $(CXX)
REPRO_FLAGS_openvino_core  = $(OV_REPRO_FLAGS)
REPRO_LDLIBS_openvino_core = $(OV_REPRO_LDLIBS)
REPRO_ENV_openvino_core   :=
REPRO_READY_openvino_cpu   = $(OV_LIBS)/libopenvino_intel_cpu_plugin.so
REPRO_CC_openvino_cpu     := $(CXX)
REPRO_FLAGS_openvino_cpu   = $(OV_REPRO_FLAGS)
REPRO_LDLIBS_openvino_cpu  = $(OV_REPRO_LDLIBS)
REPRO_ENV_openvino_cpu    :=
