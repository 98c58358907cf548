/*
 * reshape_candidate.h - the candidate ABI of reshape-conformance, version 1.
 *
 * This is the one contract between a reshape kernel under test (a "candidate")
 * and the conformance harness.  A vendor implements it in a shared library that
 * exports one symbol, `reshape_candidate_v1`, and nothing else is required.
 * The header is self-contained C11: it includes only <stddef.h> and <stdint.h>.
 *
 * Operations and the spec texts they are judged against (specs/):
 *   RESHAPE_OP_OPENVINO_RESHAPE_1        openvino_reshape_1.rst
 *   RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1   onednn_static_reshape_1.md
 *   RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1  onednn_dynamic_reshape_1.md
 *   RESHAPE_OP_ONNX_RESHAPE_14           onnx_reshape_14.md
 * Where the texts disagree or are silent, reference/DECISIONS.md says which
 * outcomes the suite accepts.  Which data and shape types each operation
 * accepts is at the end of this header (reshape_op_accepts_data_dtype).
 * The files named here (reference/DECISIONS.md, cases/FORMAT.md,
 * docs/harness/device.md, specs/...) are paths of the source tree; `make
 * install` puts each at the same path below PREFIX/share/reshape-conform/
 * (also PREFIX/share/doc/reshape-conform/).
 *
 * Units: dims, volumes and strides are counted in elements, never bytes.
 * Memory: every buffer is the caller's.  A candidate never allocates, frees
 * or keeps a pointer to a tensor after a call returns.
 * Threads: `infer_shape` and `execute` may be called concurrently from several
 * threads on distinct tensors; a candidate must be thread-safe.
 */
#ifndef RESHAPE_CANDIDATE_H
#define RESHAPE_CANDIDATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version this header describes; `reshape_candidate.abi_version`
 * must hold it.  It changes only when the layout or meaning of anything below
 * changes incompatibly. */
#define RESHAPE_ABI_VERSION 1u

/* The name of the one exported entry symbol, for dlsym(). */
#define RESHAPE_CANDIDATE_ENTRY "reshape_candidate_v1"

/* The largest rank (of data, of output, and length of a shape tensor) the ABI
 * carries.  Larger ranks are RESHAPE_E_INVALID_ARGUMENT. */
#define RESHAPE_MAX_RANK 32

/* Marks the entry symbol as exported from a library built with
 * -fvisibility=hidden. */
#if defined(__GNUC__)
#define RESHAPE_EXPORT __attribute__((visibility("default")))
#else
#define RESHAPE_EXPORT
#endif

/* ---------------------------------------------------------------- statuses */

/*
 * What a call returns.  RESHAPE_OK is success; every spec error condition has
 * its own status (the spec sentence each one enforces is quoted beside it);
 * the last three are not spec errors.
 *
 * When one input breaks several rules, any of their statuses is acceptable
 * by default; the harness's --strict-errors asks for the one the reference
 * gives (reference/DECISIONS.md, "Order of checks").
 */
typedef enum reshape_status {
    RESHAPE_OK = 0,
    /* "Not more than one -1 can be used in a reshape operation." */
    RESHAPE_E_MULTIPLE_MINUS_ONE = 1,
    /* "The values in the shape could be -1, 0 and any positive integer
     * number"; StaticReshape: "s64 values where value is no less than -1". */
    RESHAPE_E_BELOW_MINUS_ONE = 2,
    /* "If special_zero is set to true index of 0 cannot be larger than the
     * rank of the input tensor": a copying 0 with no input dim to copy. */
    RESHAPE_E_ZERO_OUT_OF_RANGE = 3,
    /* "shape should not contain both 0 and -1 since the target shape cannot
     * be inferred in such a case": a -1 next to dims whose product is 0. */
    RESHAPE_E_ZERO_AND_MINUS_ONE = 4,
    /* "-1 means that this dimension is calculated to keep the overall
     * elements count the same": no whole number does it. */
    RESHAPE_E_NOT_DIVISIBLE = 5,
    /* "Input tensor volume is equal to output tensor volume". */
    RESHAPE_E_VOLUME_MISMATCH = 6,
    /* "shape: 1D tensor of type T_SHAPE describing output shape". */
    RESHAPE_E_SHAPE_NOT_1D = 7,
    /* The data type is not in the operation's T / T1 list. */
    RESHAPE_E_DATA_TYPE = 8,
    /* The shape type is not in the operation's T_SHAPE / T2 list (or is not
     * s64 for StaticReshape's s64[] attribute). */
    RESHAPE_E_SHAPE_TYPE = 9,
    /* A volume or product of dims does not fit int64, or an unsigned shape
     * value is above INT64_MAX. */
    RESHAPE_E_OVERFLOW = 10,

    /* The candidate does not implement this configuration: the harness
     * records a skip, not a failure. */
    RESHAPE_E_NOT_SUPPORTED = 100,
    /* Caller misuse: a NULL pointer, a rank outside 0..RESHAPE_MAX_RANK, a
     * negative dim or stride, an unknown enum value, dst dims or dtype that
     * do not match what the candidate infers, in-place with strides. */
    RESHAPE_E_INVALID_ARGUMENT = 101,
    /* Anything else that went wrong inside the candidate. */
    RESHAPE_E_INTERNAL = 102
} reshape_status;

