"""The Red Sun/Red Star Turn Record as a player's transcription (issue 25): support points, replacement points
and reinforcements turn by turn, kept in each scenario file (its ``turns``), so a transcription of it names
its scenario. A value the scenario leaves out reads as none and may be copied in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rsr import transcription
from rsr.cli import main
from rsr.errors import BadInput
from rsr.yamlio import dump_yaml

SCENARIO = "july-1939"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def write(path: Path, entries: list[dict[str, Any]], scenario: str | None = SCENARIO) -> Path:
    doc: dict[str, Any] = {"transcription": 1, "ruleset": "red-star", "kind": "turn_record", "entries": entries}
    if scenario is not None:
        doc["scenario"] = scenario
    path.write_text(dump_yaml(doc))
    return path


def test_export_lists_each_turn_with_every_pool_and_its_arrivals(tmp_path: Path) -> None:
    out = tmp_path / "tr.yaml"
    made = run("data", "export", "red-star", "turn_record", "--scenario", SCENARIO, "--out", str(out))
    assert made.exit_code == 0, made.output
    form = transcription.export_form("red-star", "turn_record", SCENARIO)
    first = [e for e in form["entries"] if e["at"].startswith("turns/0/")]
    assert [e["label"] for e in first][:2] == ["turns[date=2 July].support.japan", "turns[date=2 July].support.soviet"]
    assert all(e["source"] == "provisional" for e in form["entries"])
    assert next(e for e in form["entries"] if e["at"] == "turns/1/support/soviet")["value"] == 3
    assert next(e for e in form["entries"] if e["at"] == "turns/0/reinforcements")["value"] == []
    checked = run("data", "check", str(out))
    assert checked.exit_code == 0 and "0 values transcribed" in checked.output, checked.output
    assert run("data", "export", "red-star", "turn_record").exit_code == 2  # which scenario's?
    assert run("data", "export", "red-star", "map", "--scenario", SCENARIO).exit_code == 2


def test_a_copied_value_is_applied_even_where_the_scenario_left_it_out(tmp_path: Path) -> None:
    path = write(tmp_path / "tr.yaml", [{"at": "turns/0/support/japan", "value": 1},
                                        {"at": "turns/1/support/japan", "value": 4},
                                        {"at": "turns/2/reinforcements", "value": ["jp-m-art"]},
                                        {"at": "turns/9/reinforcements", "value": ["su-603-82"]}])
    read, result = transcription.check(path)
    assert result.copied == 4 and len(result.changed) == 4
    assert "turns[date=2 July].support.japan" not in result.provisional
    assert "turns[date=2 July].support.soviet" in result.provisional
    from rsr.scenario import load_scenario

    shipped = load_scenario("red-star", SCENARIO)
    turns = transcription.scenario_with(shipped, [read]).data["scenario"]["turns"]
    assert turns[0]["support"] == {"japan": 1} and turns[1]["support"] == {"japan": 4, "soviet": 3}
    assert turns[2]["reinforcements"] == ["jp-m-art"] and turns[9]["reinforcements"] == ["su-603-82"]
    assert turns[3] == shipped.data["scenario"]["turns"][3]


@pytest.mark.parametrize(("entries", "scenario", "message"), [
    ([{"at": "turns/1/support/japan", "value": -1}], SCENARIO, "not a number of points"),
    ([{"at": "turns/1/support/japan", "value": True}], SCENARIO, "not a number of points"),
    ([{"at": "turns/1/reinforcements", "value": ["xx-nobody"]}], SCENARIO, "no counter 'xx-nobody'"),
    ([{"at": "turns/3/withdraw", "value": ["xx-gone"]}], SCENARIO, "withdraw: no counter 'xx-gone'"),
    ([{"at": "turns/2/reinforcements", "value": ["su-1-5"]}], SCENARIO, "su-1-5"),  # it arrives on 8 July too
    ([{"at": "turns/1/replacements/japan/mongol", "value": 1}], SCENARIO, "not a value of the Turn Record"),
    ([{"at": "turns/40/support/japan", "value": 1}], SCENARIO, "not a value of the Turn Record"),
    ([{"at": "turns/1/date", "value": "4 July"}], SCENARIO, "not a value of the Turn Record"),
    ([{"at": "turns/1/support/japan", "value": 1}], None, "names its scenario"),
])
def test_check_refuses(tmp_path: Path, entries: list[dict[str, Any]], scenario: str | None, message: str) -> None:
    path = write(tmp_path / "bad.yaml", entries, scenario)
    with pytest.raises(BadInput, match=message):
        transcription.check(path)
    refused = run("data", "check", str(path))
    assert refused.exit_code == 2 and refused.output.count("\n") == 1, refused.output


def test_a_game_on_a_transcribed_turn_record(tmp_path: Path, rsr_home: Path) -> None:
    path = write(tmp_path / "tr.yaml", [{"at": "turns/1/support/japan", "value": 4},
                                        {"at": "turns/1/replacements/soviet/mongol", "value": 1}])
    for name in ("alice", "bob"):
        assert run("key", "new", name).exit_code == 0
    other = run("new", str(tmp_path / "x"), "--ruleset", "red-star", "--scenario", "july-1939-contact", "--side",
                "japan", "--key", "alice", "--data", str(path))
    assert other.exit_code == 2 and "the Turn Record of scenario july-1939" in other.output, other.output
    assert not (tmp_path / "x").exists() or not any((tmp_path / "x").iterdir())
    made = run("new", str(tmp_path / "alice"), "--ruleset", "red-star", "--scenario", SCENARIO, "--side", "japan",
               "--key", "alice", "--data", str(path))
    assert made.exit_code == 0, made.output
    invite = next((tmp_path / "alice").glob("game-*/turns/0000-*.rsr"))
    preview = run("accept", str(invite), "--key", "bob", "--dir", str(tmp_path / "bob"), "--preview")
    assert preview.exit_code == 0, preview.output
    flat = " ".join(preview.output.split())
    assert "the Turn Record: 2 values transcribed, 2 of them different" in flat
    assert "turns[date=3 July].support.japan (turns/1/support/japan): 2 -> 4" in flat
    assert run("accept", str(invite), "--key", "bob", "--dir", str(tmp_path / "bob")).exit_code == 0
    from rsr.gamedir import load_log
    from rsr.log import replay

    for copy in [invite.parents[1], *(tmp_path / "bob").glob("game-*")]:
        assert run("verify", str(copy)).exit_code == 0
        turns = replay(load_log(copy)).scenario.data["scenario"]["turns"]
        assert turns[1]["support"]["japan"] == 4 and turns[1]["replacements"]["soviet"]["mongol"] == 1
    assert load_log(invite.parents[1])[0].payload["invite"]["data"][0]["kind"] == "turn_record"
