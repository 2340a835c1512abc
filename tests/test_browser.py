"""A real browser opens the HTML report and the HTML replay (issue 15): headless Chromium (Debian's package,
installed by .ci/run) loads each page, prints no console message, shows the map element at a useful size,
and its screenshot is not blank.

In CI (CI set) a missing browser is a failure, not a skip.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr import games as game_actions
from rsr.cli import main
from tests.support.played import played_game

BROWSER = next((shutil.which(n) for n in ("chromium", "chromium-browser") if shutil.which(n)), None)
PROBE = ("<script>var m=document.getElementById('map');var r=m.getBoundingClientRect();"
         "var s=getComputedStyle(m);document.title='PROBE '+Math.round(r.width)+'x'+Math.round(r.height)+' '+"
         "s.visibility+' '+s.display+' arrows='+m.querySelectorAll('.arrow-attack').length+"
         "' counters='+m.querySelectorAll('.counter').length;</script>")


@pytest.fixture(scope="module")
def browser() -> str:
    if BROWSER is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: .ci/run installs it (apt-get install -y chromium)")
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    return BROWSER


def run_browser(browser: str, page: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--enable-logging=stderr", "--v=0", *args, page.resolve().as_uri()],
                          capture_output=True, text=True, timeout=120, check=False)


def console_messages(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB or RGBA PNG (what Chromium writes) into rows of raw pixels."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    idat = b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IDAT":
            idat += body
        else:
            chunks[kind] = body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert depth == 8 and colour in (2, 6) and interlace == 0
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line) if bpp == 3 else bytes(v for j, v in enumerate(line) if j % 4 != 3))
        prev = line
    return width, height, rows


def non_background(rows: list[bytes]) -> int:
    """Pixels that are not the white page background."""
    return sum(1 for row in rows for i in range(0, len(row), 3) if row[i:i + 3] != b"\xff\xff\xff")


def check_page(browser: str, page: Path, tmp_path: Path, attacks: int) -> None:
    probe = tmp_path / f"probe-{page.name}"
    probe.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    dom = run_browser(browser, probe, "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r"<title>PROBE (\d+)x(\d+) (\w+) (\w+) arrows=(\d+) counters=(\d+)</title>", dom.stdout)
    assert found, dom.stdout[:500]
    width, height, visibility, display = int(found[1]), int(found[2]), found[3], found[4]
    assert width >= 400 and height >= 250 and visibility == "visible" and display != "none"
    assert int(found[5]) >= attacks and int(found[6]) >= 1
    shot = tmp_path / f"{page.stem}.png"
    run = run_browser(browser, page, f"--screenshot={shot}", "--window-size=900,700")
    assert run.returncode == 0 and shot.exists(), run.stderr[-2000:]
    assert console_messages(run.stderr) == []
    w, h, rows = png_pixels(shot.read_bytes())
    assert non_background(rows) > w * h // 10  # the map and the text cover well over a tenth of the page


def test_the_console_check_can_fail(browser: str, tmp_path: Path) -> None:
    page = tmp_path / "bad.html"
    page.write_text("<!DOCTYPE html><html><body><p>x</p><script>console.error('broken page')</script></body></html>")
    run = run_browser(browser, page, f"--screenshot={tmp_path / 'bad.png'}")
    assert any("broken page" in line for line in console_messages(run.stderr))
    _, _, rows = png_pixels((tmp_path / "bad.png").read_bytes())
    assert non_background(rows) < 2000  # an almost empty page counts as blank


def test_html_report_in_a_browser(browser: str, tmp_path: Path) -> None:
    game_dir = played_game("red-sun-rising")
    result = game_actions.load_game(game_dir, cache=False)
    record = max(result.passes, key=lambda r: sum(e.kind == "combat" for e in r.events))
    attacks = sum(e.kind == "combat" for e in record.events)
    page = tmp_path / "report.html"
    made = CliRunner().invoke(main, ["report", str(game_dir), str(record.resolved), "--html", "--out", str(page)])
    assert made.exit_code == 0, made.output
    check_page(browser, page, tmp_path, attacks)


def test_html_replay_in_a_browser(browser: str, tmp_path: Path) -> None:
    game_dir = played_game("red-star")
    out = tmp_path / "replay"
    made = CliRunner().invoke(main, ["report", str(game_dir), "--html", "--all", "--out", str(out)])
    assert made.exit_code == 0, made.output
    pages = sorted(out.glob("packet-*.html"))
    combats = [p for p in pages if "arrow-attack" in p.read_text()]
    page = (combats or pages)[0]
    check_page(browser, page, tmp_path, 1 if combats else 0)
    index = run_browser(browser, out / "index.html", "--dump-dom")
    assert all(p.name in index.stdout for p in pages)
