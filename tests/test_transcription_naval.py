"""Red Sun Rising's turn track, naval data and Strategic Naval Map as a player's transcription (issue 25,
part 2): exported, checked against what the rulebook pins (its printed tables and worked examples), applied
only where copied, and played on through the real command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rsr import transcription
from rsr.cli import main
from rsr.errors import BadInput
from rsr.rulesets.red_sun_rising.naval.data import load_naval
from rsr.scenario import load_scenario
from rsr.yamlio import dump_yaml, load_yaml_file

NAVAL_SCENARIO = "naval-1904"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def write(path: Path, kind: str, entries: list[dict[str, Any]]) -> Path:
    path.write_text(dump_yaml({"transcription": 1, "ruleset": "red-sun-rising", "kind": kind, "entries": entries}))
    return path


def applied(*files: Path) -> Any:
    return transcription.scenario_with(load_scenario("red-sun-rising", NAVAL_SCENARIO),
                                       [transcription.load_file(f) for f in files])


def test_the_new_kinds_export_through_the_command_line(tmp_path: Path) -> None:
    helped = run("data", "export", "--help")
    assert all(kind in helped.output for kind in ("track", "naval", "naval_map"))
    for kind in ("track", "naval", "naval_map"):
        out = tmp_path / f"{kind}.yaml"
        made = run("data", "export", "red-sun-rising", kind, "--out", str(out))
        assert made.exit_code == 0, made.output
        form = load_yaml_file(out)
        assert form["kind"] == kind and form["entries"] and not any(e["copied"] for e in form["entries"])
        checked = run("data", "check", str(out))
        assert checked.exit_code == 0 and "0 values transcribed" in checked.output, checked.output
    form = transcription.export_form("red-sun-rising", "naval")
    attack = next(e for e in form["entries"] if e["at"] == "ships/0/attack")
    assert attack["label"] == "ships[id=ru-peresvyet, side=russia].attack" and attack["source"] == "provisional"
    track = transcription.export_form("red-sun-rising", "track")
    arrive = next(e for e in track["entries"] if e["at"] == "turns/0/arrive")
    assert arrive["value"] == ["ru-shq-alexiev", "jp-1a"]  # a printed list is one value
    assert arrive["label"] == "turns[turn=1, month=1904-02].arrive"


def test_red_star_has_no_naval_data() -> None:
    refused = run("data", "export", "red-star", "naval")
    assert refused.exit_code == 2 and refused.output.count("\n") == 1
    assert "red-star has no naval data" in refused.output


@pytest.mark.parametrize(("kind", "at", "value", "case"), [
    ("naval", "naval_crt/cells/4/3", 1, "rulebook: 8.24"),           # the printed Naval CRT cells
    ("naval", "blockade_attrition/rows/3/ships", 3, "rulebook: 15.15"),
    ("naval", "ships/0/name", "Peresvet", "rulebook: 19.2"),          # the ship list as printed
    ("track", "turns/0/month", "1904-03", "rulebook: 18.8, 19.4"),    # 23 monthly turns from February 1904
    ("track", "turns/11/japanese_replacement_step", False, "rulebook: 17.22"),
    ("track", "cities/2/hex", "0804", "rulebook: 7.5 (example)"),      # Dalny, hex 0803, in the 7.5 example
    ("naval_map", "ports/1/land_hex", "0804", "rulebook: 7.5 example"),
    ("naval_map", "code_hexes/0/land_coast", ["1701", "1211"], "derived: 7.5 example"),
    ("naval_map", "baltic_entry/hexes", [12, 13], "rulebook: 19.2"),
])
def test_check_refuses_a_value_the_rulebook_pins(tmp_path: Path, kind: str, at: str, value: Any,
                                                 case: str) -> None:
    path = write(tmp_path / "bad.yaml", kind, [{"at": at, "value": value}])
    refused = run("data", "check", str(path))
    assert refused.exit_code == 2 and refused.output.count("\n") == 1, refused.output
    assert case in refused.output and "contradicts" in refused.output


def test_a_partial_naval_transcription_applies_only_the_copied_values(tmp_path: Path) -> None:
    """One battleship's attack copied: that ship's attack changes, its defense stays provisional (so mines,
    which read it, still say so), every other ship is as shipped; copying the defense too clears the flag."""
    shipped = load_naval(load_scenario("red-sun-rising", NAVAL_SCENARIO).data)
    one = write(tmp_path / "one.yaml", "naval", [{"at": "ships/0/attack", "value": 7},
                                                 {"at": "ships/1/attack", "value": 1, "copied": False}])
    naval = load_naval(applied(one).data)
    assert shipped is not None and naval is not None
    assert naval.ships["ru-peresvyet"].attack == 7 and naval.ships["ru-peresvyet"].defense == 5
    assert "provisional" in naval.ships["ru-peresvyet"].provenance
    assert "attack overlay: transcription" in naval.ships["ru-peresvyet"].provenance
    others = [s for s in shipped.ships if s != "ru-peresvyet"]
    assert all(naval.ships[s] == shipped.ships[s] for s in others)
    both = write(tmp_path / "both.yaml", "naval", [{"at": "ships/0/attack", "value": 7},
                                                  {"at": "ships/0/defense", "value": 5}])
    assert "provisional" not in load_naval(applied(both).data).ships["ru-peresvyet"].provenance  # type: ignore[union-attr]
    _, result = transcription.check(one)
    assert "ships[id=ru-peresvyet, side=russia].defense" in result.provisional
    assert "ships[id=ru-peresvyet, side=russia].attack" not in result.provisional


def test_a_transcribed_turn_track_replaces_whole_printed_lists(tmp_path: Path) -> None:
    path = write(tmp_path / "track.yaml", "track", [
        {"at": "turns/1/arrive", "value": ["jp-2a"]},
        {"at": "turns/1/russian_command_points", "value": 2},
        {"at": "seasons/winter", "value": [11, 12, 1, 2]},
        {"at": "seasons/autumn", "value": [9, 10]}])
    _, result = transcription.check(path)
    assert result.copied == 4 and len(result.changed) == 4
    track = applied(path).data["track"]
    assert track["turns"][1]["arrive"] == ["jp-2a"] and track["turns"][1]["russian_command_points"] == 2
    assert track["turns"][1]["provenance"]["arrive"] == transcription.OVERLAY
    assert track["turns"][1]["provenance"]["admirals_arrive"].startswith("provisional")  # not copied: kept
    assert track["turns"][2]["arrive"] == load_scenario("red-sun-rising", NAVAL_SCENARIO).data["track"]["turns"][2][
        "arrive"]


@pytest.mark.parametrize(("entries", "message"), [
    ([{"at": "turns/0/arrive", "value": ["ru-shq-alexiev", "xx-nobody"]}], "no counter 'xx-nobody'"),
    ([{"at": "seasons/winter", "value": [12, 1]}], "the twelve months must each be in one season"),
    ([{"at": "turns/0/arrive", "value": "jp-1a"}], "is a str"),
])
def test_check_refuses_a_track_that_does_not_hold_together(tmp_path: Path, entries: list[dict[str, Any]],
                                                           message: str) -> None:
    path = write(tmp_path / "bad.yaml", "track", entries)
    with pytest.raises(BadInput, match=message):
        transcription.check(path)
    refused = run("data", "check", str(path))
    assert refused.exit_code == 2 and refused.output.count("\n") == 1 and "Traceback" not in refused.output


def test_a_naval_map_port_must_be_a_hex_of_it(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.yaml", "naval_map", [{"at": "ports/10/hex", "value": 999}])
    with pytest.raises(BadInput, match="naval hex 999 is not on the map"):
        transcription.check(path)


def test_a_list_is_one_value_only_where_the_sheet_prints_a_list(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(dump_yaml({"transcription": 1, "ruleset": "red-sun-rising", "kind": "tables",
                               "entries": [{"at": "land_crt/cells/3/results", "value": ["1/1"] * 6}]}))
    with pytest.raises(BadInput, match="not a single value"):
        transcription.check(path)


def test_a_naval_game_on_a_transcription_is_created_accepted_and_verified(tmp_path: Path, rsr_home: Path) -> None:
    naval = write(tmp_path / "naval.yaml", "naval", [{"at": "ships/0/attack", "value": 7},
                                                    {"at": "admirals/2/initiative", "value": 3}])
    track = write(tmp_path / "track.yaml", "track", [{"at": "turns/0/russian_command_points", "value": 2}])
    for name in ("alice", "bob"):
        assert run("key", "new", name).exit_code == 0
    made = run("new", str(tmp_path / "alice"), "--scenario", NAVAL_SCENARIO, "--side", "russia", "--key", "alice",
               "--data", str(naval), "--data", str(track))
    assert made.exit_code == 0, made.output
    invite = next((tmp_path / "alice").glob("game-*/turns/0000-*.rsr"))
    preview = run("accept", str(invite), "--key", "bob", "--dir", str(tmp_path / "bob"), "--preview")
    assert preview.exit_code == 0, preview.output
    flat = " ".join(preview.output.split())
    assert "the turn track: 1 value transcribed" in flat and "the naval data: 2 values transcribed" in flat
    assert "ships[id=ru-peresvyet, side=russia].attack (ships/0/attack): 6 -> 7" in flat
    assert "admirals[id=ru-adm-stark, side=russia].initiative (admirals/2/initiative): 1 -> 3" in flat
    accepted = run("accept", str(invite), "--key", "bob", "--dir", str(tmp_path / "bob"))
    assert accepted.exit_code == 0, accepted.output
    for copy in [invite.parents[1], *(tmp_path / "bob").glob("game-*")]:
        verified = run("verify", str(copy))
        assert verified.exit_code == 0, verified.output
    from rsr.gamedir import load_log
    from rsr.log import replay

    state = replay(load_log(invite.parents[1])).scenario
    assert state.data["naval"]["ships"][0]["attack"] == 7
    assert state.data["track"]["turns"][0]["russian_command_points"] == 2
    carried = load_log(invite.parents[1])[0].payload["invite"]["data"]
    assert [d["kind"] for d in carried] == ["track", "naval"]


def test_data_show_draws_the_transcribed_naval_map(tmp_path: Path) -> None:
    """The naval map with the copied hexes marked T, every sea hex numbered; a port name from the file is
    escaped by the SVG writer."""
    path = write(tmp_path / "nm.yaml", "naval_map", [{"at": "hexes/1/kind", "value": "coastal"},
                                                    {"at": "ports/10/name", "value": "Naga<script>"}])
    out = tmp_path / "nm.svg"
    shown = run("data", "show", str(path), "--out", str(out))
    assert shown.exit_code == 0, shown.output
    svg = out.read_text()
    assert "<script" not in svg and "Naga&lt;script&gt;" in svg
    assert ">T</text>" in svg and "2 value(s) transcribed (2 naval hexes marked T)" in svg
    assert all(f">{n}</text>" in svg or f">{n} " in svg for n in (1, 2, 89))
