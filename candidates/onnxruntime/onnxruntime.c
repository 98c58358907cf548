/*
 * onnxruntime.c - the ABI over ONNX Runtime's Reshape kernel (the CPU
 * provider of libonnxruntime.so.1 from the npm package onnxruntime-node),
 * through its C API: one session per (data dtype, shape dtype, allowzero),
 * each a one-node model from models.c, created on first use and kept.
 * Depends on the adapter kit (include/reshape_adapter.h), models.h and
 * onnxruntime_c_api.h.
 *
 * The adapter implements onnx_reshape_14 only: special_zero true is
 * allowzero 0.  The shape tensor goes to ONNX Runtime as it is, with its own
 * dtype and dims, so ONNX Runtime decides the shape-type and shape-rank
 * rules too.  What its interface cannot carry is NOT_SUPPORTED: u1 (ONNX has
 * no 1-bit type), strided tensors (OrtValues are dense: no broadcast view,
 * no size-1 dim with a stride of its own), and infer_shape on
 * an input above INFER_MAX_BYTES (ONNX Runtime infers a shape only by
 * running the model on real data).  ONNX Runtime's messages name the rule
 * that failed; README.md lists how each maps.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxruntime_c_api.h>

#include "reshape_adapter.h"
#include "models.h"

#define DENSE "onnxruntime tensors are dense"

/* The largest input infer_shape allocates to run the model on (zeros). */
#define INFER_MAX_BYTES ((size_t)64 << 20)

/* ------------------------------------------------------------ start-up */

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static const OrtApi *ort;
static OrtEnv *env;
static OrtSessionOptions *options;
static OrtMemoryInfo *cpu;
static char init_error[256];

/* Records an OrtStatus's message into `buf` and releases it. */
static void take_message(OrtStatus *s, char *buf, size_t size)
{
    snprintf(buf, size, "%s", ort->GetErrorMessage(s));
    ort->ReleaseStatus(s);
}

/* Creates the environment (logging only fatal errors, so a refused input
 * prints nothing), session options (one thread: the harness brings its
 * own) and the CPU memory info. */
static void init_ort(void)
{
    OrtStatus *s;

    ort = OrtGetApiBase()->GetApi(ORT_API_VERSION);
    if (ort == NULL) {
        snprintf(init_error, sizeof init_error,
                 "onnxruntime %s does not offer C API version %d",
                 OrtGetApiBase()->GetVersionString(), ORT_API_VERSION);
        return;
    }
    if ((s = ort->CreateEnv(ORT_LOGGING_LEVEL_FATAL, "reshape-conformance",
                            &env)) != NULL ||
        (s = ort->CreateSessionOptions(&options)) != NULL ||
        (s = ort->SetIntraOpNumThreads(options, 1)) != NULL ||
        (s = ort->SetInterOpNumThreads(options, 1)) != NULL ||
        (s = ort->CreateCpuMemoryInfo(OrtDeviceAllocator, OrtMemTypeDefault,
                                      &cpu)) != NULL)
        take_message(s, init_error, sizeof init_error);
}

/* ------------------------------------------------------------ messages */

/* ONNX Runtime's messages and the rule each names (reshape_helper.h,
 * reshape.h, graph type inference, the pre-allocated output check); the
 * first match wins, the rest is INTERNAL. */
static const struct {
    const char *text;
    reshape_status status;
} messages[] = {
    {"A dimension cannot be less than -1", RESHAPE_E_BELOW_MINUS_ONE},
    {"At most one dimension can be -1", RESHAPE_E_MULTIPLE_MINUS_ONE},
    {"The dimension with value zero exceeds", RESHAPE_E_ZERO_OUT_OF_RANGE},
    {"cannot be reshaped to the requested shape", RESHAPE_E_VOLUME_MISMATCH},
    {"The requested shape has too many elements", RESHAPE_E_OVERFLOW},
    {"A shape tensor must be a vector tensor", RESHAPE_E_SHAPE_NOT_1D},
    {"of input parameter (shape)", RESHAPE_E_SHAPE_TYPE},
    {"of input parameter (data)", RESHAPE_E_DATA_TYPE},
    {"Could not find an implementation", RESHAPE_E_NOT_SUPPORTED},
    {"The output OrtValue provided for output", RESHAPE_E_INVALID_ARGUMENT},
    {"Shape mismatch attempting to re-use buffer", RESHAPE_E_INVALID_ARGUMENT},
    {"shape verification failed", RESHAPE_E_INVALID_ARGUMENT},
};

