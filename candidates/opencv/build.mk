# candidates/opencv/build.mk - the OpenCV adapter, build/candidates/opencv.so
# (`make candidates`; not part of `all`).  Only OpenCV's core module.
include candidates/adapters.mk

ADAPTER_LIBS += opencv

.PHONY: adapter-install-opencv
adapter-install-opencv:
	@$(call adapter_apt,libopencv-core-dev)

$(BUILD)/obj/candidates/opencv/opencv.o: ADAPTER_CXXFLAGS += -I/usr/include/opencv4

$(ADAPTER_DIR)/opencv.so: candidates/adapter.map $(BUILD)/obj/candidates/opencv/opencv.o \
                         
	@mkdir -p $(@D)
	$(CXX) $(ADAPTER_SO_FLAGS) -o $@ $(filter %.o,$^) -lopencv_core -lpthread

# The reproducers of its findings (reports/opencv/repro/, run by
# tests/adapters/repro.mk): C++ programs on libopencv_core alone.
REPRO_LIBS          += opencv
REPRO_READY_opencv  := /usr/include/opencv4/opencv2/core.hpp
REPRO_CC_opencv     := $(CXX)
REPRO_FLAGS_opencv  := -I/usr/include/opencv4
REPRO_LDLIBS_opencv := -lopencv_core
REPRO_ENV_opencv    :=
