"""empty_array_too_big.py - NumPy's reshape (PyArray_Newshape) refuses an
empty array whose nonzero dims times the item size pass NPY_MAX_INTP: f64
dims [0] to [0, 1152921504606846976] (2^60; 2^60 * 8 bytes = 2^63) raises
"array is too big" although the result holds no element; the reshape specs
give dims [0, 1152921504606846976].  Found by reshape-conform's fuzzer
(cases/found_by_fuzz.yaml).  Exit 0: still refused (the finding holds); 1:
NumPy returns the shape now; 77: NumPy cannot be imported.
"""
import sys

try:
    import numpy as np
except ImportError as e:
    print(e)
    sys.exit(77)

print("numpy", np.__version__)
a = np.zeros((0,), dtype=np.float64)
print("input f64 dims [0], shape [0, 1152921504606846976]; "
      "expected: dims [0, 1152921504606846976]")
try:
    got = a.reshape((0, 2**60)).shape
except ValueError as e:
    print("observed: ValueError:", e)
    sys.exit(0)
print("observed: dims %s" % list(got))
sys.exit(1)
