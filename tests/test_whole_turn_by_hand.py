"""Issue 23 section 1: a game turn written by hand from the templates alone takes no more packets than the
bots' (at most 6 per game turn).

Two players with their own homes play through the real command line: each packet's orders are written by
``tests/support/person.py`` from what ``rsr orders template`` prints (and ``--from`` the file so far), checked
with ``rsr orders check`` and signed with ``rsr submit``; a packet that answers nothing is signed without
orders, as a person does when the game waits on the other side.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from rsr import games as game_actions
from rsr.cli import main
from rsr.rulesets import get_ruleset
from tests.support import person


def _runner(home: Path) -> person.Run:
    def run(*args: str) -> str:
        out = CliRunner().invoke(main, list(args), env={"RSR_HOME": str(home)}, catch_exceptions=False)
        assert out.exit_code == 0, f"rsr {' '.join(args)}: {out.output}"
        return out.output
    return run


def packets_per_turn(game_dir: Path) -> dict[int, int]:
    """Packets after the acceptance, counted for the game turn of the position each was written against; the
    packet that only reveals the last dice once the game is over is not counted."""
    result = game_actions.load_game(game_dir, cache=False)
    counts: dict[int, int] = {}
    for record in result.passes:  # the pass resolving packet n is recorded by packet n + 1
        if record.waiting is None:
            continue
        turn = int(getattr(record.after.state, "turn", 0)) if record.resolved >= 1 else 0
        counts[turn] = counts.get(turn, 0) + 1
    return counts


def play_by_hand(tmp: Path, ruleset_id: str, scenario: str, turns: int, most: int = 60) -> tuple[Path, int]:
    """Play ``turns`` whole game turns by hand; the first player's game directory and the packets written."""
    sides = get_ruleset(ruleset_id).sides
    homes = {name: tmp / name for name in ("alice", "bob")}
    runs = {name: _runner(home) for name, home in homes.items()}
    for name, home in homes.items():
        (home / "games").mkdir(parents=True)
        runs[name]("key", "new", name)
    runs["alice"]("new", str(homes["alice"] / "games"), "--ruleset", ruleset_id, "--scenario", scenario,
                  "--side", sides[0], "--key", "alice", "--name", "Alice")
    games = {"alice": next((homes["alice"] / "games").glob("game-*"))}
    invite = next((games["alice"] / "turns").glob("0000-*"))
    runs["bob"]("accept", str(invite), "--key", "bob", "--dir", str(homes["bob"] / "games"), "--name", "Bob")
    games["bob"] = next((homes["bob"] / "games").glob("game-*"))
    mailed = next((games["bob"] / "turns").glob("0001-*"))
    me, other = "alice", "bob"
    written = 0
    for number in range(most):
        run, game = runs[me], games[me]
        run("receive", str(game), str(mailed))
        result = game_actions.load_game(game)
        if result.passes and result.passes[-1].waiting is None:
            break
        if int(getattr(result.position.state, "turn", 0)) > turns:
            break
        template = run("orders", "template", str(game))
        mail = tmp / f"mail-{number:03d}.rsr"
        if not (yaml.safe_load(template) or {}).get("inputs"):
            run("submit", str(game), "--out", str(mail))
        else:
            orders = tmp / f"orders-{number:03d}.yaml"
            person.write_turn(run, game, orders)
            run("submit", str(game), str(orders), "--out", str(mail))
        written += 1
        mailed = mail
        me, other = other, me
    return games["alice"], written


@pytest.mark.parametrize(("ruleset", "scenario", "turns", "first"), [
    ("red-star", "july-1939-artillery", 2, 1),        # fire missions, prepared combats, movement: both sides
    ("red-sun-rising", "liaoyang-turn-1904", 7, 7),   # one whole land turn: assignments, movement, assaults
])
def test_a_hand_written_turn_takes_at_most_six_packets(tmp_path: Path, ruleset: str, scenario: str, turns: int,
                                                      first: int) -> None:
    game, written = play_by_hand(tmp_path, ruleset, scenario, turns)
    counts = packets_per_turn(game)
    whole = {turn: count for turn, count in counts.items() if first <= turn < turns or turns == first == turn}
    assert whole, counts
    assert max(whole.values()) <= 6, counts
    # the hand-written orders answered questions of several segments at once
    result = game_actions.load_game(game, cache=False)
    if ruleset == "red-star":  # RS/RS 6.1: the combats planned with the fire missions were declared after its dice
        texts = [e.text for record in result.passes for e in record.events]
        assert "japan answered t1/japan/prepared/combats by policy combats" in texts
        assert any(e.kind == "declared" and e.data.get("combat") for record in result.passes
                   for e in record.events), "the planned combat was declared"
    answered = [len([i for i in p.payload.get("inputs") or [] if "request" in i or "policy" in i])
                for p in result.packets[2:]]
    assert max(answered) >= 2, answered


def test_the_template_lays_out_every_question_before_the_die(tmp_path: Path) -> None:
    """RSR 14.0, 4.23, 11.2: the Russian assignments, movement and first assault round are asked with no
    die between them: one template lays out all three, each with its case, request id and options."""
    game, _ = play_by_hand(tmp_path, "red-sun-rising", "liaoyang-turn-1904", 0)
    run = _runner(tmp_path / "alice")
    text = run("orders", "template", str(game))
    ids = [item["request"] for item in yaml.safe_load(text)["inputs"]]
    assert ids == ["t7/russia/reinforcement/assign", "t7/russia/movement/orders", "t7/russia/combat/r1/attacks"]
    for case in ("(RSR 14.0)", "(RSR 4.23)", "(RSR 11.2)"):
        assert case in text
    assert text.count("# legal options:") == 3
    # check names every question and says which the orders answer
    orders = tmp_path / "one.yaml"
    orders.write_text(yaml.safe_dump({"inputs": yaml.safe_load(text)["inputs"][:1]}))
    out = run("orders", "check", str(game), str(orders))
    assert "t7/russia/reinforcement/assign: answered by your orders" in out
    assert "t7/russia/movement/orders: NOT answered" in out