/* ------------------------------------------------------------- operations */

typedef enum reshape_op {
    RESHAPE_OP_OPENVINO_RESHAPE_1 = 1,
    RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1 = 2,
    RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1 = 3,
    /* ONNX's allowzero is the negation of special_zero: allowzero = 0 is
     * special_zero = 1 (a 0 copies), allowzero = 1 is special_zero = 0. */
    RESHAPE_OP_ONNX_RESHAPE_14 = 4
} reshape_op;

#define RESHAPE_OP_COUNT 4

/* ------------------------------------------------------------- data types */

/*
 * Element types, named as the specs spell them.  Bit widths are given by
 * reshape_dtype_bits().
 *
 * Multi-byte elements are in the host's byte order.  Sub-byte elements (s4,
 * u4: 4 bits; u1: 1 bit) are packed with no gaps; the element with linear
 * offset `o` (in elements, after strides are applied) lives in byte
 * `o * bits / 8`, and within that byte:
 *   - u4, s4: element 0 in bits 0-3 (the low nibble), element 1 in bits 4-7;
 *   - u1: element 0 in bit 7 (the most significant bit) down to element 7 in
 *     bit 0.
 * This is OpenVINO's packing.  A dense tensor of `n` sub-byte elements
 * occupies ceil(n * bits / 8) bytes; the unused bits of its last byte are
 * padding, and a dense-to-dense reshape copies them unchanged.
 * boolean is one byte per element; any byte value may be stored and is
 * copied unchanged.
 */
typedef enum reshape_dtype {
    RESHAPE_DT_F64 = 1,
    RESHAPE_DT_F32 = 2,
    RESHAPE_DT_F16 = 3,
    RESHAPE_DT_BF16 = 4,
    RESHAPE_DT_F8E4M3 = 5,
    RESHAPE_DT_F8E5M2 = 6,
    RESHAPE_DT_S64 = 7,
    RESHAPE_DT_S32 = 8,
    RESHAPE_DT_S16 = 9,
    RESHAPE_DT_S8 = 10,
    RESHAPE_DT_U64 = 11,
    RESHAPE_DT_U32 = 12,
    RESHAPE_DT_U16 = 13,
    RESHAPE_DT_U8 = 14,
    RESHAPE_DT_S4 = 15,
    RESHAPE_DT_U4 = 16,
    RESHAPE_DT_U1 = 17,
    RESHAPE_DT_BOOLEAN = 18
} reshape_dtype;

#define RESHAPE_DT_COUNT 18

/* ------------------------------------------------------------------ tensors */

