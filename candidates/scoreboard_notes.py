"""scoreboard_notes.py - what each library does, in plain words, beside the
findings the harness reports for it (reports/SCHEMA.md, "Findings"): the
notes written by hand for candidates/scoreboard.py, each checked on the
cases that show it when it was written, and the lookup of a finding's note.
Nothing here judges a run.
"""

import re

# Plain-words explanations of findings, keyed by the finding's signature in
# the harness's report (reports/SCHEMA.md, "Findings"): (library, signature)
# -> what the library does, checked against the cases that show them when
# they were written.  A signature written without " (on VARIANT)" also names
# the same finding confined to one layout.  A finding without a note is still
# listed; a note whose finding disappears is simply not printed.
NOTES = [
    ("openvino_core", "ACCEPTED_INVALID: returned OK where VOLUME_MISMATCH was expected",
     "ov::op::v1::Reshape's shape inference (2026.4.1, shape_infer in "
     "reshape_shape_inference.hpp) waives the volume check when the pattern has a 0 under "
     "special_zero: f32 [2,3] with i64 [0] is [2] (reports/openvino_core/repro/"
     "zero_skips_volume_check.cpp)"),
    ("openvino_core", "MEMORY_VIOLATION: execute into the dims infer_shape returned, [..]: "
     "wrote N bytes past the end of dst",
     "Reshape::evaluate copies the input's volume into the smaller output that shape inference "
     "accepted beside a copied 0: 24 bytes into an 8-byte f32 [2] (zero_skips_volume_check.cpp)"),
    ("openvino_core", "MEMORY_VIOLATION: execute into the dims infer_shape returned, [..]: "
     "wrote N bytes past the end of dst (guard page) (SIGSEGV in execute)",
     "the same copy of the input's volume into an accepted smaller output, up to the guard page"),
    ("openvino_core", "ACCEPTED_INVALID: returned OK where OVERFLOW was expected",
     "a u64 pattern value above INT64_MAX is read as int64: 18446744073709551615 is -1, so "
     "f32 [2,3] with u64 [1, 18446744073709551615] is [1,6] (u64_max_read_as_minus_one.cpp)"),
    ("openvino_core", "FAIL: bytes differ (on strided_src_padded)",
     "Reshape::evaluate copies data() as one dense block (ov::reference::reshape, a memcpy) "
     "whatever strides the ov::Tensor carries (reports/openvino_core/repro/"
     "evaluate_ignores_strides.cpp)"),
    ("openvino_core", "MEMORY_VIOLATION: wrote into a gap of strided dst at byte N (on strided_dst)",
     "the same dense copy into a strided output tensor writes its gaps"),
    ("openvino_core", "FAIL: returned NOT_DIVISIBLE where a shape was expected",
     "a volume of INT64_MAX is unbounded to ov::Dimension: u8 [7,7,73,127,337,92737,649657] "
     "with [-1] does not divide (reports/openvino_core/repro/int64_max_volume_refused.cpp)"),
    ("openvino_core", "FAIL: returned INTERNAL where a shape was expected",
     "a dim or volume of INT64_MAX is unbounded to ov::Dimension: the output shape comes back "
     "dynamic ([?]) from static inputs"),
    ("openvino_cpu", "FAIL: bytes differ",
     "the CPU plugin (default inference precision, bf16 on this host) converts f16 through "
     "f32: the signalling NaN 7d55 comes out 7f55 (reports/openvino_cpu/repro/"
     "f16_snan_quieted.cpp)"),
    ("openvino_cpu", "ACCEPTED_INVALID: returned OK where VOLUME_MISMATCH was expected",
     "the core's shape inference, which builds the model, waives the volume check beside a "
     "copied 0 (as openvino_core)"),
    ("openvino_cpu", "CRASH: execute into the dims infer_shape returned, [..]: read N bytes "
     "past the end of src (guard page) (SIGSEGV in execute)",
     "the plugin's copy for an accepted volume mismatch reads the output's volume from the "
     "smaller input: f32 [2,3] with i64 [0,3,6] compiles as [2,3,6] and fills it from the 6 "
     "elements and the 30 floats after them (reports/openvino_cpu/repro/zero_reads_past_src.cpp)"),
    ("openvino_cpu", "FAIL: bytes differ (on strided_src_padded)",
     "for some element types the CPU plugin does not honour a strided ov::Tensor: u32 [3,5] "
     "to [5,3] with a strided input or output leaves the output unwritten (f32 is right) "
     "(reports/openvino_cpu/repro/strided_u32_not_written.cpp)"),
    ("openvino_cpu", "FAIL: padding bits of the last byte of a dense sub-byte dst: expected N, got N",
     "the plugin writes the elements of a u4/i4 output and leaves the padding bits of its last "
     "byte as dst held them: 21 a3 comes out 21 53 into 55 55 (reports/openvino_cpu/repro/"
     "subbyte_padding_rewritten.cpp)"),
    ("onednn", "FAIL: returned INVALID_ARGUMENT where a shape was expected",
     "dnnl_memory_desc_reshape refuses every reshape of an empty tensor (all of these "
     "cases have a 0 in the input dims): f32 [0, 3] to [3, 0] is invalid_arguments "
     "(reports/onednn/repro/empty_reshape_refused.c)"),
    ("onednn", "FAIL: bytes differ",
     "the reorder that moves f16 elements converts them through f32: -0.0 comes out "
     "as +0.0 and signalling NaNs come out quiet (7d55 becomes 7f55); on a host "
     "without AVX-512 (ONEDNN_VERBOSE names the reorder simple:any, isa AVX2) bf16 "
     "goes the same way, and its denormals are flushed too (8000 becomes 0000, 7f95 "
     "7fd5, 0001 0000); on this host (AVX-512, the jit:uni reorder) bf16 passes "
     "(reports/onednn/repro/f16_through_f32.c, bf16_through_f32.c)"),
    ("onednn", "CRASH: signal N (Floating point exception) in execute",
     "a reorder of an empty tensor with strides dies with SIGFPE inside libdnnl's "
     "parallel reorder driver (dnnl_primitive_execute): f32 [0] stride 1 to f32 [0] "
     "stride 2 (reports/onednn/repro/empty_reorder_sigfpe.c)"),
    ("onednn", "ACCEPTED_INVALID: returned OK where DATA_TYPE was expected",
     "the primitive API has no operation type list: s32, s8 and u8 data pass where "
     "StaticReshape and DynamicReshape list f32, f16 and bf16 only "
     "(reports/onednn/repro/integer_types_accepted.c)"),
    ("onednn3", "FAIL: returned INVALID_ARGUMENT where a shape was expected",
     "as in 2.6.3: dnnl_memory_desc_reshape (oneDNN 3.2.0) refuses every reshape of an "
     "empty tensor to other dims, f32 [0, 3] to [3, 0] is invalid_arguments "
     "(reports/onednn3/repro/empty_reshape_refused.c)"),
    ("onednn3", "FAIL: bytes differ",
     "f16 as in 2.6.3: the simple:any reorder converts through f32, 8000 becomes 0000 and "
     "7d55 7f55; and bf16 on this AVX-512 host too, where 2.6.3 keeps it: 3.2.0's jit:uni "
     "reorder flushes bf16 denormals (0001 becomes 0000, 007f 0000) and quiets signalling "
     "NaNs (7f95 becomes 7fd5), the 70 runs that pass on 2.6.3 and fail here "
     "(reports/onednn3/repro/f16_through_f32.c, bf16_through_f32.c)"),
    ("onednn3", "CRASH: signal N (Floating point exception) in execute",
     "as in 2.6.3: a reorder of an empty tensor with strides dies with SIGFPE in "
     "dnnl_primitive_execute, f32 [0] stride 1 to f32 [0] stride 2 "
     "(reports/onednn3/repro/empty_reorder_sigfpe.c)"),
    ("onednn3", "ACCEPTED_INVALID: returned OK where DATA_TYPE was expected",
     "as in 2.6.3: the primitive API has no operation type list, s32, s8 and u8 pass "
     "(reports/onednn3/repro/integer_types_accepted.c)"),
    ("onednn_graph", "CRASH: signal N (Aborted) in infer_shape",
     "dnnl_graph_partition_compile (oneDNN 3.13.1) ends the process: for an f32 input of "
     "dims [4611686018427387904] and shape [-1] (any input whose volume fits int64 but whose "
     "byte size does not) make_dnnl_memory_desc, called from layout_propagator_for_reshape, "
     "throws dnnl::error \"could not construct a memory descriptor using strides\", which "
     "escapes the C API: std::terminate, SIGABRT, instead of a dnnl_status_t"),
    ("onednn_graph", "CRASH: signal N (Aborted) in execute",
     "dnnl_graph_partition_compile (oneDNN 3.13.1) ends the process for an output logical "
     "tensor whose strides interleave its dims: f32 [6] to [3, 2] with dst strides [2, 3] "
     "(offsets 0 3 2 5 4 7, distinct) makes make_dnnl_memory_desc, called from "
     "layout_propagator_for_reshape, throw dnnl::error \"could not construct a memory "
     "descriptor using strides\", which escapes the C API: std::terminate, SIGABRT"),
    ("onednn_graph", "ACCEPTED_INVALID: returned OK where OVERFLOW was expected",
     "infer_static_reshape_output_shape (oneDNN 3.13.1, src/graph/interface/shape_infer.cpp) "
     "multiplies the input dims in dim_t without an overflow check: an f32 input of dims "
     "[4294967296, 4294967296] (volume 2^64) with shape [-1] wraps to volume 0, and "
     "dnnl_graph_partition_compile succeeds with the output dims [0]"),
    ("onednn_graph313", "CRASH: the sandbox stopped system call rt_sigaction (N) in supports: "
     "signal N (Bad system call)",
     "oneDNN 3.13.2's CPU engine is a SYCL device, Intel's OpenCL CPU runtime "
     "(libintelocl.so of intel-opencl-rt 2026.2.0): its first clCreateContext, under "
     "dnnl_engine_create, runs CPUDevice::Init, InitDeviceBackend, "
     "Compiler::InitGlobalState and llvm::EnablePrettyStackTrace, whose RegisterHandlers "
     "installs a handler for SIGSYS (rt_sigaction(31, ...)), which the harness's seccomp "
     "filter refuses; with --sandbox off the suite runs (reports/onednn_graph/README.md)"),
    ("onnxruntime", "ACCEPTED_INVALID: returned OK where ZERO_AND_MINUS_ONE was expected",
     "with allowzero = 1 and an empty input, ONNX Runtime solves a -1 beside a literal "
     "0 instead of refusing the shape"),
    ("onnxruntime", "FAIL: returned OVERFLOW where a shape was expected",
     "ONNX Runtime multiplies the dims before it looks for a 0: an empty tensor whose "
     "other dims multiply past int64 is refused"),
    ("libtorch", "FAIL: returned OVERFLOW where a shape was expected",
     "libtorch multiplies the dims before it looks for a 0: an empty tensor whose other "
     "dims multiply past int64 is refused"),
    ("libtorch", "FAIL: bytes differ",
     "copy_ of a bool tensor writes 0 or 1: any other boolean byte comes out as 01, "
     "in place too"),
    ("libtorch", "ACCEPTED_INVALID: returned OK where DATA_TYPE was expected",
     "at::reshape has no type list: any libtorch dtype passes for the oneDNN operations"),
    ("numpy", "ACCEPTED_INVALID: returned OK where BELOW_MINUS_ONE was expected",
     "PyArray_Newshape takes every negative value as the unknown dimension: -2 or "
     "INT32_MIN act as -1"),
    ("numpy", "FAIL: returned OVERFLOW where a shape was expected",
     "PyArray_Newshape refuses an empty array whose nonzero dims times the item size pass "
     "NPY_MAX_INTP: f64 [0] to [0, 1152921504606846976] is \"array is too big\" although it "
     "holds no element; found by reshape-conform fuzz (cases/found_by_fuzz.yaml)"),
    ("numpy", "ACCEPTED_INVALID: returned OK where DATA_TYPE was expected",
     "PyArray_Newshape has no type list: any NumPy dtype passes for the oneDNN operations"),
    ("onnx_reference", "ACCEPTED_INVALID: returned OK where BELOW_MINUS_ONE was expected",
     "onnx.reference.ReferenceEvaluator (onnx 1.23.2, op_reshape.py's "
     "reshape_reference_implementation) hands the shape to numpy.reshape, which takes every "
     "negative value as the unknown dimension: f32 [2,3] with shape [2,-2] gives [2,3], "
     "where ONNX's own shape inference refuses the same model (\"Invalid dimension value: "
     "-2\"); reproducer: `reports/onnx_reference/repro/below_minus_one_as_minus_one.py`"),
    ("onnx_reference_latest", "ACCEPTED_INVALID: returned OK where BELOW_MINUS_ONE was expected",
     "onnx.reference.ReferenceEvaluator (onnx 1.23.2, op_reshape.py's "
     "reshape_reference_implementation) hands the shape to numpy.reshape, which takes every "
     "negative value as the unknown dimension: at opset 28 as at 14: f32 [2,3] with shape [2,-2] gives [2,3], "
     "where ONNX's own shape inference refuses the same model (\"Invalid dimension value: "
     "-2\"); reproducer: `reports/onnx_reference/repro/below_minus_one_as_minus_one.py`"),
    ("xnnpack", "ACCEPTED_INVALID: returned OK where VOLUME_MISMATCH was expected",
     "xnn_define_static_reshape (2022) compares no volumes: it takes any explicit "
     "shape, and the copy then moves the input's volume whatever the output's is "
     "(tests/adapters: 24 elements written into a [4,5] destination, past its end)"),
    ("xnnpack", "MEMORY_VIOLATION", "execute into the dims infer_shape returned",
     "the copy after an accepted mismatch moves the input's volume, not the output's: "
     "f32 [2,3,4] into the [7,3] it accepted writes past the end of the 21-element dst, "
     "and f32 [1] into an accepted [0] writes into the page after the empty dst"),
    ("xnnpack", "ACCEPTED_INVALID: returned OK where OVERFLOW was expected",
     "not a wrapping product: xnn_define_static_reshape compares no volumes at all, so "
     "f32 [4, 4611686018427387905] (2^64 + 4 elements) with [4] is taken as [4, 5] with "
     "[4] is (reports/xnnpack/repro/huge_volume_not_compared.c)"),
    ("xnnpack", "ACCEPTED_INVALID: returned OK where DATA_TYPE was expected",
     "s8 and u8 (qint8, quint8) pass where the oneDNN operations list f32, f16 and "
     "bf16 only"),
    ("xtensor", "CRASH", "Floating point exception",
     "xstrided_container::reshape (xcontainer.hpp:1081) computes size() % |product of "
     "the shape| first: any target shape with a 0 dies with SIGFPE, valid empty "
     "reshapes included ([2,5,5,0] with [0,4])"),
    ("xtensor", "ACCEPTED_INVALID", "BELOW_MINUS_ONE",
     "xstrided_container::reshape takes every negative value as the inferred dim "
     "(its XTENSOR_ASSERT(dim == -1) is compiled out by default): [2,3] with [-2,3] "
     "gives [1,3], half the elements"),
    ("xtensor", "ACCEPTED_INVALID", "MULTIPLE_MINUS_ONE",
     "with an odd number of -1s the product stays negative and only the last is "
     "solved: [2,3,4] with [-1,-1,-1] gives dims [18446744073709551615, "
     "18446744073709551615, 24]"),
    ("xtensor", "ACCEPTED_INVALID", "OVERFLOW",
     "dims are size_t and their products wrap silently"),
    ("xtensor", "ACCEPTED_INVALID", "DATA_TYPE",
     "xtensor has no type list: any element type passes for the oneDNN operations"),
    ("opencv", "ACCEPTED_INVALID", "VOLUME_MISMATCH",
     "Mat::reshape(cn, 2, newsz) on a 2-D Mat calls reshape(cn, newsz[0]) and never "
     "reads newsz[1]: [2,3] with [0,4] gives [2,3]"),
    ("opencv", "ACCEPTED_INVALID", "BELOW_MINUS_ONE",
     "the same ignored second size: [2,3] with [3,-2] gives [3,2]"),
    ("opencv", "FAIL", "wrong shape",
     "the same ignored second size: [0,0] with [0,12] gives [0,0], not [0,12]"),
    ("opencv", "FAIL", "of 'dst' is",
     "the same ignored second size: [0,0] with [0,12] gives [0,0], so a [0,12] "
     "destination is refused"),
    ("opencv", "FAIL", "INVALID_ARGUMENT where a shape",
     "cv::Mat::reshape refuses a new row count that does not divide the old one even when "
     "both are empty: u8 [1,0] to [2,0] (the 0 copied) gives \"Bad new number of rows\" "
     "(code -211); found by reshape-conform fuzz (cases/found_by_fuzz.yaml)"),
    ("opencv", "ACCEPTED_INVALID", "OVERFLOW",
     "the element counts Mat::reshape(cn, newndims, newsz) compares are size_t products, "
     "which wrap: f16 [0, 4] to [4, 1073741824, 1073741824, 4] (2^64 elements) counts 0, "
     "as the empty input does, and passes"),
    ("opencv", "ACCEPTED_INVALID", "DATA_TYPE",
     "cv::Mat has no type list: every depth passes for the oneDNN operations"),
    ("eigen", "ACCEPTED_INVALID", "BELOW_MINUS_ONE",
     "Eigen's dims are a signed Index and its one check (an eigen_assert) compares "
     "products only: negative dims pass whenever the product still matches, e.g. "
     "[2,3] to [-2,-3], or an empty tensor to [0,-2]"),
    ("eigen", "ACCEPTED_INVALID", "OVERFLOW",
     "the same check multiplies the signed Index dims without an overflow check: "
     "boolean [4, 4611686018427387905] (2^64 + 4 elements) counts 4 and reshapes to [4]"),
    ("eigen", "ACCEPTED_INVALID", "DATA_TYPE",
     "Eigen tensors have no type list: any element type passes for the oneDNN "
     "operations"),
    ("armnn", "ACCEPTED_INVALID", "DATA_TYPE",
     "Arm NN has no type list: s8, s16, s32 and u8 data pass for the oneDNN operations"),
    ("armnn", "ACCEPTED_INVALID", "BELOW_MINUS_ONE",
     "the adapter's copy of TfLiteParser::OutputShapeOfReshape (candidates/armnn/"
     "parser_shape.cpp; Debian ships no Arm NN parser) converts every value to unsigned "
     "int, and Arm NN's Reshape layer compares 32-bit element counts: f32 [6] with "
     "[-2, -3] gives [4294967294, 4294967293], whose product is 6 modulo 2^32, and loads"),
    ("armnn", "ACCEPTED_INVALID", "VOLUME_MISMATCH",
     "ReshapeQueueDescriptor::Validate compares TensorInfo::GetNumElements(), an unsigned "
     "int: f32 [4] to [4, 1073741825] (2^32 + 4 elements) loads and infers"),
    ("armnn", "ACCEPTED_INVALID", "NOT_DIVISIBLE",
     "the adapter's copy of TfLiteParser::OutputShapeOfReshape (candidates/armnn/"
     "parser_shape.cpp) multiplies the shape's values in 32 bits before it divides: bf16 [8] "
     "with [-1, 4, 1073741825] takes the product 4 (2^32 + 4 modulo 2^32) and gives "
     "[2, 4, 1073741825], 2^33 + 8 elements, which Arm NN's unsigned-int element count calls "
     "8, so the Reshape layer loads"),
    ("armnn", "ACCEPTED_INVALID", "ZERO_OUT_OF_RANGE",
     "the adapter's copy of OnnxParser's ComputeReshapeInfo (candidates/armnn/"
     "parser_shape.cpp) reads a copying 0 through TensorShape::operator[], and Arm NN's "
     "scalar TensorShape has GetNumDimensions() 1 and a dim of 1: [] with [0] gives [1]"),
    ("armnn", "FAIL: wrong shape",
     "the -1 divides TensorShape::GetNumElements(), an unsigned int: f32 [3037000499, "
     "3037000499] with [-1] gives [2661407785], the square modulo 2^32 (above the declared "
     "max_volume 2^32 - 1: a harness that reads declared limits skips these)"),
    ("armnn", "ACCEPTED_INVALID", "OVERFLOW",
     "element counts are unsigned int and wrap: an input of 2^63 elements counts 0 (above "
     "the declared max_volume, as above)"),
    ("armnn", "TIMEOUT", "in execute",
     "armnn::CopyMemGenericWorkload::Execute walks the outer dims of an empty tensor: "
     "EnqueueWorkload on f32 [2147483647, 2147483647, 2147483647, 0] does not return "
     "(tests/adapters/armnn_test.c)"),
]


