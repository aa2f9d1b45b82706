"""Self-contained HTML pages: tables and figures embedded as data URIs (no external file, script
or font), for the sweep's ``index.html`` and ``nnaccel report --html``."""

from __future__ import annotations

import base64
import html

_CSS = """body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;font-size:12px;margin:0.5em 0 1.5em}
th,td{border:1px solid #ccc;padding:2px 6px;text-align:right}
th{background:#eee}td.t{text-align:left}tr.bad td{color:#a00}
figure{margin:0.5em 0 1.5em}figcaption{font-size:12px;color:#555}
img.fig{max-width:100%;border:1px solid #ddd}"""

_MIME = {"png": "image/png", "svg": "image/svg+xml"}


def esc(x) -> str:
    return html.escape("" if x is None else str(x))


def figure(data: bytes, fmt: str, caption: str, ident: str = "") -> str:
    """An ``<img>`` with the figure as a base64 data URI."""
    uri = f"data:{_MIME[fmt]};base64,{base64.b64encode(data).decode()}"
    idattr = f' id="{esc(ident)}"' if ident else ""
    return (f'<figure><img class="fig"{idattr} alt="{esc(caption)}" src="{uri}">'
            f"<figcaption>{esc(caption)}</figcaption></figure>")


def _cell(v) -> str:
    if isinstance(v, float):
        text = f"{v:.4g}" if abs(v) < 1 or abs(v) >= 1e5 else f"{v:,.1f}"
        return f"<td>{text}</td>"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"<td>{v:,}</td>"
    return f'<td class="t">{esc(v)}</td>'


def table(rows, columns, bad=lambda r: False, ident: str = "") -> str:
    idattr = f' id="{esc(ident)}"' if ident else ""
    head = "".join(f"<th>{esc(c)}</th>" for c in columns)
    body = "".join(f'<tr{" class=bad" if bad(r) else ""}>' + "".join(_cell(r.get(c)) for c in columns) + "</tr>"
                   for r in rows)
    return f"<table{idattr}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>'
            f"<style>{_CSS}</style></head><body><h1>{esc(title)}</h1>\n{body}\n</body></html>\n")