/*
 * A tensor as the caller lays it out.
 *   dtype    element type.
 *   rank     0..RESHAPE_MAX_RANK; rank 0 is a scalar of one element.
 *   dims     `rank` entries, each >= 0 (NULL allowed when rank is 0).
 *   strides  `rank` entries in elements, each >= 0, or NULL for dense
 *            row-major (the last dim varies fastest).  Element (i0..ik) is at
 *            linear offset sum(i_j * strides[j]) from `data`.
 *   data     the first element.  May be NULL only when the volume is 0, and
 *            in infer_shape, which reads dims alone.
 * A source tensor's data is read-only except during an in-place call.
 *
 * Layouts (reference/DECISIONS.md D12), as frameworks hand them to kernels:
 *   - Broadcast: a src may address one memory location from several
 *     elements (a stride of 0 on a dim larger than 1, as torch.expand and
 *     numpy.broadcast_to make; or any strides whose offsets coincide).  Each
 *     element is read from its own offset, so the values repeat.
 *   - Size-1 dims: a dim of size 1 may carry any stride >= 0.  Its index is
 *     always 0, so its stride never moves the address and does not count
 *     toward the tensor's extent.
 *   - Empty tensors: a tensor with a 0 dim has no element and addresses no
 *     memory; its other dims and all its strides (>= 0) are unconstrained.
 *   - Overlapping dst: a dst two of whose elements have the same offset
 *     has no defined result; execute refuses it with
 *     RESHAPE_E_INVALID_ARGUMENT and writes nothing.
 *   - In place: dst->data == src->data needs both dense (strides NULL); a
 *     broadcast or any strided src in place is RESHAPE_E_INVALID_ARGUMENT.
 * A tensor's extent is the offset of its last element plus one,
 * 1 + sum((dims[j] - 1) * strides[j]) over a tensor with volume > 0, 0
 * for an empty one.  Every bit its elements occupy must have an offset
 * below 2^63 - 7 from `data`: execute refuses a tensor whose last element
 * ends beyond that with RESHAPE_E_INVALID_ARGUMENT (no process can hold one;
 * the offset arithmetic of a copy stays within int64).
 * Each call states in its contract which of these it checks; the harness's
 * contract cases (cases/FORMAT.md, "Contract cases") make every such call.
 */
typedef struct reshape_tensor {
    reshape_dtype dtype;
    int32_t rank;
    const int64_t *dims;
    const int64_t *strides;
    void *data;
} reshape_tensor;

/*
 * The operation and its attributes for one call.
 *   op            which operation's rules apply.
 *   special_zero  0 (false) or 1 (true); for ONNX, 1 - allowzero.
 *   shape         the target shape: OpenVINO's and DynamicReshape's second
 *                 input, StaticReshape's s64[] attribute (dtype s64, rank 1),
 *                 ONNX's int64 input.  Its values are read from `data`,
 *                 dense, in its own dtype; never NULL.  Its `strides` must be
 *                 NULL and it holds at most RESHAPE_MAX_RANK values; its
 *                 `data` may be NULL only when it holds no values.
 * Every other value (a NULL params or shape, special_zero outside 0..1, an
 * op outside the enum) is RESHAPE_E_INVALID_ARGUMENT, from infer_shape and
 * execute alike.
 */
typedef struct reshape_params {
    reshape_op op;
    int32_t special_zero;
    const reshape_tensor *shape;
} reshape_params;

/* ------------------------------------------------------------------ layouts */

/*
 * Layout flags for `supports`; 0 is dense src into dense dst, out of place.
 * A run asks with every flag that describes its tensors, so a candidate that
 * accepts a combination it does not know accepts every layout the header
 * defines for it (D12).
 */
#define RESHAPE_LAYOUT_STRIDED_SRC 1u    /* src->strides != NULL */
#define RESHAPE_LAYOUT_STRIDED_DST 2u    /* dst->strides != NULL */
#define RESHAPE_LAYOUT_IN_PLACE 4u       /* dst->data == src->data, both dense */
/* With STRIDED_SRC: two or more of src's elements share an offset (a stride
 * of 0 on a dim larger than 1, a broadcast view). */
#define RESHAPE_LAYOUT_BROADCAST_SRC 8u
/* With STRIDED_SRC or STRIDED_DST: a dim of size 1 carries a stride other
 * than its dense one (0, huge, odd): it must never move the address. */
#define RESHAPE_LAYOUT_SIZE1_STRIDES 16u
/* Tensors live in the memory of the candidate's declared device
 * (reshape_device below); set only for a candidate that declares one. */
#define RESHAPE_LAYOUT_DEVICE 32u

/* ------------------------------------------------- optional: declared limits */

/*
 * What a candidate handles, declared once (optional: `reshape_candidate.limits`
 * may be NULL, and a table older than the field has none).  The harness skips,
 * without calling the candidate, every (case, variant) outside these limits
 * and names the limit in the skip's reason ("rank 6 above the candidate's
 * declared max_rank 5"); within them it asks `supports` as before.  Limits
 * apply to src and, for a case that expects success, to the output; a skip
 * counts as RESHAPE_E_NOT_SUPPORTED does, never against conformance.
 *   struct_size  sizeof(reshape_limits) as the candidate was compiled; the
 *                harness reads only the fields that fit in it.
 *   max_rank     largest rank, 0..RESHAPE_MAX_RANK, or -1 for no limit.
 *   max_dim      largest single dim, or -1 for no limit.
 *   max_volume   largest element count of one tensor, or -1 for no limit.
 *   ops          bit (1u << op) for each reshape_op handled, or 0: ask
 *                `supports`.
 *   data_dtypes  bit (1u << dtype) for each data dtype handled, or 0: ask
 *                `supports`.
 *   layouts      the RESHAPE_LAYOUT_* flags handled, any combination of them
 *                (0: dense out of place only); ~0u: ask `supports`.
 */
