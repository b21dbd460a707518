"""The buffers a run plan writes into (runtime/executor.py): where a step's kernel can write its output into a given
array (kernels.INTO), the plan gives it either one of its inputs, when the step reads that input last and nothing
else can reach its memory (in place), or one of the plan's buffers, which outlive the run, so that the next run
writes into the same memory instead of allocating it again (an allocator that returns memory to the system and takes
it back faults on every fresh page: thousands of pages per run of a CNN).

The buffers are planned once, as the plan is prepared, by the lifetime of the values in them: a buffer is free again
after the last step that reads a value in it, its own or a view of it (as the preparing run's arrays show: a Reshape
gives a view of its input). A buffer is bytes, viewed as each step's output type and shape in turn, as large as the
largest of them: a step takes the smallest free buffer that holds its output, else the largest, grown. A Result
never gets one (the caller keeps it).

What is planned is checked again on every run, by reference counts, so that a plan never writes into memory
something else can see, whatever the kernels did: an input is written into only when nothing but the run's slot
references it (no caller's feed, constant, kept value, other slot or view: each holds a reference to the array, or to
the array whose memory it views); a buffer only when nothing but the plan references it, else it is replaced by a
new one (the caller kept a view of it, say).
"""
from __future__ import annotations

from sys import getrefcount
from typing import NamedTuple

import numpy as np

# Outputs under this size are left to NumPy, which keeps small blocks for reuse itself (and the checks would cost
# more than they save).
INTO_BYTES = 1 << 16


def _one_holder() -> int | None:
    """What `getrefcount(x)` says, in the statements `writable` and `buffer` use, of an array x that one container
    holds (x being a local variable too); None where a second holder does not add exactly one (an interpreter that
    counts otherwise: then nothing is written into)."""
    values = [np.empty(1)]
    x = values[0]
    one = getrefcount(x)
    other = x
    two = getrefcount(x)
    del other
    return one if two == one + 1 else None


ONE_HOLDER = _one_holder()


class Into(NamedTuple):
    """How one step writes its output: into the first of `inputs` (slot, and the plan's buffer that is its memory or
    -1) nothing else can see, else into the plan's buffer `buffer` (-1: none, a new array), viewed as the output."""
    inputs: tuple
    buffer: int
    shape: tuple
    dtype: np.dtype
    nbytes: int


class Planner:
    """Plans the buffers of a plan being prepared, step by step in the order of the run."""

    def __init__(self):
        self.buffers: list[int] = []                          # bytes per buffer
        self.spare: set[int] = set()                          # the buffers free at this point
        self.holders: dict[int, set[int]] = {}                # buffer -> the slots whose values are in it
        self.held: dict[int, set[int]] = {}                   # slot -> the buffers its value is in
        self.owner: dict[int, int] = {}                       # slot -> the buffer that is its value itself

    def into(self, ports, ins, args, out_slot, shape, dtype, last_read, fixed, result) -> Into | None:
        """The Into of a step that can write into a given array on these input ports (kernels.INTO), its output
        going to out_slot; last_read: the slots this step reads last; fixed: whether a slot's value is one that
        no run may write into (a feed, a constant, a value the plan keeps); result: a Result gives the output."""
        nbytes = int(np.prod(shape)) * dtype.itemsize
        if nbytes < INTO_BYTES or ONE_HOLDER is None or dtype.kind not in "biufc":     # (bytes viewed as numbers)
            return None
        inputs = []
        for k in ports:
            s = ins[k] if k < len(ins) else 0
            if not s or s not in last_read or fixed(s) or type(args[k]) is not np.ndarray or \
                    args[k].shape != shape or args[k].dtype != dtype:
                continue
            b = self.owner.get(s, -1)
            if b >= 0 and (result or self.holders[b] != {s}):
                continue                     # (a buffer given to the caller, or viewed by another slot)
            if b < 0 and self.held.get(s):
                continue                     # a view of a buffer
            inputs.append((s, b))
        inputs = tuple(dict.fromkeys(inputs))
        if inputs:                           # the output is (planned to be) that input's memory
            b = inputs[0][1]
            if b >= 0:
                self._hold(out_slot, b, owner=True)
            return Into(inputs, -1, shape, dtype, nbytes)
        if result:
            return None
        if self.spare:
            fits = [b for b in self.spare if self.buffers[b] >= nbytes]
            b = min(fits, key=self.buffers.__getitem__) if fits else max(self.spare, key=self.buffers.__getitem__)
            self.spare.discard(b)
            self.buffers[b] = max(self.buffers[b], nbytes)
        else:
            b = len(self.buffers)
            self.buffers.append(nbytes)
            self.holders[b] = set()
        self._hold(out_slot, b, owner=True)
        return Into((), b, shape, dtype, nbytes)

    def views(self, out_slots, outs, ins, args):
        """A step's outputs that view memory of its inputs (as this run's arrays show) are in those inputs'
        buffers too."""
        for j, s_in in enumerate(ins):
            buffers = self.held.get(s_in)
            if not buffers or args is None or args[j] is None:
                continue
            for k, s in out_slots:
                if s not in self.owner and isinstance(outs[k], np.ndarray) and \
                        np.may_share_memory(outs[k], args[j]):
                    for b in buffers:
                        self._hold(s, b)

    def release(self, slots):
        """The slots a step reads last: buffers no slot holds any more are free for the steps that follow."""
        for s in slots:
            self.owner.pop(s, None)
            for b in self.held.pop(s, ()):
                holders = self.holders[b]
                holders.discard(s)
                if not holders:
                    self.spare.add(b)

    def _hold(self, slot, b, owner=False):
        self.holders[b].add(slot)
        self.held.setdefault(slot, set()).add(b)
        if owner:
            self.owner[slot] = b


def new_arena(buffers) -> list[np.ndarray]:
    """A set of a plan's buffers, for one run at a time."""
    return [np.empty(nbytes, np.uint8) for nbytes in buffers]


def writable(values: list, arena: list, inputs: tuple) -> int:
    """The first of these input slots (slot, buffer) whose array nothing but the run references (0: none): a
    writable NumPy array without aliased elements (contiguous) whose memory is its own, or that of an array nothing
    else references but it (and the plan, for its buffer). (ONE_HOLDER: `values` holds x alone; x alone holds its
    base, or x and the plan's buffers.)"""
    for s, b in inputs:
        x = values[s]
        if type(x) is not np.ndarray or getrefcount(x) != ONE_HOLDER:
            continue
        flags = x.flags
        if not (flags.writeable and flags.forc):
            continue
        base = x.base
        if base is None or (type(base) is np.ndarray and base.base is None and
                            getrefcount(base) == ONE_HOLDER + (b >= 0 and arena[b] is base)):
            return s
    return 0


def buffer(arena: list, into: Into) -> np.ndarray:
    """The plan's buffer for a step, viewed as its output; a new one in its place if something still references it
    (the caller kept a view of it: its values are the caller's now)."""
    x = arena[into.buffer]
    if getrefcount(x) != ONE_HOLDER:         # (the plan's buffers alone hold it)
        x = arena[into.buffer] = np.empty(x.nbytes, np.uint8)
    return x[:into.nbytes].view(into.dtype).reshape(into.shape)
