"""Maps that show the packet (issue 23 section 6): a Red Sun/Red Star map is cropped to the packet's action
by default, every fire mission is an arrow with its line in the panel, interdiction markers are tagged, and
the HTML report shows the map at full width with a link to it at full size.

What is drawn, not the rules (the rules' cases are tested elsewhere): the drawing of the fire missions,
interdiction markers and counterbattery of Red Sun/Red Star.
"""

from __future__ import annotations

import copy
import functools
import os
import re
import tempfile
from pathlib import Path

from click.testing import CliRunner

from rsr import games as game_actions
from rsr import keys as keystore
from rsr.cli import main
from rsr.demo import run_demo
from rsr.draw import draw_position
from rsr.draw.hexmap import PANEL, crop_hexes, render
from rsr.draw.scenes import arrows_from_events, focus_hexes
from rsr.engine import Event
from rsr.rulesets.red_star.scenes import rs_scene
from tests.support.tamper import play_game


@functools.cache
def _game(scenario: str) -> Path:
    """A Red Sun/Red Star demo: ``july-1939-artillery`` bombards before a prepared combat; ``july-1939``
    starts with the sides out of contact and plays the whole scenario."""
    out = Path(tempfile.mkdtemp(prefix="rsr-maps-")) / "demo"
    before = os.environ.get("RSR_HOME")
    try:
        run_demo(out, echo=lambda _: None, scenario=scenario, ruleset_id="red-star")
    finally:
        if before is not None:
            os.environ["RSR_HOME"] = before
    return next(out.glob("audit/game-*"))


def _size(svg: str) -> tuple[float, float]:
    match = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg)
    assert match
    return float(match.group(1)), float(match.group(2))


def test_fire_missions_are_arrows_from_every_firing_hex() -> None:
    start = {"g1": "4408", "g2": "4409", "g3": "4409", "t": "4411", "c": "4500"}
    events = [
        Event("fire-mission", "mission 1: g1, g2, g3 bombard t in 4411", "",
              {"mission": 1, "mission_kind": "bombard", "target": "t", "hex": "4411", "artillery": ["g1", "g2", "g3"]}),
        Event("fire-mission", "mission 2: g1 interdict 4300", "",
              {"mission": 2, "mission_kind": "interdict", "hex": "4300", "artillery": ["g1"]}),
        Event("counterbattery", "counterbattery 1: c at g2", "",
              {"level": 1, "target": "g2", "artillery": ["c"], "result": "s"}),
    ]
    arrows = [(a.kind, a.hexes) for a in arrows_from_events(start, events)]
    assert arrows == [("bombard", ("4408", "4411")), ("bombard", ("4409", "4411")), ("interdict", ("4408", "4300")),
                      ("counterbattery", ("4500", "4409"))]
    # the hexes the events name: the guns, the targets, the interdicted hex
    assert focus_hexes(start, start, events) == ["4300", "4408", "4409", "4411", "4500"]
    # housekeeping events (markers off, policies) name no hex of the action
    assert focus_hexes(start, start, [Event("markers", "g1: F removed", "", {"unit": "g1"})]) == []


def test_bombardment_drawn_and_listed_through_the_command_line(tmp_path: Path) -> None:
    game = _game("july-1939-artillery")
    result = game_actions.load_game(game, cache=False)
    fired = [r for r in result.passes if any(e.kind == "fire-mission" and e.data.get("die") for e in r.events)]
    assert fired, "the artillery demo bombards"
    record = fired[0]
    out = tmp_path / "fire.svg"
    run = CliRunner().invoke(main, ["map", str(game), str(record.resolved), "--out", str(out)])
    assert run.exit_code == 0, run.output
    svg = out.read_text()
    missions = [e for e in record.events if e.kind == "fire-mission" and e.data.get("artillery")]
    for mission in missions:
        titles = re.findall(r'class="arrow arrow-bombard"[^>]*><title>([^<]*)</title>', svg)
        assert mission.text in titles  # drawn...
        assert svg.count(f">{mission.text[:40]}") >= 1  # ...and its line in the panel's "This packet"
    assert ">This packet</text>" in svg


@functools.cache
def _short_game(scenario: str, packets: int) -> Path:
    """The first ``packets`` packets of ``scenario`` played hot-seat by the bots (a whole demo is slower)."""
    root = Path(tempfile.mkdtemp(prefix="rsr-maps-short-"))
    before = os.environ.get("RSR_HOME")
    os.environ["RSR_HOME"] = str(root / "home")
    try:
        keys = {side: keystore.new_key(side) for side in ("japan", "soviet")}
        return play_game(root, "red-star", scenario, keys, bytes(range(16)), packets)
    finally:
        if before is None:
            del os.environ["RSR_HOME"]
        else:
            os.environ["RSR_HOME"] = before


