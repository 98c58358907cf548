/*
 * numpy.c - the ABI over NumPy's PyArray_Newshape (Debian's python3-numpy
 * 1.24), by embedding Debian's Python 3.11 (libpython3.11, never the python
 * first on PATH).  Depends on the adapter kit (include/reshape_adapter.h),
 * Python's and NumPy's C APIs.
 *
 * What NumPy carries: f64, f32, f16, s64, s32, s16, s8, u64, u32, u16, u8
 * and boolean arrays (no bf16, 8-bit floats or sub-byte types), strided in
 * bytes with any stride (an array over caller memory with strides is what
 * numpy.lib.stride_tricks.as_strided makes: a stride of 0 is
 * numpy.broadcast_to's view), shape values as npy_intp.  PyArray_Newshape has -1 but no copying
 * zero, so special_zero true with a 0 in the shape is NOT_SUPPORTED.  NumPy's
 * messages name the rule that failed; README.md lists how each maps.
 *
 * Python is started once, on the first call that needs it, in isolated
 * mode (no PYTHON* environment variables, no user site, no signal
 * handlers); every call then takes the GIL for its duration.
 */
#define PY_SSIZE_T_CLEAN
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <Python.h>
#include <numpy/arrayobject.h>

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "reshape_adapter.h"

#include "../shape_types.h"

#include "numpy_version.h" /* NUMPY_VERSION, written at build time */

/* ------------------------------------------------------------ start-up */

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static char init_error[256];

/*
 * Starts Python and imports numpy's C API.  The harness dlopens this
 * library RTLD_LOCAL, which would hide libpython's symbols from numpy's
 * extension modules: it is reopened RTLD_GLOBAL first.
 */
static void init_python(void)
{
    PyConfig config;
    PyStatus status;

    if (dlopen(PYTHON_SONAME, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD) == NULL) {
        snprintf(init_error, sizeof init_error, "cannot promote '%s': %s",
                 PYTHON_SONAME, dlerror());
        return;
    }
    PyConfig_InitIsolatedConfig(&config);
    config.install_signal_handlers = 0;
    config.write_bytecode = 0;
    status = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(status)) {
        snprintf(init_error, sizeof init_error, "python did not start: %s",
                 status.err_msg != NULL ? status.err_msg : "no message");
        return;
    }
    if (_import_array() < 0) {
        PyErr_Clear();
        snprintf(init_error, sizeof init_error,
                 "python started but 'numpy' did not import");
    }
    /* Release the GIL: each call takes it with PyGILState_Ensure. */
    PyEval_SaveThread();
}

/* ------------------------------------------------------------ types */

/* The NumPy type number of each dtype it has. */
static const reshape_adapter_type npy_types[] = {
    {RESHAPE_DT_F64, NPY_FLOAT64}, {RESHAPE_DT_F32, NPY_FLOAT32}, {RESHAPE_DT_F16, NPY_FLOAT16},
    {RESHAPE_DT_S64, NPY_INT64},   {RESHAPE_DT_S32, NPY_INT32},   {RESHAPE_DT_S16, NPY_INT16},
    {RESHAPE_DT_S8, NPY_INT8},     {RESHAPE_DT_U64, NPY_UINT64},  {RESHAPE_DT_U32, NPY_UINT32},
    {RESHAPE_DT_U16, NPY_UINT16},  {RESHAPE_DT_U8, NPY_UINT8},    {RESHAPE_DT_BOOLEAN, NPY_BOOL},
};

/* The NumPy type number of `dtype` into *type, or NOT_SUPPORTED. */
static reshape_status npy_type_of(reshape_dtype dtype, int *type)
{
    return reshape_adapter_map_dtype(npy_types, RESHAPE_ADAPTER_COUNT(npy_types), dtype,
                                     "numpy has no dtype", type);
}

/* Every layout the ABI defines: an array over caller memory takes any
 * strides (wrap() refuses one whose bytes leave npy_intp). */
#define HANDLED RESHAPE_ADAPTER_ANY_STRIDES

