"""The normative sentences of each spec text, and which one each rule cites.

SENTENCES lists, per file of specs/, every sentence the suite
checks: (key, section, text).  `text` is copied from the file with its
markup (``x``, *x*, **x**, `x`) left out; coverage.py finds it there after
the same stripping and whitespace folding, and fails when it cannot.
Every sentence listed here must be the `quote` of at least one case.

NOT_CHECKED lists the sentences of the same texts deliberately left out,
each with the reason, so that COVERAGE.md shows them too.

RULE_SENTENCES says, per operation, which sentence a generated case quotes
for each rule it exercises (generators pick quotes only through `cite`).
Depends on nothing.
"""

OV = "openvino_reshape_1.rst"
OV_SHORT = "openvino_reshape_1_short.md"
STATIC = "onednn_static_reshape_1.md"
STATIC_TABLE = "onednn_static_reshape_1_table.rst"
DYNAMIC = "onednn_dynamic_reshape_1.md"
ONNX = "onnx_reshape_14.md"

SPEC_FILES = (OV, OV_SHORT, STATIC, STATIC_TABLE, DYNAMIC, ONNX)

_SZ_FALSE = ("If special_zero is false, then 0 is interpreted as-is which means "
             "that output shape will contain a zero dimension at the specified "
             "location.")
_EMPTY = "Input and output tensors are empty in this case."
_VOLUME = ("Input tensor volume is equal to output tensor volume, where volume "
           "is the product of dimensions.")
_NOT_BOTH = ("shape should not contain both 0 and -1 since the target shape "
             "cannot be inferred in such a case.")
_LAYOUT = "Output tensor may have a different memory layout from input tensor."

