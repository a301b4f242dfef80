"""Files are files: ``--out`` writes Markdown whatever the terminal, with the user's umask; every
``Reproduce:`` caption under a picture of the report is a command that draws that picture."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from invasion_oracle.model.core.canonical import write_atomic
from invasion_oracle.reports.cli import main

BOX_DRAWING = re.compile("[\u2500-\u257f]")
INVASION = [sys.executable, "-m", "invasion_oracle.reports.cli"]


def _under_a_terminal(args: list[str], cwd: Path) -> tuple[int, str]:
    """Run ``invasion ARGS`` with standard output and error on a pseudo-terminal."""
    master, slave = pty.openpty()
    seen: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            seen.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    env = {**os.environ, "COLUMNS": "90", "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run(
        [*INVASION, *args],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=slave,
        cwd=cwd,
        env=env,
        timeout=300,
    )
    os.close(slave)
    reader.join(timeout=10)
    os.close(master)
    return done.returncode, b"".join(seen).decode("utf-8", "replace")


def test_a_terminal_gets_text_tables_but_out_files_get_markdown(tmp_path: Path) -> None:
    code, shown = _under_a_terminal(["games"], tmp_path)
    assert code == 0 and "stonespine" in shown, shown
    assert "|---" not in shown and "| game" not in shown, "on a terminal, tables are drawn, not Markdown"
    out = tmp_path / "sim.md"
    code, shown = _under_a_terminal(
        ["stonespine", "simulate", "example:stonespine/default.json", "--out", str(out)], tmp_path
    )
    assert code == 0, shown
    written = out.read_text(encoding="utf-8")
    assert "| player" in written and not BOX_DRAWING.search(written)
    args = [
        "stonespine",
        "simulate",
        "example:stonespine/default.json",
        "--format",
        "text",
        "--out",
        str(out),
    ]
    assert main(args) == 0
    assert BOX_DRAWING.search(out.read_text(encoding="utf-8")), "the format asked is kept"


# The tests reading the report (a module fixture) run in one worker under `make test` (--dist
# loadgroup): the report is written once, not once per worker.
ONE_REPORT = pytest.mark.xdist_group("pictures-report")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cheapest full report (one game, no searches), run on a pseudo-terminal."""
    out = tmp_path_factory.mktemp("report") / "out"
    args = ["report", "--out", str(out), "--game", "stonespine", "--no-search", "--no-long", "--no-fixtures"]
    code, shown = _under_a_terminal([*args, "--workers", "1"], out.parent)
    assert code == 0, shown
    return out


@ONE_REPORT
def test_report_out_under_a_terminal_writes_no_box_drawing(report: Path) -> None:
    out = report
    files = [p for p in out.rglob("*") if p.is_file()]
    assert {"report.md", "report.html"} <= {p.name for p in files}
    for path in files:
        assert not BOX_DRAWING.search(path.read_text(encoding="utf-8")), path
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "&lt;br&gt;" not in html and "<br>" in html  # the register's line breaks render


def test_files_are_written_with_the_users_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "a.md", "x\n")
        assert (tmp_path / "a.md").stat().st_mode & 0o777 == 0o644
        assert main(["games", "--out", str(tmp_path / "games.md")]) == 0
        assert (tmp_path / "games.md").stat().st_mode & 0o777 == 0o644
        os.umask(0o077)
        write_atomic(tmp_path / "b.md", "x\n")
        assert (tmp_path / "b.md").stat().st_mode & 0o777 == 0o600
        (tmp_path / "a.md").chmod(0o640)
        write_atomic(tmp_path / "a.md", "y\n")  # a replaced file keeps its mode
        assert (tmp_path / "a.md").stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(old)


@ONE_REPORT
def test_every_reproduce_caption_under_a_picture_draws_that_picture(report: Path, tmp_path: Path) -> None:
    markdown = (report / "report.md").read_text(encoding="utf-8")
    captions = re.findall(r"!\[[^\]]*\]\(pictures/([^)]+)\)\n+Reproduce: `([^`]+)`", markdown)
    names = {name for name, _ in captions}
    assert {"stonespine-default.svg", "stonespine-best-placement.svg"} <= names, names
    assert len(captions) == len(list((report / "pictures").iterdir()))  # every picture has one
    for name, command in captions:
        words = command.split()
        assert words[0] == "invasion" and words[-2:] == ["--svg", name], command
        work = tmp_path / name.removesuffix(".svg")
        work.mkdir()
        cwd = os.getcwd()
        os.chdir(work)
        try:
            assert main(words[1:]) == 0, command
        finally:
            os.chdir(cwd)
        drawn = (work / name).read_bytes()
        assert drawn == (report / "pictures" / name).read_bytes(), f"{command} draws another picture"


def test_wave_svg_draws_the_routes(tmp_path: Path) -> None:
    svg = tmp_path / "wave.svg"
    args = [
        "stonespine",
        "wave",
        "example:stonespine/placement.json",
        "--heroes",
        "red,red",
        "--svg",
        str(svg),
    ]
    assert main(args) == 0
    text = svg.read_text(encoding="utf-8")
    assert "route of hero a" in text and "route of hero b" in text and "Legend:" in text


@ONE_REPORT
def test_the_report_opens_with_a_summary_whose_links_all_lead_somewhere(report: Path) -> None:
    page = (report / "report.html").read_text(encoding="utf-8")
    headings = re.findall(r"<h2 id=\"([^\"]+)\">", page)
    assert headings[0] == "summary", headings[:3]
    summary = page.split('<h2 id="summary">')[1].split("<h2 ")[0]
    links = re.findall(r'href="#([^"]+)"', summary)
    ids = set(re.findall(r' id="([^"]+)"', page))
    assert "ss-exit-y13" in links and [link for link in links if link not in ids] == []
    assert "\\_" not in page and not re.search(r"\$\.[a-z]", page), "no escapes or JSON paths shown"