/* NumPy's messages (ValueError, MemoryError) and the rule each names; the
 * first match wins, the rest is INTERNAL. */
static const struct {
    const char *text;
    reshape_status status;
} messages[] = {
    {"can only specify one unknown dimension", RESHAPE_E_MULTIPLE_MINUS_ONE},
    {"cannot reshape array of size", RESHAPE_E_VOLUME_MISMATCH},
    {"array is too big", RESHAPE_E_OVERFLOW},
    {"maximum supported dimension", RESHAPE_E_NOT_SUPPORTED},
};

/* Takes the pending Python exception, maps its text, records it. */
static reshape_status map_exception(const char *step)
{
    PyObject *type, *value, *trace;
    const char *text = "no exception set";
    reshape_status st = RESHAPE_E_INTERNAL;

    PyErr_Fetch(&type, &value, &trace);
    PyObject *str = value != NULL ? PyObject_Str(value) : NULL;
    if (str != NULL && PyUnicode_AsUTF8(str) != NULL)
        text = PyUnicode_AsUTF8(str);
    for (size_t i = 0; i < sizeof messages / sizeof messages[0]; i++)
        if (strstr(text, messages[i].text) != NULL) {
            st = messages[i].status;
            break;
        }
    st = reshape_adapter_fail(st, "numpy refused the reshape in '%s': %s (%s)", step,
                      text,
                      type != NULL ? ((PyTypeObject *)type)->tp_name : "?");
    PyErr_Clear();
    Py_XDECREF(str);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(trace);
    return st;
}

static reshape_status np_supports(reshape_op op, reshape_dtype data_dtype,
                                  reshape_dtype shape_dtype, unsigned layout)
{
    reshape_status st;
    int type;

    if ((st = reshape_adapter_check_layout(op, layout, HANDLED, "numpy")) != RESHAPE_OK ||
        (st = npy_type_of(data_dtype, &type)) != RESHAPE_OK)
        return st;
    return shape_type_check(op, shape_dtype, "numpy takes the shape as an npy_intp list");
}

/* ------------------------------------------------------------ calls */

/* The status for a tensor NumPy cannot hold (PyArray_New refused it, say
 * "array is too big"): NOT_SUPPORTED, the library's capacity, not its
 * reshape.  Takes the pending exception. */
static reshape_status cannot_hold(void)
{
    char why[512];

    map_exception("PyArray_New");
    snprintf(why, sizeof why, "%s", reshape_adapter_last_error());
    return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "numpy cannot hold this tensor: %s",
                                why);
}

/*
 * A NumPy array over caller memory into *array: `t`'s dims, its strides
 * converted to bytes (or `zero_strides`: every stride 0 over one byte, for
 * inference on dims alone), writeable, not owning its data.  RESHAPE_OK;
 * NOT_SUPPORTED for a stride whose bytes leave npy_intp (a size-1 dim may
 * carry any stride, but an array's strides are npy_intp bytes), or for
 * what PyArray_New refuses (cannot_hold).
 */
static reshape_status wrap(const reshape_tensor *t, int zero_strides, PyObject **array)
{
    static unsigned char one_byte;
    npy_intp dims[RESHAPE_MAX_RANK], strides[RESHAPE_MAX_RANK];
    int type;
    npy_intp itemsize = (npy_intp)reshape_dtype_bits(t->dtype) / 8;
    int use_strides = zero_strides || t->strides != NULL;
    void *data = t->data;
    reshape_status st;

    *array = NULL;
    if ((st = npy_type_of(t->dtype, &type)) != RESHAPE_OK)
        return st;
    for (int32_t i = 0; i < t->rank; i++) {
        dims[i] = (npy_intp)t->dims[i];
        strides[i] = 0;
        if (!zero_strides && t->strides != NULL &&
            __builtin_mul_overflow((npy_intp)t->strides[i], itemsize, &strides[i]))
            return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                        "numpy strides are npy_intp bytes: stride %lld of "
                                        "dim %d times %d bytes does not fit",
                                        (long long)t->strides[i], (int)i, (int)itemsize);
    }
    if (zero_strides || data == NULL)
        data = &one_byte;
    *array = PyArray_New(&PyArray_Type, t->rank, dims, type, use_strides ? strides : NULL,
                         data, 0, NPY_ARRAY_WRITEABLE | (use_strides ? 0 : NPY_ARRAY_CARRAY),
                         NULL);
    return *array != NULL ? RESHAPE_OK : cannot_hold();
}