typedef struct reshape_limits {
    uint32_t struct_size;
    int32_t max_rank;
    int64_t max_dim;
    int64_t max_volume;
    uint32_t ops;
    uint32_t data_dtypes;
    uint32_t layouts;
} reshape_limits;

/* --------------------------------------------- optional: device memory */

/*
 * Device types, with DLPack's DLDeviceType values (dlpack.h), so that a
 * device is named as frameworks name it.
 */
#define RESHAPE_DEVICE_CPU 1       /* kDLCPU */
#define RESHAPE_DEVICE_CUDA 2      /* kDLCUDA */
#define RESHAPE_DEVICE_CUDA_HOST 3 /* kDLCUDAHost */
#define RESHAPE_DEVICE_OPENCL 4    /* kDLOpenCL */
#define RESHAPE_DEVICE_VULKAN 7    /* kDLVulkan */
#define RESHAPE_DEVICE_METAL 8     /* kDLMetal */
#define RESHAPE_DEVICE_ROCM 10     /* kDLROCM */
#define RESHAPE_DEVICE_EXT 12      /* kDLExtDev: any other, e.g. a simulator */
#define RESHAPE_DEVICE_ONEAPI 14   /* kDLOneAPI */

/*
 * A kernel's device (optional: `reshape_candidate.device` may be NULL, and a
 * table older than the field has none; such a candidate is tested in host
 * memory).  With a device, the harness keeps src and dst in device memory:
 * it allocates each buffer through `alloc` with canary bands around it (and
 * in the gaps of a strided layout), copies the staged bytes in with
 * `copy_to_device`, calls `supports` with RESHAPE_LAYOUT_DEVICE among the
 * flags, calls `execute` with device addresses in src->data and dst->data,
 * calls `synchronize`, and judges from what `copy_to_host` reads back
 * (docs/harness/device.md).  Shape values
 * (params->shape->data), dims, strides and everything infer_shape reads stay
 * in host memory; an execute that runs asynchronously copies what it needs
 * of them before it returns.
 *
 * Device addresses are linear within an allocation: the address `alloc`
 * returned plus k, 0 <= k < bytes, is byte k of it; the harness passes such
 * inner addresses (misaligned and strided layouts, one past the end of an
 * empty tensor).  `execute` may return with work in flight; `synchronize`
 * waits until every call made so far has finished and its writes are
 * visible to `copy_to_host`.  Every hook may be called from several threads
 * at once, and returns RESHAPE_OK or RESHAPE_E_INTERNAL (with last_error,
 * when given, saying why).
 *
 * Initialise lazily.  The harness may load a candidate in one process and
 * fork the workers that call it from there, and a device context does not
 * survive fork (CUDA's does not): the entry function and constructors must
 * not touch the device; the first hook or execute call in a process
 * initialises it.  A device that cannot be used on this machine (no driver,
 * no device) fails its first `alloc` with last_error saying why: the harness
 * then tests nothing and says so (exit status 77, docs/harness/device.md).
 *
 *   struct_size     sizeof(reshape_device) as the candidate was compiled;
 *                   at least up to `synchronize` (RESHAPE_DEVICE_V1_SIZE).
 *   device_type     RESHAPE_DEVICE_*, DLPack's DLDeviceType.
 *   device_id       the device's index among those of its type.
 *   name            a string naming the device and its driver, e.g.
 *                   "NVIDIA H100 80GB HBM3, driver 550.54"; never NULL.  Read
 *                   at load and again after the device's first use, so a
 *                   candidate may fill a static buffer when it initialises.
 *   alloc           out *device_ptr: `bytes` (>= 1) of device memory aligned
 *                   to at least 256 bytes.
 *   release         frees what `alloc` returned.
 *   copy_to_device  `bytes` from host memory to a device address.
 *   copy_to_host    `bytes` from a device address to host memory; sees every
 *                   write that `synchronize` waited for.
 *   synchronize     waits for all work the candidate has started.
 *   copy_on_device  optional (may be NULL): `bytes` from one device address
 *                   to another, the device's own copy; `perf` measures a
 *                   kernel's bandwidth beside it.
 *   memory_in_use   optional (may be NULL): out *bytes, device memory the
 *                   candidate holds now (its allocations plus the harness's);
 *                   `repeat` watches it for leaks.
 */
