"""The instruction queue of one engine (a register FIFO of packed instruction bits)."""

from __future__ import annotations

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal

from .bounds import LAYOUT, _bits, queue_entry
from .decoder import field


class _Fifo:
    """A register FIFO of the queue's packed instruction bits (:func:`queue_entry`) that holds the
    running instruction and ``depth`` waiting ones: ``push`` stores ``pack(wdata)`` at the tail,
    ``pop`` (at completion) drops the head, ``rdata`` is the packed head (the running instruction,
    or the next one while the engine is idle); ``count`` is the waiting entries (set by the
    engine: the occupancy minus the running one).

    Up to 3 entries (``depth <= 2``) they shift towards entry 0, the head (no head pointer, no
    read multiplexer): a pop moves every entry one place down, a push writes the first free place
    (after the pop). On the iCE40 an entry bit is then one logic cell (its 2-way multiplexer's LUT
    feeds its own flip-flop) instead of a lone flip-flop plus its share of a read multiplexer.
    Deeper queues keep a ring with head / tail pointers (fewer LUTs than cap - 1 multiplexers a
    bit)."""

    def __init__(self, m: Module, depth: int, cfg, queue: str, name: str):
        self.depth = depth
        cap = depth + 1
        self.opcodes, self.bits = queue_entry(cfg, queue)
        self.kbits = _bits(len(self.opcodes) - 1)
        width = self.kbits + len(self.bits)
        self.occ = Signal(range(cap + 1), name=f"{name}_occ")
        self.count = Signal(range(cap + 1), name=f"{name}_count")
        self.push = Signal(name=f"{name}_push")
        self.pop = Signal(name=f"{name}_pop")
        self.wdata = Signal(128, name=f"{name}_wdata")
        self.rdata = Signal(width, name=f"{name}_rdata")
        packed = Signal(width, name=f"{name}_packed")
        m.d.comb += packed.eq(self.pack(self.wdata))
        m.d.sync += self.occ.eq(self.occ + self.push - self.pop)
        if cap > 3:
            # deeper: a ring with head / tail pointers and a read multiplexer (a shift register
            # would take cap - 1 multiplexer LUTs per bit; on the ECP5 the flip-flops are cheap)
            regs = Array([Signal(width, name=f"{name}_e{i}") for i in range(cap)])
            head = Signal(range(cap), name=f"{name}_head")
            tail = Signal(range(cap), name=f"{name}_tail")
            m.d.comb += self.rdata.eq(regs[head])
            with m.If(self.push):
                m.d.sync += [regs[tail].eq(packed), tail.eq(Mux(tail == cap - 1, 0, tail + 1))]
            with m.If(self.pop):
                m.d.sync += head.eq(Mux(head == cap - 1, 0, head + 1))
            return
        regs = [Signal(width, name=f"{name}_e{i}") for i in range(cap)]
        m.d.comb += self.rdata.eq(regs[0])
        tail = Signal(range(cap + 1), name=f"{name}_tail")    # the free place a push writes
        m.d.comb += tail.eq(self.occ - self.pop)
        for i, r in enumerate(regs):
            here = self.push & (tail == i)
            with m.If(here):
                m.d.sync += r.eq(packed)
            if i + 1 < cap:
                with m.Elif(self.pop):
                    m.d.sync += r.eq(regs[i + 1])

    def pack(self, word):
        op = field(word, "NOP", "opcode")
        kind = Const(0, self.kbits)
        for k, code in enumerate(self.opcodes):
            kind = Mux(op == code, k, kind)
        return Cat(kind, *[word[b] for b in self.bits])

    def unpack(self, m: Module, packed, name: str):
        """The 128-bit instruction word of a packed entry (bits it does not keep are 0)."""
        word = Signal(128, name=name)
        kind = packed[:self.kbits]
        op = Const(self.opcodes[-1], 4)
        for k, code in enumerate(self.opcodes[:-1]):
            op = Mux(kind == k, code, op)
        lo, w = LAYOUT["NOP"]["fields"]["opcode"]
        m.d.comb += word[lo:lo + w].eq(op)
        m.d.comb += [word[b].eq(packed[self.kbits + j]) for j, b in enumerate(self.bits)]
        return word