SENTENCES = {
    OV: (
        ("volume", "Short description", _VOLUME),
        ("values", "Detailed description",
         "The values in the shape could be -1, 0 and any positive integer number."),
        ("zero", "Detailed description",
         '0 means "copy the respective dimension (left aligned) of the input '
         'tensor" if special_zero is set to true; otherwise it is a normal '
         'dimension and is applicable to empty tensors.'),
        ("minus_one", "Detailed description",
         "-1 means that this dimension is calculated to keep the overall "
         "elements count the same as in the input tensor."),
        ("one_minus_one", "Detailed description",
         "Not more than one -1 can be used in a reshape operation."),
        ("zero_index", "Detailed description",
         "If special_zero is set to true index of 0 cannot be larger than the "
         "rank of the input tensor."),
        ("zero_literal", "Attributes, special_zero", _SZ_FALSE),
        ("zero_empty", "Attributes, special_zero", _EMPTY),
        ("zero_copy", "Attributes, special_zero",
         "If special_zero is true, then all zeros in shape implies the copying "
         "of corresponding dimensions from data.shape into the output shape "
         "(left aligned)."),
        ("data_input", "Inputs", "data a tensor of type T and arbitrary shape."),
        ("shape_input", "Inputs",
         "shape 1D tensor of type T_SHAPE describing output shape."),
        ("output", "Outputs",
         "Output tensor of type T with the same content as data input tensor "
         "but with shape defined by shape input tensor."),
        ("t", "Types", "T: any numeric type."),
        ("t_shape", "Types", "T_SHAPE: any supported integer type."),
        ("example_1", "Examples, Example 1", "The tensor contains 2 elements: 0, 4"),
        ("example_2", "Examples, Example 2",
         "The tensor contains 3 elements: 0, -1, 4"),
        ("example_3", "Examples, Example 3",
         "The tensor contains 4 elements: 0, 0, 1, -1"),
        ("example_4", "Examples, Example 4",
         "The tensor contains 2 elements: -1, 0"),
        ("example_5", "Examples, Example 5",
         "The tensor contains 2 elements: 0, -1"),
    ),
    OV_SHORT: (
        ("volume", "Short description", _VOLUME),
        ("values", "Detailed description",
         "The values in the second tensor could be -1, 0 and any positive "
         "integer number."),
        ("zero", "Detailed description",
         '0 means "copy the respective dimension of the input tensor" if '
         'special_zero is set to true; otherwise it is a normal dimension and '
         'is applicable to empty tensors.'),
        ("minus_one", "Detailed description",
         "-1 means that this dimension is calculated to keep the overall "
         "elements count the same as in the input tensor."),
        ("one_minus_one", "Detailed description",
         "Not more than one -1 can be used in a reshape operation."),
        ("zero_literal", "Attributes, special_zero", _SZ_FALSE),
        ("zero_empty", "Attributes, special_zero", _EMPTY),
        ("zero_copy", "Attributes, special_zero",
         "If special_zero is true, then all zeros in shape implies the copying "
         "of corresponding dimensions from data.shape into the output shape."),
        ("data_input", "Inputs", "data -- multidimensional input tensor."),
        ("shape_input", "Inputs", "shape -- 1D tensor describing output shape."),
        ("output", "Outputs",
         "Output tensor with the same content as a tensor at input data but "
         "with shape defined by input shape."),
        ("example_1", "Examples, first example",
         "The tensor contains 3 elements: 0, 4"),
        ("example_2", "Examples, second example",
         "The tensor contains 3 elements: 0, -1, 4"),
    ),
    STATIC: (
        ("changes", "Detailed description",
         "StaticReshape changes dimensions of a input tensor according to the "
         "specified shape."),
        ("volume", "Detailed description", _VOLUME),
        ("layout", "Detailed description", _LAYOUT),
        ("in_place", "Detailed description",
         "StaticReshape is not guaranteed to return a view or a copy of an input "
         "tensor when output tensor is in-placed with the input tensor, user "
         "should not depend on this behavior."),
        ("attribute", "Detailed description",
         "For StaticReshape op, shape is given as an attribute."),
        ("shape_array", "Attributes, shape",
         "shape is an array specifies the output shape."),
        ("shape_i", "Attributes, shape",
         "shape[i] gives the lengths of the i-th dimension of output."),
        ("minus_one", "Attributes, shape",
         "-1 means that this dimension is calculated to keep the overall "
         "elements count the same as the input tensor."),
        ("one_minus_one", "Attributes, shape",
         "No more than one -1 can be used in a StaticReshape operation."),
        ("range", "Attributes, shape",
         "Range of values: s64 values where value is no less than -1"),
        ("type", "Attributes, shape", "Type: s64[]"),
        ("zero_literal", "Attributes, special_zero", _SZ_FALSE),
        ("zero_empty", "Attributes, special_zero", _EMPTY),
        ("not_both", "Attributes, special_zero", _NOT_BOTH),
        ("zero_copy", "Attributes, special_zero",
         "If special_zero is true, then all zeros in shape implies the copying "
         "of corresponding dimensions from the input tensor into the output "
         "shape."),
        ("input", "Inputs", "input - multidimensional input tensor of type T."),
        ("output", "Outputs",
         "Output tensor with the same content as input but with shape defined "
         "by attribute shape."),
        ("t", "Types", "T: f32,f16,bf16"),
    ),
    STATIC_TABLE: (
        ("changes", "StaticReshape",
         "StaticReshape operation changes dimensions of \\src tensor according "
         "to the specified shape."),
        ("volume", "StaticReshape",
         "The volume of \\src is equal to \\dst, where volume is the product of "
         "dimensions."),
        ("layout", "StaticReshape",
         "\\dst may have a different memory layout from \\src."),
        ("in_place", "StaticReshape",
         "StaticReshape operation is not guaranteed to return a view or a copy "
         "of \\src when \\dst is in-placed with the \\src."),
        ("minus_one", "Operation Attributes, note on shape",
         "dimension -1 means that this dimension is calculated to keep the same "
         "overall elements count as the src tensor."),
        ("one_minus_one", "Operation Attributes, note on shape",
         "That case that more than one -1 in the shape is not supported."),
        ("special_zero", "Operation Attributes, note on special_zero",
         "if false, 0 in the shape is interpreted as-is (for example a "
         "zero-dimension tensor); if true, then all 0s in shape implies the "
         "copying of corresponding dimensions from src into dst."),
        ("data_types", "Supported Data Types",
         "StaticReshape operation supports the following data type "
         "combinations."),
        ("f32", "Supported Data Types", "f32 f32"),
        ("bf16", "Supported Data Types", "bf16 bf16"),
        ("f16", "Supported Data Types", "f16 f16"),
    ),
    DYNAMIC: (
        ("changes", "Short description",
         "DynamicReshape operation changes dimensions of the input tensor "
         "according to the specified order."),
        ("volume", "Short description", _VOLUME),
        ("layout", "Short description", _LAYOUT),
        ("in_place", "Short description",
         "DynamicReshape is not guaranteed to return a view or a copy of an "
         "input tensor when output tensor is in-placed with input tensor, user "
         "should not depend on this behavior."),
        ("runtime", "Short description",
         "For DynamicReshape, shape is given as an input tensor at runtime."),
        ("zero_literal", "Attributes, special_zero", _SZ_FALSE),
        ("zero_empty", "Attributes, special_zero", _EMPTY),
        ("not_both", "Attributes, special_zero", _NOT_BOTH),
        ("zero_copy", "Attributes, special_zero",
         "If special_zero is true, then all zeros in shape implies the copying "
         "of corresponding dimensions from the input tensor into the output "
         "shape."),
        ("input", "Inputs", "input - multidimensional input tensor."),
        ("shape_input", "Inputs", "shape - specifies the output shape."),
        ("values", "Inputs",
         "The values in this tensor could be -1, 0 and any positive integer "
         "number."),
        ("minus_one", "Inputs",
         "-1 means that this dimension is calculated to keep the overall "
         "elements count the same as input tensor."),
        ("zero_attr", "Inputs", "0 is interpreted by attr special_zero."),
        ("one_minus_one", "Inputs",
         "No more than one -1 can be used in shape tensor."),
        ("output", "Outputs",
         "output tensor with the same content as input input but with shape "
         "defined by input shape."),
        ("t1", "Types", "T1: f32,f16,bf16"),
        ("t2", "Types", "T2: s32"),
    ),
    ONNX: (
        ("data_input", "Inputs",
         "data (any tensor type; opset 19 adds 8-bit floats, opset 21 adds "
         "4-bit integers)"),
        ("shape_input", "Inputs", "shape (1-D tensor of int64)"),
        ("output", "Output",
         "Output: same element type and bytes, dimensions from shape."),
        ("allowzero_0", "Attribute allowzero",
         "allowzero = 0: a 0 in shape copies the input dimension at the same "
         "index."),
        ("allowzero_1", "Attribute allowzero",
         "allowzero = 1: a 0 in shape is a literal zero dimension."),
        ("not_both", "Attribute allowzero",
         "With allowzero = 1 the shape may not contain both 0 and -1: such a "
         "shape is invalid."),
        ("minus_one", "Rules shared with the other texts",
         "at most one -1, inferred so that the element counts match"),
        ("volume", "Rules shared with the other texts",
         "the element counts of input and output must be equal"),
        ("scalar", "Rules shared with the other texts",
         "an empty shape means a scalar (rank-0) output"),
        ("rejects", "Rules shared with the other texts",
         "ONNX's own shape inference also rejects values below -1, a copying 0 "
         "at an index not less than the input rank, and products that "
         "overflow."),
        ("backend", "Backend cases",
         "ONNX's backend test suite has ten Reshape cases, all float32 data "
         "with an int64 shape, all valid (no error cases)."),
    ),
}