typedef struct reshape_device {
    uint32_t struct_size;
    int32_t device_type;
    int32_t device_id;
    const char *name;
    reshape_status (*alloc)(size_t bytes, void **device_ptr);
    reshape_status (*release)(void *device_ptr);
    reshape_status (*copy_to_device)(void *device_dst, const void *host_src,
                                     size_t bytes);
    reshape_status (*copy_to_host)(void *host_dst, const void *device_src,
                                   size_t bytes);
    reshape_status (*synchronize)(void);
    reshape_status (*copy_on_device)(void *device_dst, const void *device_src,
                                     size_t bytes);
    reshape_status (*memory_in_use)(uint64_t *bytes);
} reshape_device;

/* The smallest reshape_device.struct_size the harness accepts: the table up
 * to `synchronize`. */
#define RESHAPE_DEVICE_V1_SIZE                                                \
    (offsetof(reshape_device, synchronize) + sizeof(reshape_status (*)(void)))

/* Nonzero when a device table of `struct_size` bytes holds `field`. */
#define RESHAPE_DEVICE_HAS(dev, field)                                        \
    ((dev)->struct_size >= offsetof(reshape_device, field) +                  \
                               sizeof((dev)->field))

/* -------------------------------------------------------------- the table */

typedef struct reshape_candidate {
    /* RESHAPE_ABI_VERSION.  The harness refuses any other value. */
    uint32_t abi_version;
    /* sizeof(reshape_candidate) as the candidate was compiled; at least
     * RESHAPE_CANDIDATE_V1_SIZE (the harness refuses a smaller table). */
    uint32_t struct_size;
    /* Human-readable name and version of the kernel, e.g. "oneDNN", "2.6";
     * static strings, never NULL. */
    const char *name;
    const char *version;

    /*
     * Capability query: does the candidate implement `op` on `data_dtype`
     * elements with a `shape_dtype` target shape in `layout` (a combination
     * of RESHAPE_LAYOUT_* flags)?
     * Returns RESHAPE_OK, or RESHAPE_E_NOT_SUPPORTED and the harness skips
     * the case.  A configuration the spec forbids (f64 for StaticReshape,
     * say) should be reported as supported when the candidate rejects it
     * with the spec's status; that rejection is then tested.  For a value
     * outside the enums or layout flags either answer is allowed (the call
     * itself must then refuse it with RESHAPE_E_INVALID_ARGUMENT).  A
     * candidate that supports nothing the suite asks about is not
     * conformant: a run must pass at least one (case, variant).
     */
    reshape_status (*supports)(reshape_op op, reshape_dtype data_dtype,
                               reshape_dtype shape_dtype, unsigned layout);

    /*
     * Shape inference on dims alone: src->data and src->strides are ignored
     * (src->data may be NULL), so rules can be checked on volumes no machine
     * can hold.
     *   params     in: operation, special_zero, target shape (values read).
     *   src        in: dtype, rank and dims of the input.
     *   out_rank   out: rank of the output, 0..RESHAPE_MAX_RANK.
     *   out_dims   out: RESHAPE_MAX_RANK entries of room; the first
     *              *out_rank are written.
     * Returns RESHAPE_OK, or any spec error status above, or
     * RESHAPE_E_NOT_SUPPORTED / RESHAPE_E_INVALID_ARGUMENT /
     * RESHAPE_E_INTERNAL.  On error the outputs are unspecified.
     * NULL params, src, out_rank or out_dims, and any src or shape the
     * tensor and params rules above refuse, are RESHAPE_E_INVALID_ARGUMENT.
     */
    reshape_status (*infer_shape)(const reshape_params *params,
                                  const reshape_tensor *src,
                                  int32_t *out_rank, int64_t *out_dims);

    /*
     * Reshape: infer the output shape as infer_shape does, check it, then
     * copy every element of src, in row-major logical order, to the same
     * row-major logical position of dst.  Bytes are copied exactly (NaN
     * payloads, -0.0, denormals, any boolean byte); when src and dst are
     * both dense the padding bits of a sub-byte tensor's last byte are
     * copied too.  Bits of dst that hold no element (gaps of a strided
     * layout) are left unchanged.
     *   params  in: as for infer_shape.
     *   src     in: the input tensor.
     *   dst     in: dtype, rank, dims, strides and data of the caller's
     *           output buffer; the elements it addresses are written.
     * dst->dtype must equal src->dtype and dst->dims must equal the inferred
     * dims, else RESHAPE_E_INVALID_ARGUMENT and nothing is written: a
     * candidate must refuse, never overrun, a dst that does not fit.
     * In-place (dst->data == src->data, both dense) must work; in-place
     * with strides on either side is RESHAPE_E_INVALID_ARGUMENT.  A src may
     * be a broadcast view (D12); a dst whose elements overlap is
     * RESHAPE_E_INVALID_ARGUMENT.  With a declared device, src->data and
     * dst->data are device addresses and execute may return before the
     * copy has finished (reshape_device).
     * A NULL dst, src->data or dst->data with a volume above 0, or a dst
     * the tensor rules refuse, is RESHAPE_E_INVALID_ARGUMENT; src->strides
     * are checked here (infer_shape ignores them).
     * Returns as infer_shape does; on any error dst is left unchanged.
     */
    reshape_status (*execute)(const reshape_params *params,
                              const reshape_tensor *src,
                              const reshape_tensor *dst);

    /*
     * Optional (may be NULL): a human-readable message about the calling
     * thread's most recent non-OK status, or NULL.  The string stays valid
     * until the thread's next call into the candidate.
     */
    const char *(*last_error)(void);

    /* Fields below were added after version 1 was published, compatibly: the
     * harness reads one only when `struct_size` covers it, so a table
     * compiled against an older header (struct_size ==
     * RESHAPE_CANDIDATE_V1_SIZE) still loads and has neither. */

    /* Optional (may be NULL): what the candidate handles, declared once. */
    const reshape_limits *limits;
    /* Optional (may be NULL): the device whose memory src and dst live in. */
    const reshape_device *device;
} reshape_candidate;