def test_play_signs_the_whole_turn_pasted_at_once(tmp_path: Path) -> None:
    """``rsr play`` (no terminal: the orders are pasted) shows every question of the turn and signs them in one
    packet; orders that stop early are signed too, with the questions left named."""
    game, _ = play_by_hand(tmp_path, "red-sun-rising", "liaoyang-turn-1904", 0)
    home = tmp_path / "alice"
    text = _runner(home)("orders", "template", str(game))
    items = yaml.safe_load(text)["inputs"]
    pasted = yaml.safe_dump({"inputs": items[:1]}) + "\ny\n"
    out = CliRunner().invoke(main, ["play", str(game)], env={"RSR_HOME": str(home)}, input=pasted,
                             catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert "[t7/russia/combat/r1/attacks]" in out.output  # the template shown lays out the third question
    said = " ".join(out.output.split())
    left = re.search(r"\b(\d+) (questions?) of this packet unanswered", said)
    assert left and left[2] == ("question" if left[1] == "1" else "questions") and "(s)" not in said
    assert "t7/russia/movement/orders" in said.split("unanswered", 1)[1]
    assert "wrote packet 2" in out.output
    signed = game_actions.load_game(game, cache=False).packets[2].payload["inputs"]
    assert [item["request"] for item in signed] == ["t7/russia/reinforcement/assign"]


def test_fire_missions_and_the_combats_planned_after_their_dice_check_in_one_file(tmp_path: Path) -> None:
    """RS/RS 5.2, 5.21, 6.1: once the orders fire a mission, the template lays out the prepared combats after its
    dice as a plan signed now, placed before the missions, and ``orders check`` says the plan is used."""
    game, _ = play_by_hand(tmp_path, "red-star", "july-1939-artillery", 0)
    run = _runner(tmp_path / "alice")
    first = run("orders", "template", str(game))
    assert [item["request"] for item in yaml.safe_load(first)["inputs"]] == [
        "t1/japan/artillery/missions", "t1/japan/prepared/combats", "t1/japan/movement/orders"]
    fire = tmp_path / "fire.yaml"
    fire.write_text(yaml.safe_dump({"inputs": [{"request": "t1/japan/artillery/missions", "answer": {
        "missions": [{"bombard": "su-1-149", "artillery": ["jp-m-art"]}]}}]}))
    again = run("orders", "template", str(game), "--from", str(fire))
    items = yaml.safe_load(again)["inputs"]
    assert [item.get("policy") or item.get("request") for item in items] == ["combats", "t1/japan/artillery/missions"]
    assert items[0]["rule"] == {"turn": 1, "combats": []}
    assert "[t1/japan/prepared/combats]" in again and "then the game rolls dice" in again
    items[0]["rule"]["combats"] = [{"hex": "4411", "attackers": ["jp-1-71", "jp-2-71"]}]
    whole = tmp_path / "whole.yaml"
    whole.write_text(yaml.safe_dump({"inputs": items}))
    # the planned combat brings the attacker's choices for it, after the same dice
    items = yaml.safe_load(run("orders", "template", str(game), "--from", str(whole)))["inputs"]
    assert [item.get("policy") or item.get("request") for item in items] == [
        "combats", "attack-choices", "t1/japan/artillery/missions"]
    whole.write_text(yaml.safe_dump({"inputs": items}))
    said = " ".join(run("orders", "check", str(game), str(whole)).split())
    assert "t1/japan/artillery/missions: answered by your orders" in said
    assert "t1/japan/prepared/combats: after the dice, your plan (policy combats) is used" in said
    assert "t1/japan/prepared/c1/attack-choices: after the dice, your plan (policy attack-choices) is used" in said


def test_a_plan_the_missions_before_its_die_leave_unpaid_is_refused_before_signing(tmp_path: Path) -> None:
    """RS/RS 6.1 (one support point per attacking hex) with contract version 2: missions fired by the same
    orders spend their support points before the first die, so a planned combat they leave unpaid is known
    to fail without any die. It is refused by ``orders check`` and ``submit`` with why, not signed and then
    made void after the dice (found when a hand-written turn bombarded with every gun)."""
    game, _ = play_by_hand(tmp_path, "red-star", "july-1939-artillery", 0)
    run = _runner(tmp_path / "alice")
    options = person.options_above(run("orders", "template", str(game)), "t1/japan/artillery/missions")
    every_gun = sorted(g for g, gun in options["artillery"].items() if "su-1-149" in (gun.get("bombard") or []))
    orders = tmp_path / "orders.yaml"
    orders.write_text(yaml.safe_dump({"inputs": [
        {"policy": "combats", "rule": {"turn": 1, "combats": [{"hex": "4411", "attackers": ["jp-1-71", "jp-2-71"]}]}},
        {"request": "t1/japan/artillery/missions", "answer": {"missions": [{"bombard": "su-1-149",
                                                                            "artillery": every_gun}]}}]}))
    for command in (["orders", "check", str(game), str(orders)], ["submit", str(game), str(orders)]):
        refused = CliRunner().invoke(main, command, env={"RSR_HOME": str(tmp_path / "alice")})
        assert refused.exit_code == 2, refused.output
        assert "no planned combat can be paid: the cheapest costs 1 support point, japan has 0 left" \
            in " ".join(refused.output.split())
    assert len(list((game / "turns").iterdir())) == 2, "nothing was signed"
