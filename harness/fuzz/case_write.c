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

int case_write_yaml(FILE *out, const rcase *c, const char *header)
{
    const char *clause, *quote;
    clause_of(c->op, &clause, &quote);
    int is_unsigned = c->shape_dtype == RESHAPE_DT_U64 || c->shape_dtype == RESHAPE_DT_U32 ||
                      c->shape_dtype == RESHAPE_DT_U16 || c->shape_dtype == RESHAPE_DT_U8;
    fprintf(out, "# %s\ngenerated: false\ncases:\n", header);
    fprintf(out, "  - id: %s\n    op: %s\n    clause: \"%s\"\n    quote: \"%s\"\n    tags: [fuzz]\n",
            c->id, reshape_op_name(c->op), clause, quote);
    fprintf(out, "    input:\n      dtype: %s\n      dims: ", reshape_dtype_name(c->dtype));
    dims_yaml(out, c->rank, c->dims);
    fprintf(out, "\n      data: {random: %" PRIu64 "}\n", c->data.seed);
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