/* sizeof(reshape_candidate) as version 1 was first published: the smallest
 * struct_size the harness accepts. */
#define RESHAPE_CANDIDATE_V1_SIZE                                             \
    (offsetof(reshape_candidate, last_error) + sizeof(const char *(*)(void)))

/* Nonzero when a table of `struct_size` bytes holds `field`. */
#define RESHAPE_CANDIDATE_HAS(table, field)                                   \
    ((table)->struct_size >= offsetof(reshape_candidate, field) +             \
                                 sizeof((table)->field))

/*
 * The entry point every candidate exports.  Returns a pointer to a table with
 * static storage duration; never NULL.  May be called more than once.
 */
typedef const reshape_candidate *(*reshape_candidate_entry)(void);
RESHAPE_EXPORT const reshape_candidate *reshape_candidate_v1(void);

/* ------------------------------------------------------- ABI facts, inline */

/* Bits per element of `dtype`, or 0 for a value outside the enum. */
static inline unsigned reshape_dtype_bits(reshape_dtype dtype)
{
    switch (dtype) {
    case RESHAPE_DT_F64: case RESHAPE_DT_S64: case RESHAPE_DT_U64: return 64;
    case RESHAPE_DT_F32: case RESHAPE_DT_S32: case RESHAPE_DT_U32: return 32;
    case RESHAPE_DT_F16: case RESHAPE_DT_BF16:
    case RESHAPE_DT_S16: case RESHAPE_DT_U16: return 16;
    case RESHAPE_DT_F8E4M3: case RESHAPE_DT_F8E5M2:
    case RESHAPE_DT_S8: case RESHAPE_DT_U8: case RESHAPE_DT_BOOLEAN: return 8;
    case RESHAPE_DT_S4: case RESHAPE_DT_U4: return 4;
    case RESHAPE_DT_U1: return 1;
    }
    return 0;
}

/* The spec spelling of `dtype` ("f32", "u1", "boolean"), or NULL. */
static inline const char *reshape_dtype_name(reshape_dtype dtype)
{
    static const char *const names[RESHAPE_DT_COUNT + 1] = {
        NULL, "f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2",
        "s64", "s32", "s16", "s8", "u64", "u32", "u16", "u8",
        "s4", "u4", "u1", "boolean"};
    return (dtype >= 1 && dtype <= RESHAPE_DT_COUNT) ? names[dtype] : NULL;
}

