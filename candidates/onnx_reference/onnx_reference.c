/*
 * onnx_reference.c - the ABI over ONNX's own reference evaluator,
 * onnx.reference.ReferenceEvaluator of PyPI's onnx wheel, on one-node
 * Reshape models built with onnx.helper (glue.py), by embedding Debian's
 * Python 3.11 (libpython3.11, never the python first on PATH).  Depends on
 * the adapter kit (include/reshape_adapter.h) and Python's C API.
 *
 * Built twice (build.mk): ONNX_REF_MODE "14" imports the first opset from
 * 14 on whose Reshape lists the data type, "latest" the newest opset the
 * wheel knows.  Only onnx_reshape_14 is claimed; allowzero is
 * 1 - special_zero.
 *
 * Python is started once, on the first call that needs it, in isolated
 * mode with no site and no signal handlers, its module search path the
 * standard library and the wheels' folder (ONNX_REF_SITE, also this
 * library's RUNPATH, so that the sandbox lets the worker read it); every
 * call then takes the GIL for its duration.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "reshape_adapter.h"

#include "glue_py.h"         /* GLUE_SOURCE: glue.py as a C string */
#include "onnx_ref_version.h" /* ONNX_REF_NAME, ONNX_REF_VERSION(S|_TEXT), ONNX_REF_MODE */

/* ------------------------------------------------------------ start-up */

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static char init_error[512];
/* glue.py's infer, execute and store */
static PyObject *glue_infer, *glue_execute, *glue_store;

/* The pending exception's text into init_error, after `what`. */
static void init_failed(const char *what)
{
    PyObject *type, *value, *trace, *str = NULL;

    PyErr_Fetch(&type, &value, &trace);
    if (value != NULL)
        str = PyObject_Str(value);
    snprintf(init_error, sizeof init_error, "%s: %s", what,
             str != NULL && PyUnicode_AsUTF8(str) != NULL ? PyUnicode_AsUTF8(str)
                                                         : "no message");
    PyErr_Clear();
    Py_XDECREF(str);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(trace);
}

/* Runs glue.py in a module of its own and takes its functions; checks that
 * the wheels imported are the ones the adapter was built against. */
static void load_glue(void)
{
    PyObject *module = PyImport_AddModule("onnx_reference_glue"); /* borrowed */
    PyObject *dict = module != NULL ? PyModule_GetDict(module) : NULL;
    PyObject *r = dict != NULL ? PyRun_String(GLUE_SOURCE, Py_file_input, dict, dict) : NULL;

    if (r == NULL) {
        init_failed("glue.py did not run (is onnx " ONNX_REF_VERSION " in " ONNX_REF_SITE "?)");
        return;
    }
    Py_DECREF(r);
    PyObject *versions = PyObject_CallMethod(module, "versions", NULL);
    const char *seen = versions != NULL ? PyUnicode_AsUTF8(versions) : NULL;
    if (seen == NULL)
        init_failed("glue.versions() failed");
    else if (strcmp(seen, ONNX_REF_VERSIONS) != 0)
        snprintf(init_error, sizeof init_error,
                 "the wheels imported are '%s' (onnx numpy protobuf ml_dtypes), built "
                 "against '%s'", seen, ONNX_REF_VERSIONS);
    Py_XDECREF(versions);
    glue_infer = PyObject_GetAttrString(module, "infer");
    glue_execute = PyObject_GetAttrString(module, "execute");
    glue_store = PyObject_GetAttrString(module, "store");
    if (init_error[0] == '\0' && (!glue_infer || !glue_execute || !glue_store))
        init_failed("glue.py lacks infer, execute or store");
}

/*
 * Starts Python.  The harness dlopens this library RTLD_LOCAL, which would
 * hide libpython's symbols from the extension modules: it is reopened
 * RTLD_GLOBAL first.  numpy's OpenBLAS keeps to one thread (the harness
 * runs its own threads); it reads its variable when numpy loads it.
 */
