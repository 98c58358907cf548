// ignored_second_size.cpp - OpenCV 4.6.0's Mat::reshape(cn, newndims,
// newsz) on a 2-D Mat with newndims 2 calls reshape(cn, newsz[0]) and never
// reads newsz[1]: u8 [2, 3] with {0, 4} (0: keep the rows) gives [2, 3]
// (VOLUME_MISMATCH expected), [2, 3] with {3, -2} gives [3, 2]
// (BELOW_MINUS_ONE expected), u8 [0, 0] with {0, 12} gives [0, 0] (the specs
// give [0, 12]).  Exit 0: all three still (the finding holds); 1: any
// differs or throws now.  Against libopencv_core alone.
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
    unsigned char data[6] = {0};
    bool held = true;
    std::printf("OpenCV %s\n", CV_VERSION);
    try {
        cv::Mat a = reshape_of(data, {2, 3}, CV_8U, {0, 4});
        std::printf("expected: an error (volume 6 to 8)\n");
        print_dims("observed: dims", a);
        held = dims_are(a, {2, 3}) && held;
        cv::Mat b = reshape_of(data, {2, 3}, CV_8U, {3, -2});
        std::printf("expected: an error (-2)\n");
        print_dims("observed: dims", b);
        held = dims_are(b, {3, 2}) && held;
        cv::Mat c = reshape_of(data, {0, 0}, CV_8U, {0, 12});
        std::printf("expected: dims [0, 12]\n");
        print_dims("observed: dims", c);
        held = dims_are(c, {0, 0}) && held;
    } catch (const cv::Exception &e) {
        std::printf("observed: cv::Exception %d: %s\n", e.code, e.err.c_str());
        return 1;
    }
    return held ? 0 : 1;
}
