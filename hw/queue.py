"""The instruction queue of one engine: a register FIFO of packed instruction bits."""

from __future__ import annotations

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .bounds import LAYOUT, _bits, queue_entry
from .decoder import field

__all__ = ["InstructionQueue", "queue_model"]


class InstructionQueue(wiring.Component):
    """The queue of ``queue`` (one of the ISA table's ``QUEUES``) for configuration ``cfg``: it
    holds the running instruction and ``cfg.queue_depth_of(queue)`` waiting ones, each packed to
    the bits its queue keeps (:func:`~nnaccel.hw.bounds.queue_entry`: an index for the opcode, the
    queue's legal flags and the fields cut to what the decoder's fetch-time checks bound).

    Ports:

    - ``push`` (in): store ``pack(w_data)`` at the tail (the caller pushes only when there is room);
    - ``w_data`` (in, 128 bits): the instruction word to push;
    - ``pop`` (in): drop the head (at the running instruction's completion); with ``push`` in the
      same cycle the pushed word lands behind the remaining entries;
    - ``r_data`` (out, :attr:`width` bits): the packed head (the running instruction, or the next
      one while its engine is idle); :meth:`unpack` gives its instruction word;
    - ``occ`` (out): the entries held, the running one included.

    ``count`` (not a port) is the waiting entries, driven by the queue's sequencer (the occupancy
    minus the running one).

    Up to 3 entries (``depth <= 2``) they shift towards entry 0, the head (no head pointer, no
    read multiplexer): a pop moves every entry one place down, a push writes the first free place
    (after the pop). On the iCE40 an entry bit is then one logic cell (its 2-way multiplexer's LUT
    feeds its own flip-flop) instead of a lone flip-flop plus its share of a read multiplexer.
    Deeper queues keep a ring with head / tail pointers (fewer LUTs than cap - 1 multiplexers a
    bit) and the head entry in a register of its own, so ``r_data`` comes from flip-flops (the
    token check, the start decision and the engine's end condition read it), and the read
    multiplexer feeds that register (the entry after the head)."""

    def __init__(self, cfg, queue: str):
        self.queue = queue
        self.depth = depth = cfg.queue_depth_of(queue)
        self.cap = depth + 1
        self.opcodes, self.bits = queue_entry(cfg, queue)
        self.kbits = _bits(len(self.opcodes) - 1)
        self.width = self.kbits + len(self.bits)
        super().__init__({"push": In(1), "w_data": In(128), "pop": In(1),
                          "r_data": Out(self.width), "occ": Out(range(self.cap + 1))})
        self.count = Signal(range(self.cap + 1), name=f"{queue}_count")

    def elaborate(self, platform):
        m = Module()
        cap, width = self.cap, self.width
        packed = Signal(width)
        m.d.comb += packed.eq(self.pack(self.w_data))
        m.d.sync += self.occ.eq(self.occ + self.push - self.pop)
        if cap > 3:
            # deeper: a ring with head / tail pointers and a read multiplexer (a shift register
            # would take cap - 1 multiplexer LUTs per bit; on the ECP5 the flip-flops are cheap)
            regs = Array([Signal(width, name=f"e{i}") for i in range(cap)])
            head = Signal(range(cap))
            tail = Signal(range(cap))
            after = Signal(range(cap))      # the place after the head
            m.d.comb += after.eq(Mux(head == cap - 1, 0, head + 1))
            # the head entry in a register of its own beside the ring, so what reads it (the token
            # check, the start decision, the engine's end condition) starts at flip-flops, not
            # behind the read multiplexer: it takes the entry that is head in the next cycle (the
            # one after it at a pop, the pushed one when it lands at the head)
            head_r = Signal(width, name="head_entry")
            m.d.comb += self.r_data.eq(head_r)
            with m.If(self.push & (self.occ == self.pop)):
                m.d.sync += head_r.eq(packed)
            with m.Elif(self.pop):
                m.d.sync += head_r.eq(regs[after])
            with m.If(self.push):
                m.d.sync += [regs[tail].eq(packed), tail.eq(Mux(tail == cap - 1, 0, tail + 1))]
            with m.If(self.pop):
                m.d.sync += head.eq(after)
            return m
        regs = [Signal(width, name=f"e{i}") for i in range(cap)]
        m.d.comb += self.r_data.eq(regs[0])
        tail = Signal(range(cap + 1))    # the free place a push writes
        m.d.comb += tail.eq(self.occ - self.pop)
        for i, r in enumerate(regs):
            here = self.push & (tail == i)
            with m.If(here):
                m.d.sync += r.eq(packed)
            if i + 1 < cap:
                with m.Elif(self.pop):
                    m.d.sync += r.eq(regs[i + 1])
        return m

    def pack(self, word):
        """The packed entry of the 128-bit instruction ``word`` (a value)."""
        op = field(word, "NOP", "opcode")
        kind = Const(0, self.kbits)
        for k, code in enumerate(self.opcodes):
            kind = Mux(op == code, k, kind)
        return Cat(kind, *[word[b] for b in self.bits])

    def unpack(self, m: Module, packed, name: str):
        """The 128-bit instruction word of a packed entry (bits it does not keep are 0), built in
        ``m`` (the reader's module)."""
        word = Signal(128, name=name)
        kind = packed[:self.kbits]
        op = Const(self.opcodes[-1], 4)
        for k, code in enumerate(self.opcodes[:-1]):
            op = Mux(kind == k, code, op)
        lo, w = LAYOUT["NOP"]["fields"]["opcode"]
        m.d.comb += word[lo:lo + w].eq(op)
        m.d.comb += [word[b].eq(packed[self.kbits + j]) for j, b in enumerate(self.bits)]
        return word


def queue_model(cfg, queue: str, word: int) -> int:
    """The software model of one entry: the packed bits of instruction ``word`` (an int) in the
    queue of ``queue``, as :meth:`InstructionQueue.pack` forms them."""
    opcodes, bits = queue_entry(cfg, queue)
    kbits = _bits(len(opcodes) - 1)
    lo, w = LAYOUT["NOP"]["fields"]["opcode"]
    op = (word >> lo) & ((1 << w) - 1)
    kind = opcodes.index(op) if op in opcodes else 0
    out = kind
    for j, b in enumerate(bits):
        out |= ((word >> b) & 1) << (kbits + j)
    return out