static void init_python(void)
{
    static const wchar_t *const paths[] = {
        L"/usr/lib/python3.11", L"/usr/lib/python3.11/lib-dynload", L"" ONNX_REF_SITE};
    PyConfig config;
    PyStatus status;

    if (dlopen(PYTHON_SONAME, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD) == NULL) {
        snprintf(init_error, sizeof init_error, "cannot promote '%s': %s", PYTHON_SONAME,
                 dlerror());
        return;
    }
    if (Py_IsInitialized()) {
        /* Another library of the process started Python (the other build
         * of this adapter, numpy's): the glue runs there, the wheels'
         * folder first on its path. */
        PyGILState_STATE gil = PyGILState_Ensure();
        PyObject *path = PySys_GetObject("path"); /* borrowed */
        PyObject *site = PyUnicode_FromString(ONNX_REF_SITE);
        if (path == NULL || site == NULL || PyList_Insert(path, 0, site) != 0)
            init_failed("cannot put " ONNX_REF_SITE " on sys.path");
        Py_XDECREF(site);
        if (init_error[0] == '\0')
            load_glue();
        PyGILState_Release(gil);
        return;
    }
    setenv("OPENBLAS_NUM_THREADS", "1", 0);
    PyConfig_InitIsolatedConfig(&config);
    config.install_signal_handlers = 0;
    config.write_bytecode = 0;
    config.site_import = 0;
    config.module_search_paths_set = 1;
    status = PyStatus_Ok();
    for (size_t i = 0; i < sizeof paths / sizeof paths[0] && !PyStatus_Exception(status); i++)
        status = PyWideStringList_Append(&config.module_search_paths, paths[i]);
    if (!PyStatus_Exception(status))
        status = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(status)) {
        snprintf(init_error, sizeof init_error, "python did not start: %s",
                 status.err_msg != NULL ? status.err_msg : "no message");
        return;
    }
    load_glue();
    /* Release the GIL: each call takes it with PyGILState_Ensure. */
    PyEval_SaveThread();
}

/* Starts Python if needed; RESHAPE_OK or INTERNAL with the reason. */
static reshape_status ready(void)
{
    pthread_once(&init_once, init_python);
    if (init_error[0] != '\0')
        return reshape_adapter_fail(RESHAPE_E_INTERNAL, "%s", init_error);
    return RESHAPE_OK;
}

/* ------------------------------------------------------------ types */

/* What ONNX has: every ABI dtype but u1 (no 1-bit type); which opset lists
 * which is for the checker to say. */
static reshape_status onnx_type_of(reshape_dtype dtype)
{
    if (dtype == RESHAPE_DT_U1)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "onnx has no 1-bit type ('u1')");
    return RESHAPE_OK;
}

/* numpy arrays over caller memory take any strides of the byte-sized
 * types; s4 and u4 are unpacked from dense bytes only. */
static unsigned handled(reshape_dtype dtype)
{
    return reshape_dtype_bits(dtype) >= 8 ? RESHAPE_ADAPTER_ANY_STRIDES
                                          : RESHAPE_LAYOUT_IN_PLACE;
}

static reshape_status or_supports(reshape_op op, reshape_dtype data_dtype,
                                  reshape_dtype shape_dtype, unsigned layout)
{
    reshape_status st;

    if ((st = reshape_adapter_check_layout(op, layout, handled(data_dtype),
                                           "onnx_reference unpacks 4-bit tensors from dense "
                                           "bytes")) != RESHAPE_OK)
        return st;
    if (op != RESHAPE_OP_ONNX_RESHAPE_14)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                    "onnx_reference runs ONNX Reshape only, not '%s'",
                                    reshape_op_name(op));
    if ((st = onnx_type_of(data_dtype)) != RESHAPE_OK)
        return st;
    return onnx_type_of(shape_dtype);
}

