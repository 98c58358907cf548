// count_wraps.cpp - OpenCV 4.6.0's Mat::reshape(cn, newndims, newsz)
// compares element counts that are size_t products, which wrap: f16 [0, 4]
// with {4, 1073741824, 1073741824, 4} (2^64 elements) counts 0, as the empty
// input does, and passes, where the reshape specs refuse a volume past
// int64.  Exit 0: it still passes with those dims (the finding holds); 1:
// refused now.  Against libopencv_core alone.
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
    static unsigned char byte[2];
    std::printf("OpenCV %s\n", CV_VERSION);
    try {
        cv::Mat m = reshape_of(byte, {0, 4}, CV_16F, {4, 1073741824, 1073741824, 4});
        std::printf("expected: an error (2^64 elements)\n");
        print_dims("observed: dims", m);
        return dims_are(m, {4, 1073741824, 1073741824, 4}) ? 0 : 1;
    } catch (const cv::Exception &e) {
        std::printf("observed: cv::Exception %d: %s\n", e.code, e.err.c_str());
        return 1;
    }
}