def test_red_star_map_without_contact_is_cropped_by_default(tmp_path: Path) -> None:
    game = _short_game("july-1939", 6)
    whole = CliRunner().invoke(main, ["map", str(game), "1", "--whole", "--out", str(tmp_path / "w.svg")])
    assert whole.exit_code == 0, whole.output
    result = game_actions.load_game(game, cache=False)
    quiet = [r for r in result.passes if not draw_position(result, r)[1].arrows]
    assert result.passes[0] in quiet  # the first packet: nothing moved yet, no two enemies in contact
    for record in quiet:
        out = tmp_path / f"m{record.resolved}.svg"
        run = CliRunner().invoke(main, ["map", str(game), str(record.resolved), "--out", str(out)])
        assert run.exit_code == 0, run.output
        width, height = _size(out.read_text())
        whole_w, whole_h = _size((tmp_path / "w.svg").read_text())
        # the whole Nomonhan map is ~2,300 x 2,700 before the PNG zoom; a packet's picture a fraction of it
        # the map beside the panel: at most half the whole map's width and height
        assert width - PANEL < (whole_w - PANEL) / 2 and height < whole_h / 2, (record.resolved, width, height)


def test_packet_with_no_action_and_no_contact_shows_the_nearest_enemies() -> None:
    game = _game("july-1939-artillery")
    result = game_actions.load_game(game, cache=False)
    record = result.passes[0]
    _, scene = draw_position(result, record)
    japanese = next(pics for pics in scene.stacks.values() if pics[0].side == "japan")
    soviet = next(pics for pics in scene.stacks.values() if pics[0].side == "soviet")
    # no action; the sides far apart (no contact), one lone stack of each side far off elsewhere
    scene.arrows, scene.focus = [], []
    scene.stacks = {"2020": japanese, "2026": soviet, "4448": japanese, "1301": soviet}
    shown = crop_hexes(scene)
    assert "2020" in shown and "2026" in shown and "4448" not in shown and "1301" not in shown
    assert len(shown) < len(scene.terrain) / 4


def test_html_report_map_is_full_width_and_enlarges_on_click(tmp_path: Path) -> None:
    game = _game("july-1939-artillery")
    out = tmp_path / "report.html"
    run = CliRunner().invoke(main, ["report", str(game), "2", "--html", "--out", str(out)])
    assert run.exit_code == 0, run.output
    page = out.read_text()
    width = re.search(r'<svg [^>]*?width="(\d+)"', page)
    assert width
    # the figure spans the window, not the report's 1200 px column, and knows the map's own width...
    assert f'<figure id="map" style="--w:{width.group(1)}px">' in page
    assert "#map{width:calc(100vw - 2em)" in page and "max-width:calc(var(--w) * 1.5)" in page
    # ...and a click on it (a label for a checkbox: the page stays script-free) shows it larger
    assert '<input type="checkbox" id="zoom" hidden><figure' in page and '<label for="zoom"' in page
    assert "#zoom:checked+figure svg{width:calc(var(--w) * 2.5)" in page
    assert "<script" not in page


def test_interdiction_marker_is_tagged_on_its_hex() -> None:
    game = _game("july-1939-artillery")
    result = game_actions.load_game(game, cache=False)
    record = result.passes[1]
    state = copy.deepcopy(record.position.state)
    state.interdiction = {"japan": {"4412": 7}, "soviet": {"4409": 3}}  # side -> hex -> factors
    scene = rs_scene(state, state, [], "t", "s")
    svg = render(scene)
    assert scene.hex_markers["4412"] == ["INT7 jp"] and scene.hex_markers["4409"] == ["INT3 su"]
    assert ">INT7 jp</text>" in svg and ">INT3 su</text>" in svg
    assert any("INT7 jp: interdiction marker" in text for _, text in scene.legend)
    assert not any("interdiction" in text for _, text in rs_scene(record.position.state, state, [], "t", "s").legend)


def _place_boxes(svg: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    from rsr.draw.labels import text_box

    found = re.findall(r'<text x="([-\d.]+)" y="([-\d.]+)" font-size="8" font-weight="(\w+)"[^>]*class="place">'
                       r"([^<]*)</text>", svg)
    return [(text, text_box(float(x), float(y), text, 8.0, weight == "bold")) for x, y, weight, text in found]


def test_place_names_never_cover_each_other_on_either_land_map() -> None:
    """Issue 23.6: "Newchwang (Yingkou)" and "Tashihchiao" (neighbouring hexes) both readable; the previews
    are what rsr/draw draws of each whole map (python -m tools.rs_map, tools.rsr_map, tools.rsr_naval_map)."""
    from rsr.draw.labels import overlap

    root = Path(__file__).resolve().parent.parent / "docs"
    for name in ("red-sun-rising/map-provisional.svg", "red-star/map-provisional.svg",
                 "red-sun-rising/naval-map-provisional.svg"):
        boxes = _place_boxes((root / name).read_text(encoding="utf-8"))
        assert len(boxes) >= 14, name
        clashes = [(a, b) for i, (a, box) in enumerate(boxes) for b, other in boxes[i + 1:] if overlap(box, other)]
        assert not clashes, (name, clashes)
    names = [text for text, _ in _place_boxes((root / "red-sun-rising/map-provisional.svg").read_text())]
    assert any(n.startswith("Newchwang (Yingkou)") for n in names) and "Tashihchiao" in names
