/*
 * zero_and_minus_one_accepted.c - ONNX Runtime, Reshape (opset 14) with
 * allowzero = 1: ONNX's Reshape-14 says "if 'allowzero' is set, it is
 * invalid for the 'shape' to contain both a zero value and -1"; ONNX
 * Runtime 1.30.0 (npm onnxruntime-node) runs f32 data of dims [0] with
 * shape [0, -1, 0] and returns a tensor of dims [0, 1, 0] instead of an
 * error.  Exit 0: the shape is still accepted (the finding holds); 1: ONNX
 * Runtime refuses it now; 77: the library cannot be used.
 * Against the ONNX Runtime C API alone (onnxruntime_c_api.h).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <onnxruntime_c_api.h>

/* The model: data (f32) and shape (s64) of unknown rank, one Reshape node
 * with allowzero = 1, opset 14, IR version 7: the bytes Debian's python3-onnx 1.12.0
 * helper.make_model writes (onnx.helper.make_node("Reshape", ["data",
 * "shape"], ["reshaped"], allowzero=1), producer "repro"). */
static const unsigned char model[] = {
    0x08, 0x07, 0x12, 0x05, 0x72, 0x65, 0x70, 0x72, 0x6f, 0x3a, 0x6c, 0x0a,
    0x32, 0x0a, 0x04, 0x64, 0x61, 0x74, 0x61, 0x0a, 0x05, 0x73, 0x68, 0x61,
    0x70, 0x65, 0x12, 0x08, 0x72, 0x65, 0x73, 0x68, 0x61, 0x70, 0x65, 0x64,
    0x22, 0x07, 0x52, 0x65, 0x73, 0x68, 0x61, 0x70, 0x65, 0x2a, 0x10, 0x0a,
    0x09, 0x61, 0x6c, 0x6c, 0x6f, 0x77, 0x7a, 0x65, 0x72, 0x6f, 0x18, 0x01,
    0xa0, 0x01, 0x02, 0x12, 0x07, 0x72, 0x65, 0x73, 0x68, 0x61, 0x70, 0x65,
    0x5a, 0x0c, 0x0a, 0x04, 0x64, 0x61, 0x74, 0x61, 0x12, 0x04, 0x0a, 0x02,
    0x08, 0x01, 0x5a, 0x0d, 0x0a, 0x05, 0x73, 0x68, 0x61, 0x70, 0x65, 0x12,
    0x04, 0x0a, 0x02, 0x08, 0x07, 0x62, 0x10, 0x0a, 0x08, 0x72, 0x65, 0x73,
    0x68, 0x61, 0x70, 0x65, 0x64, 0x12, 0x04, 0x0a, 0x02, 0x08, 0x01, 0x42,
    0x04, 0x0a, 0x00, 0x10, 0x0e,
};

static const OrtApi *ort;

static void check(OrtStatus *s, const char *what)
{
    if (s != NULL) {
        printf("%s: %s\n", what, ort->GetErrorMessage(s));
        exit(77);
    }
}

int main(void)
{
    int64_t data_dims[1] = {0}, shape_dims[1] = {3};
    int64_t shape[3] = {0, -1, 0};
    float data[1] = {0};
    OrtEnv *env;
    OrtSessionOptions *options;
    OrtSession *session;
    OrtMemoryInfo *cpu;
    OrtValue *inputs[2], *output = NULL;
    const char *in_names[2] = {"data", "shape"}, *out_names[1] = {"reshaped"};

    setenv("ORT_DISABLE_TELEMETRY", "1", 1);
    ort = OrtGetApiBase()->GetApi(ORT_API_VERSION);
    if (ort == NULL) {
        printf("onnxruntime %s lacks C API version %d\n",
               OrtGetApiBase()->GetVersionString(), ORT_API_VERSION);
        return 77;
    }
    printf("onnxruntime %s\n", OrtGetApiBase()->GetVersionString());
    check(ort->CreateEnv(ORT_LOGGING_LEVEL_FATAL, "repro", &env), "CreateEnv");
    check(ort->CreateSessionOptions(&options), "CreateSessionOptions");
    check(ort->CreateSessionFromArray(env, model, sizeof model, options, &session),
          "CreateSessionFromArray");
    check(ort->CreateCpuMemoryInfo(OrtDeviceAllocator, OrtMemTypeDefault, &cpu),
          "CreateCpuMemoryInfo");
    check(ort->CreateTensorWithDataAsOrtValue(cpu, data, 0, data_dims, 1,
                                              ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT,
                                              &inputs[0]), "data");
    check(ort->CreateTensorWithDataAsOrtValue(cpu, shape, sizeof shape, shape_dims, 1,
                                              ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64,
                                              &inputs[1]), "shape");
    printf("Reshape allowzero=1: data f32 dims [0], shape [0, -1, 0]\n");
    printf("expected: an error (shape holds both 0 and -1 with allowzero = 1)\n");
    OrtStatus *s = ort->Run(session, NULL, in_names, (const OrtValue *const *)inputs, 2,
                            out_names, 1, &output);
    if (s != NULL) {
        printf("observed: Run refused it: %s\n", ort->GetErrorMessage(s));
        return 1;
    }
    OrtTensorTypeAndShapeInfo *info;
    size_t rank;
    int64_t out_dims[8];
    check(ort->GetTensorTypeAndShape(output, &info), "GetTensorTypeAndShape");
    check(ort->GetDimensionsCount(info, &rank), "GetDimensionsCount");
    if (rank > 8)
        return 1;
    check(ort->GetDimensions(info, out_dims, rank), "GetDimensions");
    printf("observed: Run returned OK, output dims [");
    for (size_t i = 0; i < rank; i++)
        printf("%s%lld", i ? ", " : "", (long long)out_dims[i]);
    printf("]\n");
    return rank == 3 && out_dims[0] == 0 && out_dims[1] == 1 && out_dims[2] == 0 ? 0 : 1;
}
