"""Atomic operations (and a prefetch hint) on int64 array elements, for
numba code run by threads.

numba has no CPU atomics, so each operation is an ``intrinsic`` that emits
one LLVM atomic instruction (sequentially consistent) on the element's
address.  They compile inside ``@njit(cache=True)`` functions and cache with
them.  Contract: ``arr`` is a C-contiguous 1-D int64 array; the index is
not bounds-checked (callers keep it in range).  Not provided: other dtypes,
weaker memory orders.

* ``atomic_load(arr, i)``: the element, read atomically (a plain load in a
  loop may be hoisted by LLVM and never see another thread's write);
* ``atomic_store(arr, i, v)``: write ``v`` atomically; returns the old value;
* ``atomic_add(arr, i, v)``: add ``v``; returns the old value;
* ``atomic_cas(arr, i, expected, v)``: write ``v`` only if the element
  equals ``expected``; returns the old value (equal to ``expected`` on
  success);
* ``prefetch(arr, i)``: a hint to bring the element's cache line in for
  reading soon; it changes nothing.

Under ``NUMBA_DISABLE_JIT=1`` (the stand-in reader, ``gtp/standin.py``)
the kernels run as plain Python on one thread, and these are plain
Python operations with the same results.
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils, config
from numba.extending import intrinsic


def _pointer(context, builder, aryty, ary, idx):
    """Address of ``ary[idx]`` (no wraparound, no bounds check)."""
    from numba.np.arrayobj import make_array  # numba's array lowering: only to compile

    array = make_array(aryty)(context, builder, ary)
    return cgutils.get_item_pointer(context, builder, aryty, array, [idx], wraparound=False)


def _check(arr, *ints):
    ok = (
        isinstance(arr, types.Array)
        and arr.dtype == types.int64
        and arr.ndim == 1
        and all(isinstance(t, types.Integer) for t in ints)
    )
    if not ok:
        raise TypeError("atomics take a 1-D int64 array and integer arguments")


def _as_i64(context, builder, value, ty):
    return context.cast(builder, value, ty, types.int64)


@intrinsic
def atomic_load(typingctx, arr, idx):
    _check(arr, idx)

    def codegen(context, builder, sig, args):
        ptr = _pointer(context, builder, sig.args[0], args[0], args[1])
        return builder.load_atomic(ptr, "seq_cst", 8)

    return types.int64(arr, idx), codegen


def _rmw(op):
    def make(typingctx, arr, idx, value):
        _check(arr, idx, value)

        def codegen(context, builder, sig, args):
            ptr = _pointer(context, builder, sig.args[0], args[0], args[1])
            v = _as_i64(context, builder, args[2], sig.args[2])
            return builder.atomic_rmw(op, ptr, v, "seq_cst")

        return types.int64(arr, idx, value), codegen

    make.__name__ = f"atomic_{op}"
    return intrinsic(make)


atomic_add = _rmw("add")
atomic_store = _rmw("xchg")


@intrinsic
def atomic_cas(typingctx, arr, idx, expected, value):
    _check(arr, idx, expected, value)

    def codegen(context, builder, sig, args):
        ptr = _pointer(context, builder, sig.args[0], args[0], args[1])
        old = _as_i64(context, builder, args[2], sig.args[2])
        new = _as_i64(context, builder, args[3], sig.args[3])
        pair = builder.cmpxchg(ptr, old, new, "seq_cst", "seq_cst")
        return builder.extract_value(pair, 0)

    return types.int64(arr, idx, expected, value), codegen


@intrinsic
def prefetch(typingctx, arr, idx):
    _check(arr, idx)

    def codegen(context, builder, sig, args):
        ptr = _pointer(context, builder, sig.args[0], args[0], args[1])
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])  # read, keep, data
        return context.get_dummy_value()

    return types.none(arr, idx), codegen


if config.DISABLE_JIT:  # plain Python, one thread: the same results

    def atomic_load(arr, idx):  # noqa: F811
        return arr[idx]

    def atomic_store(arr, idx, value):  # noqa: F811
        old = arr[idx]
        arr[idx] = value
        return old

    def atomic_add(arr, idx, value):  # noqa: F811
        old = arr[idx]
        arr[idx] = old + value
        return old

    def atomic_cas(arr, idx, expected, value):  # noqa: F811
        old = arr[idx]
        if old == expected:
            arr[idx] = value
        return old

    def prefetch(arr, idx):  # noqa: F811
        return None


__all__ = ["atomic_load", "atomic_store", "atomic_add", "atomic_cas", "prefetch"]
