"""Low-level helpers Numba lacks, written as LLVM intrinsics."""
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _prefetch_codegen(dimensions):
    """The code of a prefetch of ``array[index, 0, ...]`` (``dimensions`` indices, zeros after
    the first)."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        pointer = cgutils.get_item_pointer(context, builder, array_type, data,
                                           [index] + [zero] * (dimensions - 1), wraparound=False)
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        prefetch = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]),
            "llvm.prefetch.p0")
        # read access, high temporal locality, data cache
        builder.call(prefetch, [builder.bitcast(pointer, byte_pointer), ir.Constant(i32, 0),
                                ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return codegen


@intrinsic
def prefetch_row(typingctx, array, row):
    """Ask the CPU to start loading ``array[row, 0]``'s cache line (a hint: it never faults).

    A transposition-table probe is a cache miss on a large table; issuing it while the caller
    still has work to do hides most of the memory latency."""
    if not (isinstance(array, types.Array) and array.ndim == 2 and isinstance(row, types.Integer)):
        return None
    return types.void(array, row), _prefetch_codegen(2)


@intrinsic
def prefetch_item(typingctx, array, index):
    """``prefetch_row`` for one item of a flat array: ``array[index]``'s cache line."""
    if not (isinstance(array, types.Array) and array.ndim == 1
            and isinstance(index, types.Integer)):
        return None
    return types.void(array, index), _prefetch_codegen(1)
