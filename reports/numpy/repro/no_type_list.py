"""no_type_list.py - NumPy's reshape (PyArray_Newshape) has no list of
element types: s8, u8 and s32 arrays reshape like f32 ones, where oneDNN
Graph's StaticReshape-1 and DynamicReshape-1 list f32, f16 and bf16 only
(the scoreboard's ACCEPTED_INVALID ... DATA_TYPE for those two operations:
what NumPy cannot express, not a NumPy defect).  Exit 0: every one reshapes
(the finding holds); 1: one is refused now; 77: NumPy cannot be imported.
"""
import sys

try:
    import numpy as np
except ImportError as e:
    print(e)
    sys.exit(77)

print("numpy", np.__version__)
held = True
for dtype in (np.int8, np.uint8, np.int32):
    a = np.arange(6, dtype=dtype).reshape((2, 3))
    print("input %s dims [2, 3], shape [3, 2]; expected by StaticReshape-1: an error "
          "(data type)" % np.dtype(dtype).name)
    try:
        b = a.reshape((3, 2))
    except (TypeError, ValueError) as e:
        print("observed:", type(e).__name__, e)
        held = False
        continue
    print("observed: dims %s, bytes %s" % (list(b.shape), b.tobytes().hex()))
    held = held and b.shape == (3, 2) and b.tobytes() == a.tobytes()
sys.exit(0 if held else 1)
