"""The Red Sun Rising naval pictures of `rsr map` (issue 15 with issue 12 item 5 and issue 13 item 3).

Strategic Naval Map: every fleet and merchant fleet in its hex, an arrow for every move of every movement
round (RSR 7.1) and for the Baltic fleet's entry (19.2), mines (16.0), blockade (15.0) and its attrition
(15.1), the raid (7.2) and embarkation (7.4), provisional data flagged. Tactical Naval Display: the
battlelines, Secondary Force and flotillas (8.2), the range (8.4), a line for every roll of the hour (8.52,
8.61), disabled and sunk ships (8.52), for every hour of a played battle.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr import games as game_actions
from rsr.cli import main
from rsr.demo import run_demo
from rsr.draw import draw_position
from rsr.engine import Event
from rsr.rulesets.red_sun_rising.battle_display import ROLL_KINDS, battles_in
from tests.test_rsr_naval_battle_exchange import play, wanted


@pytest.fixture(scope="module")
def naval_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("naval") / "demo"
    run_demo(out, echo=lambda _: None, scenario="naval-1905", ruleset_id="red-sun-rising")
    return next(out.glob("audit/game-*"))


@pytest.fixture(scope="module")
def battle_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Event]]:
    for game in range(1, 41):
        game_dir, events, _ = play(tmp_path_factory.mktemp(f"battle{game}"), game=game)
        if wanted(events):
            return game_dir, events
    raise AssertionError("none of 40 games had a multi-hour battle")


def _naval_pass(game_dir: Path) -> tuple[object, object]:
    result = game_actions.load_game(game_dir, cache=False)
    record = next(r for r in result.passes if any(e.kind == "naval-move" for e in r.events))
    return result, record


def test_naval_map_draws_every_fleet_route_and_event(naval_game: Path) -> None:
    result, record = _naval_pass(naval_game)
    svg, scene = draw_position(result, record)  # a naval packet: the naval map without asking
    assert "Strategic Naval Map" in scene.title
    state = record.position.state  # type: ignore[attr-defined]
    static, naval = state.naval_static, state.naval
    # every fleet afloat on the map and every merchant fleet is a counter in its hex
    for fleet_id, fleet in naval.fleets.items():
        if fleet.arrives:
            continue
        cell = static.hexes[fleet.hex].cell
        assert fleet_id in [p.unit for p in scene.stacks[cell]], fleet_id
        assert f'data-unit="{fleet_id}"' in svg
    for merchant_id, merchant in naval.merchants.items():
        assert merchant_id in [p.unit for p in scene.stacks[static.hexes[merchant.hex].cell]]
    # one route arrow per move of the packet, between the cells of its two hexes, with its round
    moves = [e for e in record.events if e.kind == "naval-move"]  # type: ignore[attr-defined]
    assert moves and any(e.data["frm"] is None for e in moves)  # the Baltic fleet enters (19.2)
    routes = [a for a in scene.arrows if a.kind.startswith("route-")]
    assert len(routes) == len(moves) == len(re.findall(r'class="arrow arrow-route-', svg))
    for arrow, event in zip(routes, moves, strict=True):
        assert arrow.hexes[-1] == static.hexes[event.data["to"]].cell
        if event.data["frm"] is not None:
            assert arrow.hexes[0] == static.hexes[event.data["frm"]].cell
        assert arrow.label == str(event.data["round"])
        assert escape(event.text) in svg  # the arrow's tooltip is the report's sentence
    # the hex numbers players use, the coded hexes and ports
    assert ">42 A<" in svg and ">54 E<" in svg and "Port Arthur" in svg and "Vladivostok" in svg
    # mines, blockade, raid, embarkation, attrition on their hexes; provisional results flagged
    for key, level in naval.mines.items():
        assert f"M{level}" in scene.hex_markers[static.hexes[int(key)].cell]
    blockading = [f for f in naval.fleets.values() if f.blockade]
    assert blockading and all("BLK" in p.markers for f in blockading for p in scene.stacks[static.hexes[f.hex].cell]
                              if p.unit == f.id)
    raid = next(e for e in record.events if e.kind == "raid")  # type: ignore[attr-defined]
    assert "RAID" in scene.hex_markers[static.hexes[raid.data["hex"]].cell]
    embark = next(e for e in record.events if e.kind == "embark")  # type: ignore[attr-defined]
    assert "EMB" in scene.hex_markers[static.hexes[embark.data["hex"]].cell]
    assert "ATTR" in scene.hex_markers[static.hexes[blockading[0].hex].cell]
    flagged = [e for e in record.events if e.provisional and e.kind in ("mines", "blockade-attrition")]  # type: ignore[attr-defined]
    assert flagged and svg.count("[provisional]") >= len(flagged)
    assert "map: provisional" in svg


def test_naval_map_command_png_land_and_html(naval_game: Path, tmp_path: Path) -> None:
    _, record = _naval_pass(naval_game)
    seq = str(record.resolved)  # type: ignore[attr-defined]
    runner = CliRunner()
    png = tmp_path / "naval.png"
    assert runner.invoke(main, ["map", str(naval_game), seq, "--out", str(png)]).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    land = tmp_path / "land.svg"
    assert runner.invoke(main, ["map", str(naval_game), seq, "--land", "--out", str(land)]).exit_code == 0
    assert "Strategic Naval Map" not in land.read_text()
    around = tmp_path / "around.svg"
    assert runner.invoke(main, ["map", str(naval_game), seq, "--around", "42", "--radius", "1",
                                "--out", str(around)]).exit_code == 0
    assert ">42 A<" in around.read_text() and ">89<" not in around.read_text()
    bad = runner.invoke(main, ["map", str(naval_game), seq, "--around", "999", "--out", str(around)])
    assert bad.exit_code == 2 and "no such naval hex" in bad.output
    html = tmp_path / "report.html"
    assert runner.invoke(main, ["report", str(naval_game), seq, "--html", "--out", str(html)]).exit_code == 0
    assert "Strategic Naval Map" in html.read_text() and 'class="arrow arrow-route-' in html.read_text()


def test_naval_stacks_show_every_fleet_and_its_size_and_port_names_stay_apart(naval_game: Path,
                                                                             tmp_path: Path) -> None:
    """Issue 23.6: the 4-ship fleet on top no longer hides the 21-ship Baltic fleet under it; Moji, Ujina and
    Kobe (three home ports side by side) are named without one name covering another."""
    result, record = _naval_pass(naval_game)
    out = tmp_path / "naval.svg"
    run = CliRunner().invoke(main, ["map", str(naval_game), str(record.resolved), "--out", str(out)])  # type: ignore[attr-defined]
    assert run.exit_code == 0, run.output
    svg = out.read_text()
    _, scene = draw_position(result, record)
    stacked = {h: pics for h, pics in scene.stacks.items() if len(pics) > 1}
    assert stacked, "the naval-1905 packet has fleets sharing a hex"
    naval = record.position.state.naval  # type: ignore[attr-defined]
    for pics in stacked.values():
        for pic in pics:  # every fleet of a stack is a chip of its own, its ships afloat printed on it
            chip = re.search(rf'<g class="counter chip" data-unit="{re.escape(pic.unit)}">.*?</g>', svg)
            assert chip, pic.unit
            if pic.unit in naval.fleets:
                fleet = naval.fleets[pic.unit]
                afloat = len([s for s in fleet.ships if s not in naval.sunk])
                assert re.search(rf">[^<]*\b{afloat}(/\d+d| sh)[^<]*</text>", chip.group(0)), (pic.unit, afloat)
    baltic = [h for h, pics in stacked.items() if "ru-fleet-baltic" in [p.unit for p in pics]]
    assert baltic, "the Baltic fleet shares its hex in this packet"
    # port names: no two name boxes overlap (the labels' own boxes as rsr/draw/labels.py measures them)
    from rsr.draw.labels import overlap, text_box
    boxes = [text_box(float(x), float(y), text, 8.0, True) for x, y, text in
             re.findall(r'<text x="([-\d.]+)" y="([-\d.]+)" font-size="8" font-weight="bold"[^>]*class="place">'
                        r"([^<]*)</text>", svg)]
    assert len(boxes) >= 14  # every port hex is named
    assert all(overlap(a, b) == 0 for i, a in enumerate(boxes) for b in boxes[i + 1:])
    for name in ("Moji", "Ujina", "Kobe"):
        assert name in svg


def test_naval_flag_refused_without_a_naval_game(tmp_path: Path) -> None:
    from tests.support.played import played_game

    result = CliRunner().invoke(main, ["map", str(played_game("red-sun-rising")), "--naval",
                                       "--out", str(tmp_path / "x.svg")])
    assert result.exit_code == 2 and "has no naval game" in result.output
    assert not (tmp_path / "x.svg").exists()


def test_battle_display_every_hour(battle_game: tuple[Path, list[Event]], tmp_path: Path) -> None:
    game_dir, events = battle_game
    result = game_actions.load_game(game_dir, cache=False)
    record = next(r for r in result.passes if battles_in(r.events))
    battle = battles_in(record.events)[0]
    assert record.position is not None
    static = record.position.state.naval_static
    runner = CliRunner()
    setup = battle.setup["display"]
    hours = battle.hours()
    assert len(hours) >= 2
    for hour in [0, *hours]:
        out = tmp_path / f"hour{hour}.svg"
        done = runner.invoke(main, ["map", str(game_dir), str(record.resolved), "--battle", "--hour", str(hour),
                                    "--out", str(out)])
        assert done.exit_code == 0, done.output
        svg = out.read_text()
        row = next((e.data for e in battle.events if e.kind == "naval-hour" and e.data["hour"] == hour), None)
        shown = row["display"] if row else setup
        # both battlelines, the Secondary Force and the flotillas afloat, each in a ship box
        for side in ("russia", "japan"):
            for ship in [*shown[side]["battleline"].values(), *shown[side]["flotillas"].values(),
                         *[s for ships in shown[side]["secondary"].values() for s in ships]]:
                state = "disabled" if ship in shown[side]["disabled"] else "ok"
                assert f'class="ship ship-{state}" data-ship="{ship}"' in svg, (hour, ship)
        # every ship sunk so far is drawn sunk, in the box it held
        sunk = row["sunk"]["russia"] + row["sunk"]["japan"] if row else []
        for ship in sunk:
            assert f'class="ship ship-sunk" data-ship="{ship}"' in svg
            assert static.ship(ship).name[:5] in svg or ship.split("-", 1)[1].upper() in svg
        # the range marker sits on the hour's range; a line for every roll of the hour, coloured by outcome
        rng = row["range"] if row else battle.setup["range"]
        assert re.search(rf'class="range-marker" x="{110 + rng * 34 - 2:.1f}"', svg)
        for ship in re.findall(r'data-ship="([^"]+)"', svg):  # values that are stand-ins carry a star
            starred = re.search(rf'data-ship="{ship}">.*?</g>', svg, re.S)
            assert starred and ("*</text>" in starred.group(0)) == ("provisional" in static.ship(ship).provenance)
        rolls = [e for e in battle.events if e.kind in ROLL_KINDS and e.data["hour"] == hour]
        assert len(re.findall(r'<path class="shot ', svg)) == len(rolls)
        for roll in rolls:
            assert f'outcome-{roll.data["outcome"].replace(" ", "-")}' in svg
            if roll.provisional:
                assert "[provisional]" in svg
    assert any(e.data["outcome"] == "sunk" for e in battle.events if e.kind in ROLL_KINDS)
    png = tmp_path / "battle.png"
    assert runner.invoke(main, ["map", str(game_dir), str(record.resolved), "--battle", "--out",
                                str(png)]).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_battle_display_bad_input(battle_game: tuple[Path, list[Event]], tmp_path: Path) -> None:
    game_dir, _ = battle_game
    result = game_actions.load_game(game_dir, cache=False)
    record = next(r for r in result.passes if battles_in(r.events))
    runner = CliRunner()
    out = tmp_path / "x.svg"
    for args, words in ((["--battle", "--hour", "12"], "has hours"), (["--battle", "7"], "naval hex"),
                        (["--hour", "1"], "--hour goes with --battle")):
        done = runner.invoke(main, ["map", str(game_dir), str(record.resolved), *args, "--out", str(out)])
        assert done.exit_code == 2 and words in done.output, done.output
        assert len(done.output.strip().splitlines()) == 1
    done = runner.invoke(main, ["map", str(game_dir), "1", "--battle", "--out", str(out)])
    assert done.exit_code == 2 and "no naval battle" in done.output
    assert not out.exists()