/* The suite's name of `op` ("openvino_reshape_1", ...), or NULL. */
static inline const char *reshape_op_name(reshape_op op)
{
    static const char *const names[RESHAPE_OP_COUNT + 1] = {
        NULL, "openvino_reshape_1", "onednn_static_reshape_1",
        "onednn_dynamic_reshape_1", "onnx_reshape_14"};
    return (op >= 1 && op <= RESHAPE_OP_COUNT) ? names[op] : NULL;
}

/* The name of `status` without its prefix ("OK", "MULTIPLE_MINUS_ONE",
 * "NOT_SUPPORTED", ...), as cases spell it, or NULL. */
static inline const char *reshape_status_name(reshape_status status)
{
    switch (status) {
    case RESHAPE_OK: return "OK";
    case RESHAPE_E_MULTIPLE_MINUS_ONE: return "MULTIPLE_MINUS_ONE";
    case RESHAPE_E_BELOW_MINUS_ONE: return "BELOW_MINUS_ONE";
    case RESHAPE_E_ZERO_OUT_OF_RANGE: return "ZERO_OUT_OF_RANGE";
    case RESHAPE_E_ZERO_AND_MINUS_ONE: return "ZERO_AND_MINUS_ONE";
    case RESHAPE_E_NOT_DIVISIBLE: return "NOT_DIVISIBLE";
    case RESHAPE_E_VOLUME_MISMATCH: return "VOLUME_MISMATCH";
    case RESHAPE_E_SHAPE_NOT_1D: return "SHAPE_NOT_1D";
    case RESHAPE_E_DATA_TYPE: return "DATA_TYPE";
    case RESHAPE_E_SHAPE_TYPE: return "SHAPE_TYPE";
    case RESHAPE_E_OVERFLOW: return "OVERFLOW";
    case RESHAPE_E_NOT_SUPPORTED: return "NOT_SUPPORTED";
    case RESHAPE_E_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case RESHAPE_E_INTERNAL: return "INTERNAL";
    }
    return NULL;
}

/* ---- type rules: generated by tools/type_rules/type_rules.py, do not edit ---- */

/*
 * Which data types (T, T1) and shape types (T_SHAPE, T2) each operation
 * accepts, as reference/DECISIONS.md D5 and D7 read the spec texts.  A
 * candidate returns RESHAPE_E_DATA_TYPE or RESHAPE_E_SHAPE_TYPE for any
 * other; the reference (reference/rules.c) and the case generators
 * (generators/model.py) take their rules from the same source,
 * specs/type_rules.yaml.
 */
#define RESHAPE_DT_BIT(dt) (UINT32_C(1) << (dt))

/* Bit 1u << dtype of each data type `op` accepts, 0 for an op outside
 * the enum. */
