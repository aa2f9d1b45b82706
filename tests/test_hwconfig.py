"""Hardware configuration: presets, load/save, and every rejection."""

import json

import pytest

from nnaccel.errors import InputError
from nnaccel.hwconfig import PRESETS, SPACES, ConfigError, HwConfig, load_config


@pytest.mark.parametrize("name", list(PRESETS))
def test_presets_valid_and_round_trip(name, tmp_path):
    cfg = load_config(name)
    assert cfg is PRESETS[name] and cfg.rows == cfg.cols
    for suffix in (".toml", ".json"):
        p = tmp_path / f"c{suffix}"
        cfg.save(p)
        assert load_config(str(p)) == cfg


def test_preset_sizes():
    assert [PRESETS[n].rows for n in ("tiny", "small", "base", "large")] == [4, 8, 16, 32]
    tiny = PRESETS["tiny"]
    # iCE40UP5K: 4 SPRAM of 32 KiB, 30 EBR of 512 bytes.
    assert tiny.act_bytes <= 4 * 32 * 1024
    assert tiny.wgt_bytes + tiny.acc_bytes + tiny.vec_bytes <= 30 * 512
    assert all(PRESETS[n].lines(s) <= 65536 for n in PRESETS for s in SPACES)


def test_preset_override_file(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('preset = "small"\next_latency = 3\n')
    cfg = load_config(str(p))
    assert cfg.rows == 8 and cfg.ext_latency == 3 and cfg.name == "small-custom"


@pytest.mark.parametrize("changes, message", [
    ({"rows": 6, "cols": 6}, "rows is 6, but it must be a power of two from 2 to 32"),
    ({"rows": 64, "cols": 64}, "rows is 64, but it must be a power of two from 2 to 32"),
    ({"rows": 8, "cols": 4}, "the array is 8x4, but it must be square"),
    ({"act_bytes": 3000}, "act_bytes is 3000, but scratchpad sizes must be powers of two"),
    ({"wgt_bytes": 8}, "the WGT scratchpad has 2 lines of 4 bytes, but it must hold at least 4 lines"),
    ({"acc_bytes": 2 ** 21}, "the ACC scratchpad has 131072 lines, but line addresses are 16 bits"),
    ({"vector_lanes": 8}, "vector_lanes is 8, but it must be a power of two no larger than cols = 4"),
    ({"dma_bytes_per_cycle": 3}, "dma_bytes_per_cycle is 3, but it must be a power of two"),
    ({"acc_bits": 16}, "acc_bits is 16, but the ISA defines 32-bit accumulators"),
    ({"operand_bits": 8}, "operand_bits is 8, but the ISA defines 9-bit operands"),
    ({"queue_depth": 0}, "queue_depth is 0, but it must be from 1 to 256"),
    ({"dma_base": 2 ** 32 - 4, "dma_size": 8}, "must be non-empty and lie within the 32-bit"),
    ({"act_banks": 3}, "act_banks is 3, but it must be a power of two"),
    ({"act_banks": 1}, "ACT needs at least 2 banks"),
    ({"ext_latency": -1}, "ext_latency is -1, but it must not be negative"),
    ({"rows": "4"}, "rows is '4', but it must be an integer"),
    ({"vector_mul_steps": 3}, "vector_mul_steps is 3, but it must be one of 1, 2, 4, 32"),
    ({"vector_mul_steps": 0}, "vector_mul_steps is 0, but it must be one of 1, 2, 4, 32"),
    ({"vector_mul_steps": 8}, "vector_mul_steps is 8, but it must be one of 1, 2, 4, 32"),
    ({"pe_pipeline": 2}, "pe_pipeline is 2, but it must be 0 .* or 1"),
    ({"pe_pipeline": True}, "pe_pipeline is True, but it must be an integer"),
    ({"vector_pipeline": 2}, "vector_pipeline is 2, but it must be 0 .* or 1"),
    ({"vector_pipeline": 1}, "vector_latency is 4, but with vector_pipeline 1 it must be at least 9"),
    ({"vector_pipeline": 1, "vector_latency": 9, "vector_mul_steps": 32}, "the pipelined vector lane needs"),
    ({"vector_pipeline": 1, "vector_latency": 9, "in_order": True, "dma_engines": 1},
     "the pipelined vector lane needs"),
])
def test_invalid_configs(changes, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        HwConfig(**changes)


def test_load_errors(tmp_path):
    with pytest.raises(InputError, match="Unknown hardware configuration 'huge': give a preset name"):
        load_config("huge")
    p = tmp_path / "c.json"
    p.write_text("{bad json")
    with pytest.raises(ConfigError, match="cannot be read"):
        load_config(str(p))
    p.write_text(json.dumps({"rowz": 4}))
    with pytest.raises(ConfigError, match="has the unknown field\\(s\\) rowz"):
        load_config(str(p))
    p.write_text(json.dumps({"preset": "medium"}))
    with pytest.raises(ConfigError, match="names the preset 'medium'"):
        load_config(str(p))
    p.write_text(json.dumps([1, 2]))
    with pytest.raises(ConfigError, match="must be a table of fields"):
        load_config(str(p))


def test_accelerator_doc_preset_table_matches():
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "docs" / "accelerator.md").read_text()
    for name, c in PRESETS.items():
        row = (f"| {name} | {c.rows}x{c.cols} | {c.act_bytes // 1024} KiB | {c.wgt_bytes // 1024} KiB | "
               f"{c.acc_bytes // 1024} KiB | {c.vec_bytes // 1024} KiB | {c.vector_lanes} | "
               f"{c.dma_bytes_per_cycle} | {c.ext_latency} | {c.queue_depth} | {c.dma_engines} | "
               f"{'in order' if c.in_order else 'queues'} |")
        assert row in text, f"docs/accelerator.md's preset table disagrees with PRESETS[{name!r}]"


@pytest.mark.parametrize("target, preset, mul, lane_dsp, dsp_cells", [
    # iCE40UP5K: 8 SB_MAC16 (16 x 16), two array cells each; ECP5-25F: 28 MULT18X18D, one cell each
    ("ice40", "tiny", 1, 4, (8 - 4) * 2),      # 32 x 32 product: 4 DSPs of 16 x 16
    ("ice40", "tiny", 2, 2, (8 - 2) * 2),      # 32 x 16 pieces: 2
    ("ice40", "tiny", 4, 1, (8 - 1) * 2),      # 16 x 16 pieces: 1
    ("ice40", "tiny", 32, 0, 16),              # the bit-serial lane: none, the array has all 8
    ("ecp5", "small", 1, 4, 28 - 4),
    ("ecp5", "small", 2, 2, 28 - 2),
    ("ecp5", "small", 4, 1, 28 - 1),
    ("ecp5", "small", 32, 0, 28),
])
def test_vector_lane_dsps_follow_vector_mul_steps(target, preset, mul, lane_dsp, dsp_cells):
    from nnaccel.boards.targets import TARGETS
    # (the pipelined lane, small's, needs a multiplier: the bit-serial one is unpipelined)
    cfg = PRESETS[preset].replace(vector_mul_steps=mul, **({"vector_pipeline": 0} if mul == 32 else {}))
    t = TARGETS[target]
    assert t.vector_lane_dsp(cfg) == lane_dsp
    assert t.array_dsp_cells(cfg) == dsp_cells
    assert t.array_dsp_cells(cfg.replace(vector_lanes=2)) == min(64 if preset == "small" else 16,
                                                                   dsp_cells - lane_dsp * t.cells_per_dsp)
