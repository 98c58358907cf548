// zero_in_shape_sigfpe.cpp - xtensor 0.24.3's xstrided_container::reshape
// with a signed shape (xcontainer.hpp, reshape_impl) first computes
// size() % (product of the shape): any shape with a 0 divides by 0, and the
// process dies of SIGFPE, valid empty reshapes included: u8 [2, 5, 5, 0] to
// [0, 4] (the reshape specs give [0, 4]).  Run in a child process.  Exit 0:
// the child still dies of SIGFPE (the finding holds); 1: it returns or
// throws now.  Against xtensor's headers alone.
#define _POSIX_C_SOURCE 200809L // fork, waitpid
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xtensor_config.hpp>

#include <cstddef>
#include <cstdio>
#include <exception>
#include <vector>

using signed_shape = std::vector<std::ptrdiff_t>;
using shape_type = std::vector<std::size_t>;

static void print_dims(const char *what, const shape_type &d)
{
    std::printf("%s [", what);
    for (std::size_t i = 0; i < d.size(); i++)
        std::printf("%s%zu", i ? ", " : "", d[i]);
    std::printf("]\n");
}

// xstrided_container::reshape of an adaptor with `dims` over `data` (row-major,
// its element count the product of the dims, as xtensor counts it) to the
// signed `shape`; the new dims into *out.  Throws what xtensor throws.
template <class T>
static void reshape_of(T *data, const shape_type &dims, const signed_shape &shape,
                       shape_type *out)
{
    std::size_t count = 1;
    for (std::size_t d : dims)
        count *= d;
    auto a = xt::adapt(data, count, xt::no_ownership(), dims);
    a.reshape(shape, xt::layout_type::row_major);
    out->assign(a.shape().begin(), a.shape().end());
}

int main()
{
    std::printf("xtensor %d.%d.%d\n", XTENSOR_VERSION_MAJOR, XTENSOR_VERSION_MINOR,
                XTENSOR_VERSION_PATCH);
    std::printf("reshape u8 dims [2, 5, 5, 0] to [0, 4]\nexpected: dims [0, 4]\n");
    std::fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 77;
    if (pid == 0) {
        static unsigned char byte;
        shape_type out;
        try {
            reshape_of(&byte, {2, 5, 5, 0}, {0, 4}, &out);
            print_dims("observed: dims", out);
        } catch (const std::exception &e) {
            std::printf("observed: %s\n", e.what());
        }
        _exit(0);
    }
    int st = 0;
    if (waitpid(pid, &st, 0) != pid)
        return 77;
    if (WIFSIGNALED(st)) {
        std::printf("observed: the process died of signal %d (%s)\n", WTERMSIG(st),
                    WTERMSIG(st) == SIGFPE ? "SIGFPE" : "not SIGFPE");
        return WTERMSIG(st) == SIGFPE ? 0 : 1;
    }
    return 1;
}
