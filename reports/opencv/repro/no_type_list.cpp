// no_type_list.cpp - cv::Mat has no list of element types for reshape: s8,
// u8 and s32 Mats reshape like f32 ones, where oneDNN Graph's
// StaticReshape-1 and DynamicReshape-1 list f32, f16 and bf16 only (the
// scoreboard's ACCEPTED_INVALID ... DATA_TYPE for those two operations: what
// OpenCV cannot express, not an OpenCV defect).  Exit 0: every one reshapes
// (the finding holds); 1: one is refused now.  Against libopencv_core alone.
#include <opencv2/core.hpp>

#include <cstdio>
#include <vector>

static void print_dims(const char *what, const cv::Mat &m)
{
    std::printf("%s [", what);
    for (int i = 0; i < m.dims; i++)
        std::printf("%s%d", i ? ", " : "", m.size[i]);
    std::printf("]\n");
}

// Mat::reshape(0, newsz.size(), newsz) of a Mat header of `dims` and `type`
// over `data` (channels kept, as the adapter calls it); prints the input.
static cv::Mat reshape_of(void *data, std::vector<int> dims, int type, std::vector<int> newsz)
{
    cv::Mat m(static_cast<int>(dims.size()), dims.data(), type, data);
    print_dims("input dims", m);
    std::printf("Mat::reshape(0, %zu, {", newsz.size());
    for (std::size_t i = 0; i < newsz.size(); i++)
        std::printf("%s%d", i ? ", " : "", newsz[i]);
    std::printf("})\n");
    return m.reshape(0, static_cast<int>(newsz.size()), newsz.data());
}

static bool dims_are(const cv::Mat &m, std::vector<int> want)
{
    if (m.dims != static_cast<int>(want.size()))
        return false;
    for (int i = 0; i < m.dims; i++)
        if (m.size[i] != want[i])
            return false;
    return true;
}

int main()
{
    int data[6] = {0};
    bool held = true;
    std::printf("OpenCV %s\n", CV_VERSION);
    for (int type : {CV_8S, CV_8U, CV_32S}) {
        std::printf("depth %d; expected by StaticReshape-1: an error (data type)\n", type);
        try {
            cv::Mat m = reshape_of(data, {2, 3}, type, {3, 2});
            print_dims("observed: dims", m);
            held = dims_are(m, {3, 2}) && held;
        } catch (const cv::Exception &e) {
            std::printf("observed: cv::Exception %d: %s\n", e.code, e.err.c_str());
            held = false;
        }
    }
    return held ? 0 : 1;
}
