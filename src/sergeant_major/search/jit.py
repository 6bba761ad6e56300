"""The Numba shim: :func:`jit` compiles with ``numba.njit(cache=True)`` when numba is installed (the
``fast`` extra) and leaves the function as plain Python otherwise, so the same source runs either way.

Set the environment variable ``SERGEANT_MAJOR_NO_NUMBA=1`` before the first import to force the
pure-Python path (the tests use it to check that both paths agree). Numba's own ``NUMBA_DISABLE_JIT=1`` (set
when debugging) takes the same path: numba's decorators would leave the functions as Python but its
intrinsics (bit counts, ``pext``) cannot run outside compiled code.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

__all__ = ["HAVE_NUMBA", "FAST_BMI2", "jit", "compile_declared", "compile_claimed", "declared_signature", "int_array", "int_list", "int_matrix", "prefetch", "popcount64", "low_bit", "high_bit",
           "pext64", "pdep64"]

F = TypeVar("F", bound=Callable[..., Any])

_njit: Any = None
# LLVM's -O2 searches as many nodes a second as numba's default -O3 and compiles about a fifth sooner
# (docs/solver.md, "The first run"); NUMBA_OPT set by the user, or numba imported before this module, wins
os.environ.setdefault("NUMBA_OPT", "2")
if not os.environ.get("SERGEANT_MAJOR_NO_NUMBA"):
    try:
        import numba as _numba
        from numba import njit as _njit
    except ImportError:  # the fast extra is not installed: run the same source as Python
        _njit = None
    else:
        if getattr(_numba.config, "DISABLE_JIT", 0):  # numba's own switch (environment or .numba_config.yaml), as numba reads it
            _njit = None

HAVE_NUMBA: bool = _njit is not None


def _once_per_type(dispatcher: Any) -> Any:
    """Have ``dispatcher`` compiled once per argument types when another kernel calls it, not once per constant
    value passed (numba types a constant argument as its literal value). A call that types only with the literal
    values is compiled for them, as numba does."""
    import importlib

    errors: Any = importlib.import_module("numba.core.errors")
    unliteral: Any = importlib.import_module("numba.core.types").unliteral
    typed = dispatcher.get_call_template

    def get_call_template(args: Any, kws: Any) -> Any:
        plain = tuple(unliteral(a) for a in args)
        plain_kws = {k: unliteral(v) for k, v in kws.items()}
        if plain == tuple(args) and plain_kws == kws:
            return typed(args, kws)
        try:
            return typed(plain, plain_kws)
        except errors.TypingError:
            return typed(args, kws)

    dispatcher.get_call_template = get_call_template
    return dispatcher


def jit(f: F) -> F:
    """Compile ``f`` with ``numba.njit(cache=True, nogil=True)`` if numba is available, else return it unchanged.

    ``nogil``: a compiled call releases the GIL, so searches on separate solvers run in parallel threads."""
    if _njit is None:
        return f
    return cast(F, _njit(cache=True, nogil=True)(f))


def jit_nonrt(f: F) -> F:
    """As :func:`jit`, compiled without Numba's reference-counted memory (NRT): for a kernel that allocates
    nothing, whose calls would otherwise count references to their array arguments with atomic operations
    (the double-dummy search: about 15 % of its time in Numba 0.68)."""
    if _njit is None:
        return f
    return cast(F, _njit(cache=True, nogil=True, _nrt=False)(f))


def jit_inline(f: F) -> F:
    """As :func:`jit`, without reference counting (``_nrt=False``: these helpers allocate nothing), marked for
    LLVM to inline into every caller (``forceinline``): each call would otherwise count references to its array
    arguments and pay a call. LLVM's inlining runs as fast as Numba's own ``inline="always"``
    (the same nodes a second) and halves the first compile (21 s of CPU against 42 s, docs/solver.md), because
    Numba inlines by copying its intermediate code into every call site and typing it again."""
    if _njit is None:
        return f
    return cast(F, _njit(cache=True, nogil=True, forceinline=True, _nrt=False)(f))


def jit_inline_per_type(f: F) -> F:
    """As :func:`jit_inline`, compiled once per argument types when another kernel calls it, not once per constant
    value passed (numba types a constant argument as its literal value; the move generator calls its helpers with a
    dozen such combinations). LLVM inlines the body into the caller and folds the constants there all the same
    (the same nodes, as many a second), and the search's first compile takes about a sixth less CPU
    (docs/solver.md, "The first run")."""
    if _njit is None:
        return f
    return cast(F, _once_per_type(_njit(cache=True, nogil=True, forceinline=True, _nrt=False)(f)))


def jit_nocache(f: F) -> F:
    """As :func:`jit` without the on-disk cache (numba's cache of self-recursive functions can crash on load)."""
    if _njit is None:
        return f
    return cast(F, _njit(cache=False)(f))


def declared_signature(kernel: Any) -> tuple[Any, ...]:
    """The numba argument types a :func:`jit` kernel's annotations declare: ``int`` as int64, ``bool`` as boolean,
    anything else as a 1-d int64 array (the kernels' conventions). Needs numba."""
    import inspect

    from numba.core import types

    kinds = {"int": types.int64, "bool": types.boolean}
    params = inspect.signature(kernel.py_func).parameters.values()
    return tuple(kinds.get(str(p.annotation), types.int64[::1]) for p in params)


def compile_declared(kernel: Any) -> bool:
    """Compile a :func:`jit` kernel for :func:`declared_signature`, without calling it, so that numba's on-disk
    cache holds it for another process (:func:`sergeant_major.search.solver.warm_up`). Returns False (and does
    nothing) without numba."""
    if _njit is None:
        return False
    kernel.compile(declared_signature(kernel))
    return True


def compile_claimed(kernels: Sequence[Any], folder: str) -> None:
    """:func:`compile_declared` each of ``kernels`` in turn that no other process has claimed: a kernel is claimed by
    creating the file of its name in ``folder`` (atomically), so two processes going through the same kernels in
    opposite orders share them out without compiling one twice."""
    for k in kernels:
        try:
            os.close(os.open(os.path.join(folder, k.py_func.__name__), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            continue
        except FileNotFoundError:  # the folder is gone: the other process has claimed (and compiled) them all
            return
        compile_declared(k)


def int_array(values: list[int] | int) -> Any:
    """A 1-d int64 array: a numpy array under numba, a plain list otherwise (numpy may be absent).

    ``values`` is either the contents or a length (zeros).
    """
    if HAVE_NUMBA:
        import numpy as np

        if isinstance(values, int):  # zeros without a list of them first (a solver's table: 8 M words and more)
            return np.zeros(values, dtype=np.int64)
        return np.array(list(values), dtype=np.int64)
    return [0] * values if isinstance(values, int) else list(values)


def int_list(array: Any) -> list[int]:
    """The values of an :func:`int_array` as a list of Python ints (one conversion for the whole array: reading a
    numpy array element by element made a numpy scalar of each)."""
    return array.tolist() if HAVE_NUMBA else list(array)


def int_matrix(rows: int, cols: int) -> Any:
    """A ``rows x cols`` int64 matrix of zeros (numpy under numba, a list of lists otherwise)."""
    if HAVE_NUMBA:
        import numpy as np

        return np.zeros((rows, cols), dtype=np.int64)
    return [[0] * cols for _ in range(rows)]



def _fast_bmi2() -> bool:
    """Does the CPU Numba compiles for run BMI2's ``pext``/``pdep`` as fast instructions? (x86-64 with BMI2,
    except AMD's Zen 1 and 2, which run them in microcode at tens to hundreds of cycles.) That CPU is the host's
    unless Numba's ``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` say otherwise (``NUMBA_CPU_NAME=generic``, for
    caches shared between machines, has no BMI2: the loops are used). Numba keys its on-disk cache by the same
    CPU name and features, so cached code always matches the answer."""
    if _njit is None:
        return False
    try:
        import importlib

        ll: Any = importlib.import_module("llvmlite.binding")
        config: Any = importlib.import_module("numba.core.config")
        name = config.CPU_NAME or ll.get_host_cpu_name()
        feats = config.CPU_FEATURES if config.CPU_FEATURES is not None else ll.get_host_cpu_features().flatten()
        return "+bmi2" in str(feats).split(",") and name not in ("generic", "znver1", "znver2")
    except Exception:  # pragma: no cover - a numba or llvmlite without these settings
        return False


#: ``pext64``/``pdep64`` are single instructions here (else loops over the mask's bits, same results).
FAST_BMI2: bool = _fast_bmi2()


def _intrinsics() -> tuple[Any, Any, Any, Any, Any, Any]:
    """``prefetch``, ``popcount64``, ``low_bit``, ``high_bit``, ``pext64``, ``pdep64`` as Numba intrinsics (LLVM's
    ``llvm.prefetch``, ``llvm.ctpop``, ``llvm.cttz``, ``llvm.ctlz``, ``llvm.x86.bmi.pext.64``,
    ``llvm.x86.bmi.pdep.64``: one instruction each on current x86-64 CPUs; the last two are only used when
    :data:`FAST_BMI2`)."""
    import importlib

    ir: Any = importlib.import_module("llvmlite.ir")
    cgutils: Any = importlib.import_module("numba.core.cgutils")
    types: Any = importlib.import_module("numba.core.types")
    intrinsic: Any = importlib.import_module("numba.extending").intrinsic
    i64 = ir.IntType(64)

    def prefetch(typingctx: Any, arr: Any, idx: Any) -> Any:  # pragma: no cover - compiled
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            aryty = signature.args[0]
            ary = context.make_array(aryty)(context, builder, args[0])
            ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
            i8p = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                                "llvm.prefetch.p0i8")
            builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return types.void(arr, idx), codegen

    def bit_op(name: str, poison_flag: bool, post: str) -> Any:
        def op(typingctx: Any, x: Any) -> Any:  # pragma: no cover - compiled
            def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
                v = args[0] if args[0].type == i64 else builder.sext(args[0], i64)
                if poison_flag:  # "zero input is poison" = false: ctlz/cttz of 0 is 64
                    fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, ir.IntType(1)]), name)
                    r = builder.call(fn, [v, ir.IntType(1)(0)])
                else:
                    fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64]), name)
                    r = builder.call(fn, [v])
                if post == "high":  # 63 - leading zeros: -1 for 0
                    r = builder.sub(i64(63), r)
                elif post == "low":  # trailing zeros, -1 for 0
                    r = builder.select(builder.icmp_signed("==", v, i64(0)), i64(-1), r)
                return r

            return types.int64(types.int64), codegen

        op.__name__ = name.replace(".", "_")
        return intrinsic(op)

    def bmi2_op(name: str) -> Any:
        def op(typingctx: Any, x: Any, m: Any) -> Any:  # pragma: no cover - compiled
            def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
                fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]), name)
                return builder.call(fn, [args[0], args[1]])

            return types.int64(types.int64, types.int64), codegen

        op.__name__ = name.replace(".", "_")
        return intrinsic(op)

    return (intrinsic(prefetch), bit_op("llvm.ctpop.i64", False, ""), bit_op("llvm.cttz.i64", True, "low"),
            bit_op("llvm.ctlz.i64", True, "high"), bmi2_op("llvm.x86.bmi.pext.64"), bmi2_op("llvm.x86.bmi.pdep.64"))