/* ------------------------------------------------------------ calls */

/* (status, value) from glue.py into *value (a new reference) and the
 * status; an exception or an error status records its message. */
static reshape_status take_result(PyObject *r, const char *step, PyObject **value)
{
    long code;
    PyObject *v;

    *value = NULL;
    if (r == NULL || !PyArg_ParseTuple(r, "lO", &code, &v)) {
        PyObject *type, *ev, *trace, *str = NULL;
        PyErr_Fetch(&type, &ev, &trace);
        if (ev != NULL)
            str = PyObject_Str(ev);
        reshape_adapter_fail(RESHAPE_E_INTERNAL, "glue.%s raised %s: %s", step,
                             type != NULL ? ((PyTypeObject *)type)->tp_name : "?",
                             str != NULL && PyUnicode_AsUTF8(str) != NULL
                                 ? PyUnicode_AsUTF8(str) : "no message");
        PyErr_Clear();
        Py_XDECREF(str);
        Py_XDECREF(type);
        Py_XDECREF(ev);
        Py_XDECREF(trace);
        Py_XDECREF(r);
        return RESHAPE_E_INTERNAL;
    }
    if (code != RESHAPE_OK) {
        const char *text = PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
        reshape_status st = reshape_adapter_fail((reshape_status)code, "%s",
                                                 text != NULL ? text : "no message");
        PyErr_Clear();
        Py_DECREF(r);
        return st;
    }
    Py_INCREF(v);
    *value = v;
    Py_DECREF(r);
    return RESHAPE_OK;
}

/* A tuple of the `n` int64 values of `values`. */
static PyObject *int_tuple(const int64_t *values, int32_t n)
{
    PyObject *t = PyTuple_New(n);
    for (int32_t i = 0; t != NULL && i < n; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(values[i]));
    return t;
}

/* `t`'s strides as a tuple, or None for dense. */
static PyObject *strides_of(const reshape_tensor *t)
{
    if (t->strides == NULL)
        Py_RETURN_NONE;
    return int_tuple(t->strides, t->rank);
}

/* A memoryview over the bytes `t` addresses (its extent), or None when it
 * addresses none. */
static PyObject *memory_of(const reshape_tensor *t, int writable)
{
    int64_t extent;
    size_t bytes;

    if (t->data == NULL || reshape_adapter_extent(t, &extent) != 0 || extent == 0 ||
        reshape_adapter_payload_bytes(t->dtype, extent, &bytes) != 0)
        Py_RETURN_NONE;
    return PyMemoryView_FromMemory((char *)t->data, (Py_ssize_t)bytes,
                                   writable ? PyBUF_WRITE : PyBUF_READ);
}

/* The shape tensor's values as (memoryview or None, dims tuple). */
static PyObject *shape_args(const reshape_tensor *shape)
{
    int64_t count;
    size_t bytes;
    PyObject *mem;

    if (reshape_adapter_volume(shape, &count) != 0 || count == 0 ||
        reshape_adapter_payload_bytes(shape->dtype, count, &bytes) != 0) {
        Py_INCREF(Py_None);
        mem = Py_None;
    } else {
        mem = PyMemoryView_FromMemory((char *)shape->data, (Py_ssize_t)bytes, PyBUF_READ);
    }
    return Py_BuildValue("(sNN)", reshape_adapter_dtype_name(shape->dtype), mem,
                         int_tuple(shape->dims, shape->rank));
}

