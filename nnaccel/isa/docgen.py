"""Generates ``docs/isa.md`` from the ISA tables (``nnaccel isa doc -o docs/isa.md``)."""

from __future__ import annotations

import sys

from .table import (
    ADD_LEFT_SHIFT,
    BANK_RULES,
    COUNTER_RULE,
    COUNTERS,
    FAULTS,
    HEADER,
    INSTRUCTIONS,
    QUEUE_MODEL,
    VEC_FUNCS,
    VECTOR_STEP_WAIT,
    WIDTH,
)

REGENERATE = "nnaccel isa doc -o docs/isa.md --accelerator-doc docs/accelerator.md"
#: docs/accelerator.md carries the generated cycle model between these markers.
BEGIN = "<!-- cycle-model:begin (generated from nnaccel/isa/table.py) -->"
END = "<!-- cycle-model:end -->"


def _bits(f) -> str:
    return f"[{f.lo}:{f.hi}]" if f.width > 1 else f"[{f.lo}]"


def render() -> str:
    out = [
        "# nnaccel ISA",
        "",
        f"<!-- Generated from nnaccel/isa/table.py by `{REGENERATE}`; do not edit. -->",
        "",
        (f"Every instruction is {WIDTH} bits, stored as {WIDTH // 8} little-endian bytes; bit 0 is the "
        "least significant bit of the first byte. `[lo:hi]` is the bit range `lo <= bit < hi`. "
        "Fields are unsigned; bits that no field of an instruction uses are reserved and must be 0 "
        "(else ILLEGAL_FIELD). Scratchpads are addressed by lines; see `docs/accelerator.md` for "
        "line widths and the hardware configuration."),
        "",
        "## Common header",
        "",
        "| field | bits | meaning |",
        "|---|---|---|",
    ]
    out += [f"| `{f.name}` | {_bits(f)} | {f.doc} |" for f in HEADER]
    out += ["", "## Opcodes", "", "| opcode | name | queue | summary | cycles |", "|---|---|---|---|---|"]
    out += [f"| {i.opcode} | [{i.name}](#{i.name.lower()}) | {i.queue} | {i.summary} | {i.cycles} |"
            for i in INSTRUCTIONS]
    for i in INSTRUCTIONS:
        out += ["", f"## {i.name}", "", f"Opcode {i.opcode}, {i.queue} queue. {i.summary}.", ""]
        if i.fields:
            out += ["| field | bits | meaning |", "|---|---|---|"]
            for f in i.fields:
                doc = f.doc + (f" ({', '.join(f'{k}={v}' for k, v in enumerate(f.enum))})"
                               if f.enum else "")
                out.append(f"| `{f.name}` | {_bits(f)} | {doc} |")
            out.append("")
        out += [i.semantics, "", f"Cycles: {i.cycles}."]
    out += ["", "## Vector functions", "",
            ("`P` is the number of parameter lines read first (a LUT reads the whole 256-entry table, "
            "`ceil(256 / cols)` lines). `a` is the source lane value, `b` the second source's, `acc` "
            f"an ACC lane; quantized add shifts by {ADD_LEFT_SHIFT}. `S` is the steps per group of "
            "`vector_lanes` elements (each lane has one fixed-point multiplier); `M` says whether each step "
            "multiplies and so takes `vector_mul_steps` cycles (the lane forms its 32 x 32 product from "
            "that many pieces), or 66 with `vector_mul_steps` 32 (the bit-serial lane: 32 cycles of "
            "product, one multiplier bit a cycle, 33 of one-bit shifts, one of rounding; "
            "`VecFunc.group_cycles`, `mul_step_cycles`). `Z` counts the steps whose product takes an "
            "earlier step's result (`VecFunc.waits`: the last step): with `vector_pipeline` 1 (the "
            f"pipelined lane) that result reaches the lane's operands `W` = {VECTOR_STEP_WAIT} cycles "
            "after its step, so the lane issues the other steps of `B` consecutive lane groups, then "
            "their last steps, and only a short last batch waits (`vector_groups_in_flight`, "
            "`batch_wait`, `VecFunc.groups_cycles`)."), "",
            "| code | name | src | src2 | dst | parameter lines (in order) | S | M | Z | result |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for v in VEC_FUNCS:
        out.append(f"| {v.code} | {v.name} | {v.src} | {v.src2 or '-'} | {v.dst} | "
                   f"{', '.join(v.params) or '-'} | {v.steps} | {'yes' if v.multiplies else '-'} | "
                   f"{len(v.waits) or '-'} | {v.semantics} |")
    out += ["", "## Queues, dependency tokens and the cycle model", "", QUEUE_MODEL,
            "", "## Scratchpad banks", "", BANK_RULES,
            "", "## Fault codes", "", "| code | name | meaning |", "|---|---|---|"]
    out += [f"| {f.code} | {f.name} | {f.doc} |" for f in FAULTS]
    out += ["", "## Performance counters", "", COUNTER_RULE,
            "", "| id | name | counts |", "|---|---|---|"]
    out += [f"| {c.id} | `{c.name}` | {c.doc} |" for c in COUNTERS]
    return "\n".join(out) + "\n"


def render_cycle_model() -> str:
    """The cycle formula of every instruction and the queue model, for docs/accelerator.md."""
    out = [BEGIN, "", "| instruction | queue | cycles |", "|---|---|---|"]
    out += [f"| {i.name} | {i.queue} | {i.cycles} |" for i in INSTRUCTIONS]
    out += ["", "VEC parameter lines `P`: " + ", ".join(
        f"{v.name} {len(v.params) if v.params != ('table',) else 'ceil(256 / cols)'}" for v in VEC_FUNCS)
        + ".", "", QUEUE_MODEL, "", "Scratchpad banks: " + BANK_RULES, "", END]
    return "\n".join(out)


def update_accelerator_doc(text: str) -> str:
    """``text`` with the block between the markers replaced by :func:`render_cycle_model`."""
    if BEGIN not in text or END not in text:
        return text.rstrip("\n") + "\n\n" + render_cycle_model() + "\n"
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + render_cycle_model() + tail


if __name__ == "__main__":  # python -m nnaccel.isa.docgen [FILE]
    text = render()
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