/* The message of an OrtStatus without ONNX Runtime's source location and
 * function signature ("/onnxruntime_src/...h:27 onnxruntime::F(...) "),
 * which say nothing to a reader of a report. */
static const char *short_message(const char *text)
{
    const char *m = strstr(text, "Status Message: ");
    if (m != NULL)
        text = m + strlen("Status Message: ");
    if (text[0] == '/' && (m = strstr(text, ") ")) != NULL)
        text = m + 2;
    return text;
}

/* Maps an OrtStatus to the ABI, records its message, releases it. */
static reshape_status map_status(OrtStatus *s, const char *step)
{
    const char *text = ort->GetErrorMessage(s);
    reshape_status st = RESHAPE_E_INTERNAL;

    for (size_t i = 0; i < sizeof messages / sizeof messages[0]; i++)
        if (strstr(text, messages[i].text) != NULL) {
            st = messages[i].status;
            break;
        }
    st = reshape_adapter_fail(st, "onnxruntime refused the reshape in '%s': %s", step,
                      short_message(text));
    ort->ReleaseStatus(s);
    return st;
}

/* ------------------------------------------------------------ sessions */

/* A session, or why ONNX Runtime would not create one (then kept, so a
 * refused model is refused the same way every time). */
struct session_slot {
    OrtSession *session;
    reshape_status status;
    char message[512];
};

static pthread_mutex_t sessions_lock = PTHREAD_MUTEX_INITIALIZER;
static struct session_slot sessions[RESHAPE_DT_COUNT + 1][RESHAPE_DT_COUNT + 1][2];

static const struct ort_model *find_model(reshape_dtype data, reshape_dtype shape,
                                          int allowzero)
{
    for (size_t i = 0; i < ort_model_count; i++)
        if (ort_models[i].data_dtype == data && ort_models[i].shape_dtype == shape &&
            ort_models[i].allowzero == allowzero)
            return &ort_models[i];
    return NULL;
}

/* The session for a call, created on first use.  NULL with the status and
 * message set when there is no model or ONNX Runtime refused it. */
static OrtSession *session_for(reshape_dtype data, reshape_dtype shape,
                               int allowzero, reshape_status *st)
{
    const struct ort_model *m = find_model(data, shape, allowzero);
    if (m == NULL) {
        *st = reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                           "onnx has no type for '%s'",
                           reshape_dtype_name(data == RESHAPE_DT_U1 ? data : shape));
        return NULL;
    }
    pthread_mutex_lock(&sessions_lock);
    struct session_slot *slot = &sessions[data][shape][allowzero];
    if (slot->session == NULL && slot->status == RESHAPE_OK) {
        OrtStatus *s = ort->CreateSessionFromArray(env, m->bytes, m->size,
                                                   options, &slot->session);
        if (s != NULL) {
            slot->session = NULL;
            slot->status = map_status(s, "CreateSessionFromArray");
            snprintf(slot->message, sizeof slot->message, "%s",
                     reshape_adapter_last_error());
        }
    }
    OrtSession *session = slot->session;
    *st = slot->status;
    if (session == NULL)
        reshape_adapter_fail(*st, "%s", slot->message);
    pthread_mutex_unlock(&sessions_lock);
    return session;
}

/* ------------------------------------------------------------ values */

static ONNXTensorElementDataType onnx_type_of(reshape_dtype dtype)
{
    switch (dtype) {
    case RESHAPE_DT_F64: return ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE;
    case RESHAPE_DT_F32: return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT;
    case RESHAPE_DT_F16: return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16;
    case RESHAPE_DT_BF16: return ONNX_TENSOR_ELEMENT_DATA_TYPE_BFLOAT16;
    case RESHAPE_DT_F8E4M3: return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT8E4M3FN;
    case RESHAPE_DT_F8E5M2: return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT8E5M2;
    case RESHAPE_DT_S64: return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64;
    case RESHAPE_DT_S32: return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32;
    case RESHAPE_DT_S16: return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16;
    case RESHAPE_DT_S8: return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8;
    case RESHAPE_DT_U64: return ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64;
    case RESHAPE_DT_U32: return ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT32;
    case RESHAPE_DT_U16: return ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16;
    case RESHAPE_DT_U8: return ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8;
    case RESHAPE_DT_S4: return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT4;
    case RESHAPE_DT_U4: return ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT4;
    case RESHAPE_DT_BOOLEAN: return ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL;
    default: return ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
    }
}