static reshape_status or_infer_shape(const reshape_params *params, const reshape_tensor *src,
                                     int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st;

    if ((st = reshape_adapter_check_infer(params, src, out_rank, out_dims)) != RESHAPE_OK ||
        (st = or_supports(params->op, src->dtype, params->shape->dtype, 0)) != RESHAPE_OK ||
        (st = ready()) != RESHAPE_OK)
        return st;

    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *shape = shape_args(params->shape), *dims;
    PyObject *r = PyObject_CallFunction(glue_infer, "siNO", ONNX_REF_MODE,
                                        1 - params->special_zero,
                                        Py_BuildValue("(sN)",
                                                      reshape_adapter_dtype_name(src->dtype),
                                                      int_tuple(src->dims, src->rank)),
                                        shape);
    Py_XDECREF(shape);
    if ((st = take_result(r, "infer", &dims)) == RESHAPE_OK) {
        Py_ssize_t n = PyTuple_Size(dims);
        if (n < 0 || n > RESHAPE_MAX_RANK)
            st = reshape_adapter_fail(RESHAPE_E_INTERNAL, "the evaluator's output has rank %zd",
                                      n);
        *out_rank = (int32_t)(st == RESHAPE_OK ? n : 0);
        for (Py_ssize_t i = 0; st == RESHAPE_OK && i < n; i++)
            out_dims[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(dims, i));
    }
    Py_XDECREF(dims);
    PyGILState_Release(gil);
    return st;
}

/* The high nibble of src's last byte for an odd count of 4-bit elements
 * (the padding a dense-to-dense reshape copies), else 0. */
static int sub_byte_pad(const reshape_tensor *src)
{
    int64_t count;

    if (reshape_dtype_bits(src->dtype) != 4 || reshape_adapter_volume(src, &count) != 0 ||
        count % 2 == 0)
        return 0;
    return ((const unsigned char *)src->data)[count / 2] >> 4;
}

static reshape_status or_execute(const reshape_params *params, const reshape_tensor *src,
                                 const reshape_tensor *dst)
{
    reshape_status st;

    if ((st = reshape_adapter_check_execute(params, src, dst)) != RESHAPE_OK ||
        (st = or_supports(params->op, src->dtype, params->shape->dtype,
                          reshape_adapter_layout(src, dst))) != RESHAPE_OK ||
        (st = ready()) != RESHAPE_OK)
        return st;

    PyGILState_STATE gil = PyGILState_Ensure();
    const char *dname = reshape_adapter_dtype_name(src->dtype);
    PyObject *shape = shape_args(params->shape), *result, *done = NULL;
    PyObject *r = PyObject_CallFunction(
        glue_execute, "siNO", ONNX_REF_MODE, 1 - params->special_zero,
        Py_BuildValue("(sNNN)", dname, memory_of(src, 0), int_tuple(src->dims, src->rank),
                      strides_of(src)),
        shape);
    Py_XDECREF(shape);
    if ((st = take_result(r, "execute", &result)) != RESHAPE_OK)
        goto out;
    int64_t dims[RESHAPE_MAX_RANK];
    PyObject *out_dims = PyTuple_GetItem(result, 0), *out = PyTuple_GetItem(result, 1);
    Py_ssize_t rank = out_dims != NULL ? PyTuple_Size(out_dims) : -1;
    if (out == NULL || rank < 0 || rank > RESHAPE_MAX_RANK) {
        PyErr_Clear();
        st = reshape_adapter_fail(RESHAPE_E_INTERNAL, "glue.execute returned no output");
        goto out;
    }
    for (Py_ssize_t i = 0; i < rank; i++)
        dims[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(out_dims, i));
    if ((st = reshape_adapter_check_dst(src, dst, (int32_t)rank, dims)) != RESHAPE_OK)
        goto out;
    r = PyObject_CallFunction(glue_store, "OsNNNi", out, dname, memory_of(dst, 1),
                              int_tuple(dst->dims, dst->rank),
                              strides_of(dst),
                              sub_byte_pad(src));
    st = take_result(r, "store", &done);
out:
    Py_XDECREF(done);
    Py_XDECREF(result);
    PyGILState_Release(gil);
    return st;
}

RESHAPE_ADAPTER_DEFINE(ONNX_REF_NAME, ONNX_REF_VERSION_TEXT, or_supports,
                       or_infer_shape, or_execute, NULL)
