"""``invasion report --out DIR``: report.md and report.html, opened in headless Chromium (Debian's
``/usr/bin/chromium``, one per test process: tests/browser.py): the pictures are there, nothing is
missing, the page is not blank."""

from __future__ import annotations

import base64
import json
import re
import struct
import zlib
from pathlib import Path
from xml.etree import ElementTree

import pytest

from invasion_oracle.reports.cli import main
from tests.browser import Chromium


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    args = ["report", "--out", str(out), "--game", "stonespine", "--no-search", "--no-long", "--no-fixtures"]
    assert main([*args, "--workers", "1", "--json"]) == 0
    return out


def _add_bytes(first: bytes, second: bytes) -> bytes:
    """Each byte of ``first`` plus the same byte of ``second``, modulo 256, summed as two integers:
    the low seven bits of each byte added (no carry can leave the byte), the top bit by xor."""
    size = len(first)
    low, high = int.from_bytes(b"\x7f" * size, "big"), int.from_bytes(b"\x80" * size, "big")
    a, b = int.from_bytes(first, "big"), int.from_bytes(second, "big")
    return (((a & low) + (b & low)) ^ ((a ^ b) & high)).to_bytes(size, "big")


def _pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB or RGBA PNG into rows of pixel bytes (the filters undone)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, data, width = 8, b"", 0
    channels = 0
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, body = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            data += body
        pos += 12 + length
    raw, stride, rows, previous = zlib.decompress(data), width * channels, [], bytes(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        if kind in (0, 2):  # none, up (every row of Chromium's fast encoding): a whole row at once
            previous = bytes(line) if kind == 0 else _add_bytes(bytes(line), previous)
            rows.append(previous)
            continue
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = bytes(line)
    return width, channels, rows


def test_report_md_and_html_hold_the_sections_and_the_pictures(report: Path) -> None:
    markdown = (report / "report.md").read_text(encoding="utf-8")
    pictures = sorted(p.name for p in (report / "pictures").iterdir())
    assert pictures == [
        "stonespine-best-placement.svg",
        "stonespine-campaign.svg",
        "stonespine-default.svg",
        "stonespine-placement.svg",
        "stonespine-plan-year3.svg",
        "stonespine-plan-year4.svg",
        "stonespine-solo.svg",
    ]
    for name in pictures:
        assert f"](pictures/{name})" in markdown
        ElementTree.fromstring((report / "pictures" / name).read_text(encoding="utf-8"))  # well-formed SVG
    for heading in (
        "## Stonespine Architects: Invasion (stonespine)",
        "### The register",
        "optimal guardian and minion placement",
        "Stonespine: escape analysis of the bundled dungeon",
    ):
        assert heading in markdown, heading
    html = (report / "report.html").read_text(encoding="utf-8")
    sources = re.findall(r'<img src="([^"]+)"', html)
    assert len(sources) == len(pictures) and all(s.startswith("data:image/svg+xml;base64,") for s in sources)
    for source in sources:
        ElementTree.fromstring(base64.b64decode(source.split(",", 1)[1]))
    assert not re.search(r'(src|href)="(?!data:|#)', html), "the page must not load anything from outside"


def test_report_json_is_canonical_and_per_game(report: Path, capsys: pytest.CaptureFixture[str]) -> None:
    written = (report / "report.json").read_text(encoding="utf-8")
    (game,) = json.loads(written)["games"]
    assert game["game"] == "stonespine" and len(game["rulings"]) >= 20 and len(game["pictures"]) == 6
    assert any(s.startswith("## Stonespine: escape analysis") for s in game["sections"])
    args = [
        "report",
        "--json",
        "--game",
        "stonespine",
        "--no-search",
        "--no-long",
        "--no-fixtures",
        "--workers",
        "2",
    ]
    assert main(args) == 0
    again = json.loads(capsys.readouterr().out)["answer"]
    assert (
        json.dumps(again, sort_keys=True, indent=1, ensure_ascii=False) + "\n" == written
    )  # same bytes: diffable


CHECK_SCRIPT = """<script>
window.addEventListener("load", () => {
  const images = [...document.images];
  const broken = images.filter((i) => !(i.complete && i.naturalWidth > 0)).length;
  const wide = [...document.querySelectorAll("figure")].filter((f) => f.scrollWidth > f.clientWidth + 1);
  document.body.setAttribute("data-render-check", `images=${images.length} broken=${broken} overflow=${wide.length}`);
});
</script>"""


def _checked_copy(page: Path, folder: Path) -> Path:
    """A copy of ``page`` that records, once loaded, how many images it has and how many failed."""
    copy = folder / "checked.html"
    copy.write_text(
        page.read_text(encoding="utf-8").replace("</body>", CHECK_SCRIPT + "</body>"), encoding="utf-8"
    )
    return copy


def _render(chromium: Chromium, tmp: Path, page: Path) -> tuple[str, Path]:
    shot = tmp / "shot.png"
    check = chromium.check(
        _checked_copy(page, tmp).as_uri(),
        "data-render-check",
        screenshot=shot,
        # half the device pixels of the same 1200 px wide layout: the picture is a quarter of the
        # size, and decoding it here (pure Python) took a second
        scale=0.5,
        hide_scrollbars=True,
    )
    return check, shot


def test_headless_chromium_renders_the_report(report: Path, tmp_path: Path, chromium: Chromium) -> None:
    check, shot = _render(chromium, tmp_path, report / "report.html")
    assert check == "images=7 broken=0 overflow=0"  # every picture decoded, none missing or too wide
    width, channels, rows = _pixels(shot.read_bytes())
    pixels = [row[i : i + 3] for row in rows[::8] for i in range(0, width * channels, channels * 8)]
    inked = [p for p in pixels if p != b"\xff\xff\xff"]
    assert len(inked) > len(pixels) // 20, "the screenshot is (almost) blank"
    assert len(set(inked)) > 20, "the screenshot has too few colours to hold text and pictures"


def test_the_render_check_sees_a_missing_picture(tmp_path: Path, chromium: Chromium) -> None:
    page = tmp_path / "broken.html"
    wide = '<figure style="width:50px;overflow-x:auto"><div style="width:300px">x</div></figure>'
    page.write_text(f'<html><body>{wide}<img src="missing.svg" alt="x"></body></html>', encoding="utf-8")
    check, _ = _render(chromium, tmp_path, page)
    assert check == "images=1 broken=1 overflow=1"
