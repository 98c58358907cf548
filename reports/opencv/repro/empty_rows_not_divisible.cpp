// empty_rows_not_divisible.cpp - OpenCV 4.6.0's Mat::reshape refuses a new
// row count that does not divide the old one even when both Mats are empty:
// u8 [1, 0] with {2, 0} (0: keep the columns) throws cv::Exception "Bad new
// number of rows" (code -211), where the reshape specs give [2, 0] (volume
// 0 either way).  Found by reshape-conform's fuzzer
// (cases/found_by_fuzz.yaml).  Exit 0: still refused (the finding holds); 1:
// it returns now.  Against libopencv_core alone.
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
    static unsigned char byte;
    std::printf("OpenCV %s\n", CV_VERSION);
    try {
        cv::Mat m = reshape_of(&byte, {1, 0}, CV_8U, {2, 0});
        std::printf("expected: dims [2, 0]\n");
        print_dims("observed: dims", m);
        std::printf("(%s the specs give)\n", dims_are(m, {2, 0}) ? "the dims" : "not the dims");
        return 1;
    } catch (const cv::Exception &e) {
        std::printf("expected: dims [2, 0]\nobserved: cv::Exception %d: %s\n", e.code,
                    e.err.c_str());
        return 0;
    }
}
