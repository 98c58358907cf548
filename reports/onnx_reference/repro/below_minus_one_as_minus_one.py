"""ONNX's reference evaluator takes a shape value below -1 as -1.

onnx.reference.ReferenceEvaluator runs Reshape (op_reshape.py,
reshape_reference_implementation) through numpy.reshape, which takes any
negative value as the unknown dimension: data f32 [2,3], shape int64
[2,-2], allowzero 0, gives a [2,3] output.  ONNX's own shape inference
(onnx.shape_inference.infer_shapes, strict_mode, data_prop) refuses the
same model: "Invalid dimension value: -2".  Opsets 14 and 28 alike.

Exit status: 0 the evaluator still accepts it (the finding holds), 1 it
refuses it now, 77 onnx cannot be imported here.
Run: PYTHONPATH=<onnx 1.23.2 site-packages> /usr/bin/python3 below_minus_one_as_minus_one.py
"""
import sys

try:
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper, shape_inference
    from onnx.reference import ReferenceEvaluator
except ImportError as error:
    print("skip: cannot import onnx: %s" % error)
    sys.exit(77)


def model(opset, values, with_initializer):
    """Reshape(data f32 [2,3], shape) -> reshaped, allowzero 0; the shape a
    constant initializer (for shape inference) or a graph input."""
    shape = np.array(values, dtype=np.int64)
    inputs = [helper.make_tensor_value_info("data", onnx.TensorProto.FLOAT, [2, 3])]
    inits = [numpy_helper.from_array(shape, "shape")] if with_initializer else []
    if not with_initializer:
        inputs.append(helper.make_tensor_value_info("shape", onnx.TensorProto.INT64, [2]))
    graph = helper.make_graph(
        [helper.make_node("Reshape", ["data", "shape"], ["reshaped"], allowzero=0)], "g",
        inputs, [helper.make_tensor_value_info("reshaped", onnx.TensorProto.FLOAT, None)],
        initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def main():
    print("onnx %s, numpy %s" % (onnx.__version__, np.__version__))
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    shape = np.array([2, -2], dtype=np.int64)
    holds = True
    for opset in (14, 28):
        print("opset %d: data f32 [2,3] bytes %s, shape int64 [2,-2], allowzero 0"
              % (opset, data.tobytes().hex()))
        try:
            shape_inference.infer_shapes(model(opset, [2, -2], True), strict_mode=True,
                                         data_prop=True)
            print("  shape inference: accepted")
        except Exception as error:  # InferenceError
            print("  shape inference: %s: %s" % (type(error).__name__,
                                                  str(error).strip().splitlines()[-1]))
        try:
            out = ReferenceEvaluator(model(opset, [2, -2], False)).run(
                None, {"data": data, "shape": shape})[0]
            print("  ReferenceEvaluator.run: output %s %s bytes %s"
                  % (out.dtype, list(out.shape), out.tobytes().hex()))
        except Exception as error:
            print("  ReferenceEvaluator.run: %s: %s" % (type(error).__name__, error))
            holds = False
    print("expected: an error (a value below -1); the finding %s"
          % ("holds" if holds else "is gone"))
    return 0 if holds else 1


if __name__ == "__main__":
    sys.exit(main())