# What a library's section says whatever its runs show (evidence gathered
# by hand, cited where it comes from).
LIBRARY_TEXT = {
    "onnx_reference":
        "ONNX's own reference evaluator, `onnx.reference.ReferenceEvaluator` of PyPI's onnx "
        "1.23.2, on one-node Reshape models built with `onnx.helper` and checked with "
        "`onnx.checker.check_model(full_check=True)`, opset 14 (19 for the 8-bit floats, 21 "
        "for s4 and u4); `onnx_reference_latest` is the same at opset 28. ONNX Reshape only: "
        "the other three operations are NOT_SUPPORTED, and so is u1 (ONNX has no 1-bit "
        "type). Every disagreement with the suite is decided in `reference/DECISIONS.md`, "
        "D13 (`candidates/onnx_reference/README.md`).",
    "onednn3":
        "The adapter of `candidates/onednn` (memory-descriptor reshape and reorder) built "
        "against PyPI's oneDNN 3.2.0 (`onednn-cpu-gomp` 2023.2.0, `candidates/onednn3/`), "
        "beside Debian's 2.6.3: every finding of 2.6.3 holds on 3.2.0, and bf16 fails on "
        "this AVX-512 host as well (`reports/onednn3/repro/`).",
    "openvino_core":
        "OpenVINO 2026.4.1 (the `openvino` wheel from PyPI, build 22982): one "
        "`ov::op::v1::Reshape` per call, its constructor's shape inference for `infer_shape` "
        "and `Reshape::evaluate` on host tensors for `execute`; the oneDNN and ONNX texts run "
        "as Reshape-1 where it expresses them (`candidates/openvino/README.md`).",
    "openvino_cpu":
        "OpenVINO 2026.4.1's CPU plugin: the same one-node model (pattern a Constant) through "
        "`ov::Core::compile_model(\"CPU\")` and an `InferRequest`, one inference thread and "
        "one stream, the plugin's default inference precision (bf16 on an AVX-512 BF16 host); "
        "`infer_shape` is the compiled model's output shape.",
    "onednn_graph":
        "oneDNN 3.2.0 (PyPI `onednn-cpu-gomp` 2023.2.0, what `make candidates` builds the "
        "adapter against) has no backend for a partition of one StaticReshape op: "
        "`dnnl_graph_partition_is_supported` gives 0 for f32 [2, 3] "
        "to [3, 2] (oneDNN issue #1858, against v3.4.1; supported since commit 6e75504d, "
        "July 2024), so every run the op's type list allows is NOT_SUPPORTED; the runs that "
        "pass are the type-list refusals of `dnnl_graph_add_op` (s32, s8, u8, f64: "
        "invalid_graph_op, not invalid_data_type). The three findings of the 3.13.1 record "
        "cannot be reached on 3.2.0 (`reports/onednn_graph/README.md`). DynamicReshape-1 "
        "answers NOT_SUPPORTED: oneDNN v3.0 onward has no DynamicReshape op kind "
        "(`dnnl_graph_types.h` of 3.2.0 and 3.13.1 lists `dnnl_graph_op_static_reshape` "
        "only). OpenVINO Reshape-1 and ONNX Reshape-14 run through the same StaticReshape op "
        "(`candidates/onednn_graph/README.md`).",
    "onednn_graph313":
        "The same adapter built against PyPI's oneDNN 3.13.2 (`onednn` 2026.1.0 and six "
        "Intel runtime wheels, 1.8 GB installed; opt-in: `make candidates "
        "ONEDNN_GRAPH313=1`, `candidates/onednn/wheel313.mk`). Its CPU engine is a SYCL "
        "device, Intel's OpenCL CPU runtime, which installs a SIGSYS handler that the "
        "sandbox refuses, so every request that reaches the engine is stopped in the "
        "harness's sandbox. With "
        "`--sandbox off` the three findings of the 3.13.1 record hold on 3.13.2 "
        "(`reports/onednn_graph/README.md`, `reports/onednn_graph/repro/`).",
}


def note_for(library, signature):
    """The note of `library` for a finding `signature`: the one written for the
    signature itself, else for the signature without its " (on VARIANT)";
    a note written as (library, verdict, text, note) names every finding of
    that verdict whose signature contains `text`."""
    bare = re.sub(r" \(on [a-z_]+\)$", "", signature)
    exact = [n for n in NOTES if len(n) == 3 and n[0] == library]
    for _, sig, note in exact:
        if sig == signature:
            return note
    for _, sig, note in exact:
        if sig == bare:
            return note
    for n in NOTES:
        if len(n) == 4 and n[0] == library and signature.startswith(n[1] + ":") \
                and n[2] in signature:
            return n[3]
    return None
