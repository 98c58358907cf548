"""negative_value_is_unknown_dim.py - NumPy's reshape (PyArray_Newshape,
ndarray.reshape) takes every negative value as the unknown dimension, not
-1 only: f32 [2, 3] with shape [-2, 3] gives [2, 3] and with [1, INT64_MIN]
gives [1, 6], where every reshape spec here refuses a value below -1.
Exit 0: both still accepted (the finding holds); 1: NumPy refuses either
now; 77: NumPy cannot be imported.  Against NumPy alone.
"""
import sys

try:
    import numpy as np
except ImportError as e:
    print(e)
    sys.exit(77)

print("numpy", np.__version__)
a = np.zeros((2, 3), dtype=np.float32)
held = True
for shape, seen_before in (((-2, 3), (2, 3)), ((1, -2**63), (1, 6))):
    print("input f32 dims [2, 3], shape %s; expected: an error (a value below -1)" %
          list(shape))
    try:
        got = a.reshape(shape).shape
    except ValueError as e:
        print("observed: ValueError:", e)
        held = False
        continue
    print("observed: dims %s" % list(got))
    held = held and got == seen_before
sys.exit(0 if held else 1)