def _py_prefetch(arr: Any, idx: int) -> None:
    """Hint the CPU to load the cache line of ``arr[idx]``; a no-op in Python."""


def _py_popcount64(x: int) -> int:
    """Number of set bits of a non-negative int."""
    return x.bit_count()


def _py_low_bit(x: int) -> int:
    """Index of the lowest set bit of a non-negative int, ``-1`` for 0."""
    return (x & -x).bit_length() - 1


def _py_high_bit(x: int) -> int:
    """Index of the highest set bit of a non-negative int, ``-1`` for 0."""
    return x.bit_length() - 1


def _sw_pext64(x: int, m: int) -> int:
    """The bits of ``x`` at the set bits of ``m``, packed from bit 0 up (BMI2 ``pext``), by a loop."""
    r = 0
    k = 0
    while m != 0:
        b = m & -m
        if x & b:
            r |= 1 << k
        k += 1
        m ^= b
    return r


def _sw_pdep64(x: int, m: int) -> int:
    """The low bits of ``x`` spread to the set bits of ``m``, from the lowest up (BMI2 ``pdep``), by a loop."""
    r = 0
    k = 0
    while m != 0:
        b = m & -m
        if (x >> k) & 1:
            r |= b
        k += 1
        m ^= b
    return r


#: ``prefetch(arr, i)``: load the cache line of ``arr[i]`` ahead of use (no effect on results);
#: ``popcount64(x)``, ``low_bit(x)``, ``high_bit(x)``: set bits, lowest and highest set bit (``-1`` for 0) of a
#: non-negative int64. Numba intrinsics with the ``fast`` extra, plain Python otherwise.
prefetch: Callable[[Any, int], None] = _py_prefetch
popcount64: Callable[[int], int] = _py_popcount64
low_bit: Callable[[int], int] = _py_low_bit
high_bit: Callable[[int], int] = _py_high_bit
#: ``pext64(x, m)``, ``pdep64(x, m)``: BMI2's bit compress and expand of non-negative int64s (instructions when
#: :data:`FAST_BMI2`, else loops over the bits of ``m``).
pext64: Callable[[int, int], int] = _sw_pext64
pdep64: Callable[[int, int], int] = _sw_pdep64
if HAVE_NUMBA:
    prefetch, popcount64, low_bit, high_bit, _hw_pext, _hw_pdep = _intrinsics()
    if FAST_BMI2:
        pext64, pdep64 = _hw_pext, _hw_pdep
    else:
        pext64, pdep64 = jit(_sw_pext64), jit(_sw_pdep64)
