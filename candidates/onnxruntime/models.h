/*
 * models.h - the one-node ONNX Reshape models the adapter runs, written at
 * build time by make_models.py into build/gen/candidates/onnxruntime/models.c.
 */
#ifndef ORT_MODELS_H
#define ORT_MODELS_H

#include <stddef.h>

#include "reshape_candidate.h"

/* One serialised ModelProto: Reshape(data: data_dtype, shape: shape_dtype)
 * with attribute allowzero, importing opset `opset`. */
struct ort_model {
    reshape_dtype data_dtype;
    reshape_dtype shape_dtype;
    int allowzero;
    int opset;
    const unsigned char *bytes;
    size_t size;
};

/* Every (data dtype, shape dtype, allowzero) ONNX has types for. */
extern const struct ort_model ort_models[];
extern const size_t ort_model_count;

#endif /* ORT_MODELS_H */