static inline uint32_t reshape_op_data_dtypes(reshape_op op)
{
    switch (op) {
    case RESHAPE_OP_OPENVINO_RESHAPE_1:
        /* "T: any numeric type.": every ABI dtype, boolean counted as numeric (D5). */
        return RESHAPE_DT_BIT(RESHAPE_DT_F64) | RESHAPE_DT_BIT(RESHAPE_DT_F32) |
               RESHAPE_DT_BIT(RESHAPE_DT_F16) | RESHAPE_DT_BIT(RESHAPE_DT_BF16) |
               RESHAPE_DT_BIT(RESHAPE_DT_F8E4M3) | RESHAPE_DT_BIT(RESHAPE_DT_F8E5M2) |
               RESHAPE_DT_BIT(RESHAPE_DT_S64) | RESHAPE_DT_BIT(RESHAPE_DT_S32) |
               RESHAPE_DT_BIT(RESHAPE_DT_S16) | RESHAPE_DT_BIT(RESHAPE_DT_S8) |
               RESHAPE_DT_BIT(RESHAPE_DT_U64) | RESHAPE_DT_BIT(RESHAPE_DT_U32) |
               RESHAPE_DT_BIT(RESHAPE_DT_U16) | RESHAPE_DT_BIT(RESHAPE_DT_U8) |
               RESHAPE_DT_BIT(RESHAPE_DT_S4) | RESHAPE_DT_BIT(RESHAPE_DT_U4) |
               RESHAPE_DT_BIT(RESHAPE_DT_U1) | RESHAPE_DT_BIT(RESHAPE_DT_BOOLEAN);
    case RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1:
        /* "T: f32,f16,bf16": exactly the list (D5). */
        return RESHAPE_DT_BIT(RESHAPE_DT_F32) | RESHAPE_DT_BIT(RESHAPE_DT_F16) |
               RESHAPE_DT_BIT(RESHAPE_DT_BF16);
    case RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1:
        /* "T1: f32,f16,bf16": exactly the list (D5). */
        return RESHAPE_DT_BIT(RESHAPE_DT_F32) | RESHAPE_DT_BIT(RESHAPE_DT_F16) |
               RESHAPE_DT_BIT(RESHAPE_DT_BF16);
    case RESHAPE_OP_ONNX_RESHAPE_14:
        /* "any tensor type": every ABI dtype (D5). */
        return RESHAPE_DT_BIT(RESHAPE_DT_F64) | RESHAPE_DT_BIT(RESHAPE_DT_F32) |
               RESHAPE_DT_BIT(RESHAPE_DT_F16) | RESHAPE_DT_BIT(RESHAPE_DT_BF16) |
               RESHAPE_DT_BIT(RESHAPE_DT_F8E4M3) | RESHAPE_DT_BIT(RESHAPE_DT_F8E5M2) |
               RESHAPE_DT_BIT(RESHAPE_DT_S64) | RESHAPE_DT_BIT(RESHAPE_DT_S32) |
               RESHAPE_DT_BIT(RESHAPE_DT_S16) | RESHAPE_DT_BIT(RESHAPE_DT_S8) |
               RESHAPE_DT_BIT(RESHAPE_DT_U64) | RESHAPE_DT_BIT(RESHAPE_DT_U32) |
               RESHAPE_DT_BIT(RESHAPE_DT_U16) | RESHAPE_DT_BIT(RESHAPE_DT_U8) |
               RESHAPE_DT_BIT(RESHAPE_DT_S4) | RESHAPE_DT_BIT(RESHAPE_DT_U4) |
               RESHAPE_DT_BIT(RESHAPE_DT_U1) | RESHAPE_DT_BIT(RESHAPE_DT_BOOLEAN);
    }
    return 0;
}

/* Bit 1u << dtype of each shape type `op` accepts, 0 for an op outside
 * the enum. */
static inline uint32_t reshape_op_shape_dtypes(reshape_op op)
{
    switch (op) {
    case RESHAPE_OP_OPENVINO_RESHAPE_1:
        /* "T_SHAPE: any supported integer type.": the integer index types, not s4, u4, u1 (D7). */
        return RESHAPE_DT_BIT(RESHAPE_DT_S64) | RESHAPE_DT_BIT(RESHAPE_DT_S32) |
               RESHAPE_DT_BIT(RESHAPE_DT_S16) | RESHAPE_DT_BIT(RESHAPE_DT_S8) |
               RESHAPE_DT_BIT(RESHAPE_DT_U64) | RESHAPE_DT_BIT(RESHAPE_DT_U32) |
               RESHAPE_DT_BIT(RESHAPE_DT_U16) | RESHAPE_DT_BIT(RESHAPE_DT_U8);
    case RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1:
        /* "Type: s64[]": the shape attribute's type (D7). */
        return RESHAPE_DT_BIT(RESHAPE_DT_S64);
    case RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1:
        /* "T2: s32": exactly the list (D7). */
        return RESHAPE_DT_BIT(RESHAPE_DT_S32);
    case RESHAPE_OP_ONNX_RESHAPE_14:
        /* "1-D tensor of int64": exactly the list (D7). */
        return RESHAPE_DT_BIT(RESHAPE_DT_S64);
    }
    return 0;
}

/* Nonzero when `dtype` is in `set` (bits 1u << dtype); 0 outside the enum. */
static inline int reshape_dtype_in(uint32_t set, reshape_dtype dtype)
{
    return dtype >= 1 && dtype <= RESHAPE_DT_COUNT && (set & RESHAPE_DT_BIT(dtype)) != 0;
}

/* Nonzero when `op` accepts data of `dtype` (its T / T1 list). */
static inline int reshape_op_accepts_data_dtype(reshape_op op, reshape_dtype dtype)
{
    return reshape_dtype_in(reshape_op_data_dtypes(op), dtype);
}

/* Nonzero when `op` accepts a shape of `dtype` (its T_SHAPE / T2 list). */
static inline int reshape_op_accepts_shape_dtype(reshape_op op, reshape_dtype dtype)
{
    return reshape_dtype_in(reshape_op_shape_dtypes(op), dtype);
}

/* ---- end of the generated type rules ---- */

#ifdef __cplusplus
}
#endif

#endif /* RESHAPE_CANDIDATE_H */