/* ONNX Runtime refuses a NULL buffer even for zero elements. */
static unsigned char empty_byte;

/* An OrtValue over a dense ABI tensor's memory (not copied, not owned).
 * A tensor ONNX Runtime cannot hold (its dims overflow its size checks) is
 * NOT_SUPPORTED: that is the library's capacity, not its reshape. */
static reshape_status make_value(const reshape_tensor *t, void *data,
                                 OrtValue **out)
{
    int64_t n;
    size_t bytes;
    static const int64_t no_dims[1] = {0};

    if (reshape_adapter_volume(t, &n) != 0 ||
        reshape_adapter_payload_bytes(t->dtype, n, &bytes) != 0)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "a '%s' tensor of that volume cannot be in memory",
                            reshape_dtype_name(t->dtype));
    OrtStatus *s = ort->CreateTensorWithDataAsOrtValue(
        cpu, data != NULL ? data : &empty_byte, bytes,
        t->rank > 0 ? t->dims : no_dims, (size_t)t->rank,
        onnx_type_of(t->dtype), out);
    if (s == NULL)
        return RESHAPE_OK;
    char why[512];
    *out = NULL;
    map_status(s, "CreateTensorWithDataAsOrtValue");
    snprintf(why, sizeof why, "%s", reshape_adapter_last_error());
    return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                        "onnxruntime cannot hold this tensor: %s", why);
}

/* The dims of a tensor OrtValue into *rank / dims (RESHAPE_MAX_RANK room). */
static reshape_status read_dims(const OrtValue *v, int32_t *rank, int64_t *dims)
{
    OrtTensorTypeAndShapeInfo *info;
    OrtStatus *s;
    size_t n;

    if ((s = ort->GetTensorTypeAndShape(v, &info)) != NULL)
        return map_status(s, "GetTensorTypeAndShape");
    s = ort->GetDimensionsCount(info, &n);
    if (s == NULL && n > RESHAPE_MAX_RANK) {
        ort->ReleaseTensorTypeAndShapeInfo(info);
        return reshape_adapter_fail(RESHAPE_E_INTERNAL,
                            "onnxruntime produced rank %zu, above %d", n,
                            RESHAPE_MAX_RANK);
    }
    if (s == NULL)
        s = ort->GetDimensions(info, dims, n);
    ort->ReleaseTensorTypeAndShapeInfo(info);
    if (s != NULL)
        return map_status(s, "GetDimensions");
    *rank = (int32_t)n;
    return RESHAPE_OK;
}

/* ------------------------------------------------------------ entry points */

static reshape_status ort_supports(reshape_op op, reshape_dtype data_dtype,
                                   reshape_dtype shape_dtype, unsigned layout)
{
    reshape_status st = reshape_adapter_check_layout(op, layout, RESHAPE_LAYOUT_IN_PLACE,
                                                     DENSE);
    if (st != RESHAPE_OK)
        return st;
    if (op != RESHAPE_OP_ONNX_RESHAPE_14)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                    "onnxruntime implements onnx_reshape_14 only");
    if (onnx_type_of(data_dtype) == ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED ||
        onnx_type_of(shape_dtype) == ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED, "onnx has no type for it");
    return RESHAPE_OK;
}

/*
 * Runs the model on `src` (data `src_data`) and the shape of `params`.
 * `dst` NULL: ONNX Runtime allocates the output and its dims are returned.
 * Otherwise the output is bound to dst's memory with dst's dims, so ONNX
 * Runtime writes there itself (and refuses dims that are not the output's).
 */