NOT_CHECKED = (
    (OV, "Detailed description",
     "Reshape takes two input tensors: data to be resized and shape of the new output.",
     "introduces the inputs that Inputs states as rules"),
    (OV, "Attributes, special_zero", "Range of values: false or true",
     "a YAML case can only hold true or false; other values are caller misuse the "
     "harness's own tests cover"),
    (OV_SHORT, "Attributes, special_zero", "Default value: None",
     "an attribute without a default is required; the ABI always passes one"),
    (STATIC_TABLE, "Operation Attributes",
     "Specifies rules used for auto-broadcasting of src tensors",
     "erratum (DECISIONS.md D6): the row belongs to another operation; the "
     "operation text gives shape as s64[]"),
    (DYNAMIC, "Short description",
     "Use DynamicReshape op if shape is not stored in a constant node or not "
     "available until execution stage.",
     "advice on choosing an operation, nothing a kernel does"),
    (ONNX, "Attribute allowzero",
     "This is OpenVINO / oneDNN special_zero = true.",
     "the mapping the ABI's special_zero = 1 - allowzero carries"),
)

# rule -> sentence key, per operation.  Rules: volume, minus_one,
# one_minus_one, below_minus_one, zero_copy, zero_literal, zero_index,
# zero_and_minus_one, shape_1d, data_type, shape_type, overflow_value,
# overflow_volume, output, scalar, too_many_values.
RULE_SENTENCES = {
    "openvino_reshape_1": (OV, {
        "volume": "volume", "minus_one": "minus_one",
        "one_minus_one": "one_minus_one", "below_minus_one": "values",
        "zero_copy": "zero_copy", "zero_literal": "zero_literal",
        "zero_empty": "zero_empty", "zero_index": "zero_index",
        "zero_and_minus_one": "zero", "shape_1d": "shape_input",
        "data_type": "t", "shape_type": "t_shape", "overflow_value": "t_shape",
        "overflow_volume": "volume", "output": "output", "scalar": "data_input",
        "too_many_values": "shape_input",
    }),
    "onednn_static_reshape_1": (STATIC, {
        "volume": "volume", "minus_one": "minus_one",
        "one_minus_one": "one_minus_one", "below_minus_one": "range",
        "zero_copy": "zero_copy", "zero_literal": "zero_literal",
        "zero_empty": "zero_empty", "zero_index": "zero_copy",
        "zero_and_minus_one": "not_both", "shape_1d": "type",
        "data_type": "t", "shape_type": "type", "overflow_value": "range",
        "overflow_volume": "volume", "output": "output", "scalar": "shape_i",
        "too_many_values": "shape_i",
    }),
    "onednn_dynamic_reshape_1": (DYNAMIC, {
        "volume": "volume", "minus_one": "minus_one",
        "one_minus_one": "one_minus_one", "below_minus_one": "values",
        "zero_copy": "zero_copy", "zero_literal": "zero_literal",
        "zero_empty": "zero_empty", "zero_index": "zero_copy",
        "zero_and_minus_one": "not_both", "shape_1d": "shape_input",
        "data_type": "t1", "shape_type": "t2", "overflow_value": "values",
        "overflow_volume": "volume", "output": "output", "scalar": "shape_input",
        "too_many_values": "shape_input",
    }),
    "onnx_reshape_14": (ONNX, {
        "volume": "volume", "minus_one": "minus_one",
        "one_minus_one": "minus_one", "below_minus_one": "rejects",
        "zero_copy": "allowzero_0", "zero_literal": "allowzero_1",
        "zero_empty": "allowzero_1", "zero_index": "rejects",
        "zero_and_minus_one": "not_both", "shape_1d": "shape_input",
        "data_type": "data_input", "shape_type": "shape_input",
        "overflow_value": "rejects", "overflow_volume": "rejects",
        "output": "output", "scalar": "scalar",
        "too_many_values": "shape_input",
    }),
}

# The rule an error status breaks, for quoting the sentence behind it.
STATUS_RULES = {
    "MULTIPLE_MINUS_ONE": "one_minus_one",
    "BELOW_MINUS_ONE": "below_minus_one",
    "ZERO_OUT_OF_RANGE": "zero_index",
    "ZERO_AND_MINUS_ONE": "zero_and_minus_one",
    "NOT_DIVISIBLE": "minus_one",
    "VOLUME_MISMATCH": "volume",
    "SHAPE_NOT_1D": "shape_1d",
    "DATA_TYPE": "data_type",
    "SHAPE_TYPE": "shape_type",
    "OVERFLOW": "overflow_volume",
    "INVALID_ARGUMENT": "too_many_values",
}


def sentence(spec_file, key):
    """(section, text) of the sentence `key` of `spec_file`; KeyError if none."""
    for k, section, text in SENTENCES[spec_file]:
        if k == key:
            return section, text
    raise KeyError("no sentence %r in %r" % (key, spec_file))


def cite(op, rule):
    """The `clause` and `quote` a case of `op` exercising `rule` carries."""
    spec_file, keys = RULE_SENTENCES[op]
    section, text = sentence(spec_file, keys[rule])
    return "%s, %s" % (spec_file, section), text
