"""``nnaccel report --html``: a self-contained page, opened in a real headless Chromium (Debian's
``chromium``, installed by ``.ci/run``): every figure decodes and shows on the screenshot."""

import base64
import os
import re
import shutil
import subprocess

import numpy as np
import pytest
from nnaccel.compiler.reference_models import small_cnn

from nnaccel.cli import main
from nnaccel.formats import save_models

#: matplotlib's default colours the figures use and the page's text and CSS do not.
FIGURE_COLOURS = {"tab:blue": (31, 119, 180), "tab:orange": (255, 127, 14), "tab:green": (44, 160, 44),
                  "tab:red": (214, 39, 40)}


def chromium():
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        msg = "Debian's chromium is not installed (.ci/run installs it: apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg + "; under CI it must be present")
        pytest.skip(msg)
    return exe


def run_chromium(exe, tmp_path, *args):
    profile = tmp_path / f"profile{len(list(tmp_path.glob('profile*')))}"
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
           f"--user-data-dir={profile}", *args]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout


@pytest.fixture(scope="module")
def report_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    model = tmp / "cnn.json"
    save_models([small_cnn()], model)
    page = tmp / "report.html"
    assert main(["report", str(model), "--config", "small", "--html", str(page)]) == 0
    return page


def test_page_is_self_contained(report_page):
    text = report_page.read_text()
    srcs = re.findall(r'<img [^>]*src="([^"]+)"', text)
    assert len(srcs) == 3                                  # split, per-layer bars, timeline
    for src in srcs:
        kind, data = re.fullmatch(r"data:image/(png|svg\+xml);base64,(.+)", src).groups()
        raw = base64.b64decode(data)
        assert raw.startswith(b"\x89PNG") if kind == "png" else b"<svg" in raw[:2000]
    assert not re.search(r'(src|href)="(https?:|//|file:)', text)      # nothing outside the page
    # a header row, then one row per accelerator layer, accelerator operation without instructions
    # (an alias) and host operation of the package
    from nnaccel.compiler.compile import compile_model
    from nnaccel.sim.report import static_report
    rep = static_report(compile_model(small_cnn(), "small"))
    layered = {lay["op"] for seg in rep["segments"] for lay in seg["layers"]}
    rows = (sum(len(seg["layers"]) for seg in rep["segments"]) + len(rep["host_ops"])
            + len({a["index"] for a in rep["accelerator_ops"]} - layered))
    table = text[text.index('id="layer-table"'):]
    assert table[:table.index("</table>")].count("<tr>") == 1 + rows


def test_page_renders_in_chromium(report_page, tmp_path):
    exe = chromium()
    # the DOM as Chromium built it, with each image's decoded width written in by a script added here
    probe = tmp_path / "probe.html"
    probe.write_text(report_page.read_text().replace(
        "</body>", "<script>window.addEventListener('load', () => { for (const i of document.images) "
                   "i.setAttribute('data-width', i.naturalWidth); });</script></body>"))
    dom = run_chromium(exe, tmp_path, "--virtual-time-budget=10000", "--dump-dom", probe.as_uri())
    widths = [int(w) for w in re.findall(r'data-width="(\d+)"', dom)]
    assert len(widths) == 3 and all(w > 100 for w in widths), widths
    assert 'id="layer-table"' in dom and "SOFTMAX" in dom

    shot = tmp_path / "shot.png"
    run_chromium(exe, tmp_path, f"--screenshot={shot}", "--window-size=1400,4000", "--hide-scrollbars",
                 report_page.as_uri())
    from PIL import Image
    px = np.asarray(Image.open(shot).convert("RGB")).astype(int)
    for name, rgb in FIGURE_COLOURS.items():   # each figure's colour is on screen
        near = (np.abs(px - np.array(rgb)).max(axis=2) <= 8).sum()
        assert near > 200, (name, near)