static reshape_status run(const reshape_params *params, const reshape_tensor *src,
                          void *src_data, const reshape_tensor *dst,
                          int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st;
    OrtValue *inputs[2] = {NULL, NULL}, *output = NULL;
    static const char *const input_names[2] = {"data", "shape"};
    static const char *const output_names[1] = {"reshaped"};

    if (params->op != RESHAPE_OP_ONNX_RESHAPE_14)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                                    "onnxruntime implements onnx_reshape_14 only");
    pthread_once(&init_once, init_ort);
    if (init_error[0] != '\0')
        return reshape_adapter_fail(RESHAPE_E_INTERNAL, "%s", init_error);
    OrtSession *session = session_for(src->dtype, params->shape->dtype,
                                      params->special_zero ? 0 : 1, &st);
    if (session == NULL)
        return st;
    if ((st = make_value(src, src_data, &inputs[0])) != RESHAPE_OK ||
        (st = make_value(params->shape, params->shape->data, &inputs[1])) !=
            RESHAPE_OK)
        goto out;
    if (dst != NULL && (st = make_value(dst, dst->data, &output)) != RESHAPE_OK)
        goto out;
    OrtStatus *s = ort->Run(session, NULL, input_names,
                            (const OrtValue *const *)inputs, 2, output_names, 1,
                            &output);
    if (s != NULL) {
        st = map_status(s, "Run");
        goto out;
    }
    if (dst == NULL)
        st = read_dims(output, out_rank, out_dims);
out:
    if (output != NULL)
        ort->ReleaseValue(output);
    for (int i = 0; i < 2; i++)
        if (inputs[i] != NULL)
            ort->ReleaseValue(inputs[i]);
    return st;
}

static reshape_status ort_infer_shape(const reshape_params *params,
                                      const reshape_tensor *src,
                                      int32_t *out_rank, int64_t *out_dims)
{
    reshape_status st;
    int64_t n;
    size_t bytes;

    if ((st = reshape_adapter_check_infer(params, src, out_rank, out_dims)) != RESHAPE_OK)
        return st;
    if (reshape_adapter_volume(src, &n) != 0 ||
        reshape_adapter_payload_bytes(src->dtype, n, &bytes) != 0 ||
        bytes > INFER_MAX_BYTES)
        return reshape_adapter_fail(RESHAPE_E_NOT_SUPPORTED,
                            "onnxruntime infers a shape only by running on data; "
                            "this input is above %zu bytes",
                            INFER_MAX_BYTES);
    void *zeros = calloc(bytes > 0 ? bytes : 1, 1);
    if (zeros == NULL)
        return reshape_adapter_fail(RESHAPE_E_INTERNAL, "out of memory for %zu bytes",
                            bytes);
    st = run(params, src, zeros, NULL, out_rank, out_dims);
    free(zeros);
    return st;
}

static reshape_status ort_execute(const reshape_params *params,
                                  const reshape_tensor *src,
                                  const reshape_tensor *dst)
{
    reshape_status st;

    if ((st = reshape_adapter_check_execute(params, src, dst)) != RESHAPE_OK ||
        (st = reshape_adapter_check_layout(params->op, reshape_adapter_layout(src, dst),
                                           RESHAPE_LAYOUT_IN_PLACE, DENSE)) != RESHAPE_OK)
        return st;
    if (dst->dtype != src->dtype)
        return reshape_adapter_check_dst(src, dst, 0, NULL);
    return run(params, src, src->data, dst, NULL, NULL);
}

/*
 * As the harness loads the candidate, while the worker has one thread:
 * turns ONNX Runtime's telemetry off before any environment exists (1.30.0
 * from npm starts Microsoft's 1DS SDK in CreateEnv, which writes
 * /tmp/mat-debug-<pid>.log and ~/.cache/Microsoft/DeveloperTools/
 * .onnxruntime/onnxruntime.db, reads /etc/machine-id and prepares HTTPS
 * uploads; ORT_DISABLE_TELEMETRY=1 stops all of it, README.md), and
 * writes the version of the library that is loaded ("1.30.0").
 */
static void start(char *version, size_t size)
{
    setenv("ORT_DISABLE_TELEMETRY", "1", 1);
    snprintf(version, size, "%s", OrtGetApiBase()->GetVersionString());
}

RESHAPE_ADAPTER_DEFINE_LOADED("ONNX Runtime", start,
                              ort_supports, ort_infer_shape, ort_execute,
                              NULL)
