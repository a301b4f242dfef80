"""Every game's pictures in a real browser (headless Chromium, tests/browser.py): each loads, and
nothing drawn in it (text as the browser measures it, shapes) lies outside the picture's box."""

from __future__ import annotations

import html
from pathlib import Path

from invasion_oracle.model import registry
from invasion_oracle.reports.report import pictures
from tests.browser import Chromium

CHECK = """<script>
window.addEventListener("load", () => {
  const out = [];
  let count = 0;
  for (const svg of document.querySelectorAll("div.picture > svg")) {
    count += 1;
    const box = svg.viewBox.baseVal;
    for (const el of svg.querySelectorAll("text, rect, circle, path, line")) {
      const b = el.getBBox();
      if (b.x < box.x - 1 || b.y < box.y - 1 || b.x + b.width > box.x + box.width + 1
          || b.y + b.height > box.y + box.height + 1) {
        out.push(svg.parentNode.id + ": " + el.tagName + " " + (el.textContent || "").slice(0, 40));
      }
    }
  }
  const images = [...document.images];
  const broken = images.filter((i) => !(i.complete && i.naturalWidth > 0)).length;
  document.body.setAttribute("data-check", `pictures=${count} images=${images.length} broken=${broken} overflow=${out.length} ` + out.slice(0, 5).join(" | "));
});
</script>"""


def _every_picture() -> list[tuple[str, str]]:
    registry.load_all()
    found = []
    for name in registry.names():
        found += [(p.name, p.svg) for _, p in pictures(registry.spec(name))]
    return found


def _page(found: list[tuple[str, str]]) -> str:
    """Each picture twice: inline (to measure what is drawn) and as an image (to see it load)."""
    body = []
    for name, svg in found:
        inline = svg
        from invasion_oracle.reports.html import Picture

        uri = Picture(name, name, svg).data_uri()
        body.append(f'<div class="picture" id="{html.escape(name)}">{inline}</div><img src="{uri}" alt="x">')
    return "<!DOCTYPE html><html><body>" + "\n".join(body) + CHECK + "</body></html>"


def test_every_picture_loads_and_nothing_is_cut_off(tmp_path: Path, chromium: Chromium) -> None:
    found = _every_picture()
    assert {n.split("-")[0] for n, _ in found} >= {"stonespine", "spirit_island", "vulketh", "cloudspire"}
    page = tmp_path / "pictures.html"
    page.write_text(_page(found), encoding="utf-8")
    check = chromium.check(page.as_uri(), "data-check")
    n = len(found)
    assert check.strip() == f"pictures={n} images={n} broken=0 overflow=0", check


def test_pictures_are_the_same_bytes_every_time_and_have_a_legend() -> None:
    first, second = _every_picture(), _every_picture()
    assert first == second
    for name, svg in first:
        assert "Legend:" in svg, name


def test_the_overflow_check_sees_a_cut_off_text(tmp_path: Path, chromium: Chromium) -> None:
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20"><text x="0" y="15">far too long a line</text></svg>'
    page = tmp_path / "cut.html"
    page.write_text(_page([("cut.svg", svg)]), encoding="utf-8")
    check = chromium.check(page.as_uri(), "data-check")
    assert check.startswith("pictures=1 images=1 broken=0 overflow=1 cut.svg: text far too long"), check