/* PyArray_Newshape of `array` to the shape of `params`; NULL with the
 * status in *st. */
static PyObject *newshape(PyObject *array, const reshape_params *params,
                          reshape_status *st)
{
    int64_t values[RESHAPE_MAX_RANK];
    npy_intp ptr[RESHAPE_MAX_RANK];
    int32_t count;

    if ((*st = reshape_adapter_shape_list(params, 0, values, &count)) != RESHAPE_OK)
        return NULL;
    for (int32_t i = 0; i < count; i++)
        ptr[i] = (npy_intp)values[i];
    PyArray_Dims shape = {ptr, count};
    PyObject *r = PyArray_Newshape((PyArrayObject *)array, &shape, NPY_CORDER);
    if (r == NULL)
        *st = map_exception("PyArray_Newshape");
    return r;
}

/* Starts Python if needed; RESHAPE_OK or INTERNAL with the reason. */
static reshape_status ready(void)
{
    pthread_once(&init_once, init_python);
    if (init_error[0] != '\0')
        return reshape_adapter_fail(RESHAPE_E_INTERNAL, "%s", init_error);
    return RESHAPE_OK;
}

static reshape_status np_infer_shape(const reshape_params *params,
                                     const reshape_tensor *src,
                                     int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st;
    int type;

    if ((st = reshape_adapter_check_infer(params, src, out_rank, out_dims)) != RESHAPE_OK ||
        (st = npy_type_of(src->dtype, &type)) != RESHAPE_OK || (st = ready()) != RESHAPE_OK)
        return st;

    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *array, *r = NULL;
    if ((st = wrap(src, 1, &array)) == RESHAPE_OK &&
        (r = newshape(array, params, &st)) != NULL) {
        *out_rank = PyArray_NDIM((PyArrayObject *)r);
        for (int32_t i = 0; i < *out_rank; i++)
            out_dims[i] = PyArray_DIM((PyArrayObject *)r, i);
    }
    Py_XDECREF(r);
    Py_XDECREF(array);
    PyGILState_Release(gil);
    return st;
}

static reshape_status np_execute(const reshape_params *params,
                                 const reshape_tensor *src,
                                 const reshape_tensor *dst)
{
    reshape_status st;
    int64_t dims[RESHAPE_MAX_RANK];
    int type;

    if ((st = reshape_adapter_check_execute(params, src, dst)) != RESHAPE_OK ||
        (st = npy_type_of(src->dtype, &type)) != RESHAPE_OK || (st = ready()) != RESHAPE_OK)
        return st;

    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *array, *r = NULL, *out = NULL;
    if ((st = wrap(src, 0, &array)) != RESHAPE_OK ||
        (r = newshape(array, params, &st)) == NULL)
        goto out;
    int32_t rank = PyArray_NDIM((PyArrayObject *)r);
    for (int32_t i = 0; i < rank; i++)
        dims[i] = PyArray_DIM((PyArrayObject *)r, i);
    if ((st = reshape_adapter_check_dst(src, dst, rank, dims)) != RESHAPE_OK ||
        (st = wrap(dst, 0, &out)) != RESHAPE_OK)
        goto out;
    if (PyArray_CopyInto((PyArrayObject *)out, (PyArrayObject *)r) != 0)
        st = map_exception("PyArray_CopyInto");
out:
    Py_XDECREF(out);
    Py_XDECREF(r);
    Py_XDECREF(array);
    PyGILState_Release(gil);
    return st;
}

RESHAPE_ADAPTER_DEFINE("NumPy", NUMPY_VERSION " (Python " PY_VERSION ")",
                       np_supports, np_infer_shape, np_execute,
                       NULL)
