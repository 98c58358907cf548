/*
 * case_write.c - one case written as YAML in the format of
 * cases/FORMAT.md (fuzz.h), for the case loader to read back.  Depends on
 * case.h and the ABI header.
 */
#include "fuzz_case.h"

#include <inttypes.h>

/* The clause and sentence a fuzz case checks: the volume rule of each op's
 * text (every request the reference answers is held to it). */
static void clause_of(reshape_op op, const char **clause, const char **quote)
{
    static const char vol[] =
        "Input tensor volume is equal to output tensor volume, where volume is the product of dimensions.";
    *quote = vol;
    switch (op) {
    case RESHAPE_OP_ONEDNN_STATIC_RESHAPE_1:
        *clause = "onednn_static_reshape_1.md, Detailed description";
        break;
    case RESHAPE_OP_ONEDNN_DYNAMIC_RESHAPE_1:
        *clause = "onednn_dynamic_reshape_1.md, Short description";
        break;
    case RESHAPE_OP_ONNX_RESHAPE_14:
        *clause = "onnx_reshape_14.md, Inputs";
        *quote = "data (any tensor type; opset 19 adds 8-bit floats, opset 21 adds 4-bit integers)";
        break;
    default:
        *clause = "openvino_reshape_1.rst, Short description";
        break;
    }
}

static void dims_yaml(FILE *out, int32_t rank, const int64_t *dims)
{
    fputc('[', out);
    for (int i = 0; i < rank; i++)
        fprintf(out, "%s%" PRId64, i ? ", " : "", dims[i]);
    fputc(']', out);
}

/* A case with a layout of its own checks the rule of D12 it exercises: an
 * overlapping dst, a broadcast src, or else strides on dims of 1. */
static void layout_clause(const rcase *c, const char **clause, const char **quote)
{
    *clause = "reference/DECISIONS.md, D12";
    *quote = "Its index is always 0, so its stride never moves the address and does not count "
             "toward the tensor's extent.";
    if (c->dst_has_dims) {
        *quote = "a dst two of whose elements have the same offset has no defined result; "
                 "execute refuses it with RESHAPE_E_INVALID_ARGUMENT and writes nothing.";
        return;
    }
    for (int32_t i = 0; c->src_layout.strided && i < c->rank; i++)
        if (c->src_layout.strides[i] == 0 && c->dims[i] > 1)
            *quote = "Each element is read from its own offset, so the values repeat.";
}

/* input strides and offset, dst and its strides (FORMAT.md, "Layouts"). */
static void layout_yaml(FILE *out, const rcase *c)
{
    if (c->src_layout.strided) {
        fprintf(out, "      strides: ");
        dims_yaml(out, c->rank, c->src_layout.strides);
        fputc('\n', out);
        if (c->src_layout.offset)
            fprintf(out, "      offset: %" PRId64 "\n", c->src_layout.offset);
    }
}

static void dst_yaml(FILE *out, const rcase *c)
{
    if (!c->dst_layout.strided && !c->dst_has_dims)
        return;
    fprintf(out, "    dst:\n");
    if (c->dst_has_dims) {
        fprintf(out, "      dims: ");
        dims_yaml(out, c->dst_rank, c->dst_dims);
        fputc('\n', out);
    }
    if (c->dst_layout.strided) {
        fprintf(out, "      strides: ");
        dims_yaml(out, c->dst_rank, c->dst_layout.strides);
        fputc('\n', out);
    }
}

int case_write_yaml(FILE *out, const rcase *c, const char *header)
{
    const char *clause, *quote;
    clause_of(c->op, &clause, &quote);
    if (case_has_layout(c))
        layout_clause(c, &clause, &quote);
    int is_unsigned = c->shape_dtype == RESHAPE_DT_U64 || c->shape_dtype == RESHAPE_DT_U32 ||
                      c->shape_dtype == RESHAPE_DT_U16 || c->shape_dtype == RESHAPE_DT_U8;
    fprintf(out, "# %s\ngenerated: false\ncases:\n", header);
    fprintf(out, "  - id: %s\n    op: %s\n    clause: \"%s\"\n    quote: \"%s\"\n    tags: [fuzz]\n",
            c->id, reshape_op_name(c->op), clause, quote);
    fprintf(out, "    input:\n      dtype: %s\n      dims: ", reshape_dtype_name(c->dtype));
    dims_yaml(out, c->rank, c->dims);
    fprintf(out, "\n      data: {random: %" PRIu64 "}\n", c->data.seed);
    layout_yaml(out, c);
    fprintf(out, "    shape:\n      dtype: %s\n      values: [", reshape_dtype_name(c->shape_dtype));
    for (int i = 0; i < c->nvalues; i++) {
        if (is_unsigned)
            fprintf(out, "%s%" PRIu64, i ? ", " : "", c->values[i]);
        else
            fprintf(out, "%s%" PRId64, i ? ", " : "", (int64_t)c->values[i]);
    }
    fprintf(out, "]\n");
    if (c->shape_rank == 0)
        fprintf(out, "      dims: []\n");
    fprintf(out, "    special_zero: %s\n", c->special_zero ? "true" : "false");
    if (c->infer_only)
        fprintf(out, "    infer_only: true\n");
    dst_yaml(out, c);
    const outcome *o = &c->outcomes[0];
    if (o->is_error) {
        fprintf(out, "    expect: {error: %s}\n", reshape_status_name(o->error));
    } else {
        fprintf(out, "    expect: {shape: ");
        dims_yaml(out, o->rank, o->dims);
        fprintf(out, "}\n");
    }
    return ferror(out) ? -1 : 0;
}
