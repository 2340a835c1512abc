"""Issue 5 acceptance: a Red Sun/Red Star game turn for each side through signed packet files.

Both keys on one machine (hot-seat). The ruleset's own bot writes every input; a choice the
bot marks ``seal: true`` is sealed with a fresh salt and unsealed from this test's store when the game asks
for it (the orders layer does the same from the player's home, rsr/orders.py). The turn has movement,
hasty attacks, prepared combats with sealed lead units and armor protection (RS/RS 6.21, 6.22) and a
Japanese night attack (RS/RS 6.9); the whole log then verifies with ``rsr verify``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr import keys as keystore
from rsr.cli import main
from rsr.engine import Event
from rsr.gamedir import append_packets, create_game_dir, load_log
from rsr.log import accept_packet, build_packet, invite_packet, replay
from rsr.rulesets import get_ruleset
from rsr.scenario import load_scenario
from tests.support.games import bot_packet


def play(tmp: Path, scenario: str, limit: int = 80,
         policies: dict[str, list[dict[str, Any]]] | None = None) -> tuple[Path, list[Event], int]:
    """Play ``scenario`` to its end; ``policies`` are standing inputs each side signs first."""
    policies = policies or {}
    ruleset = get_ruleset("red-star")
    japan = keystore.new_key(f"japan-{tmp.name}"[:40])
    soviet = keystore.new_key(f"soviet-{tmp.name}"[:40])
    invite = invite_packet(ruleset, load_scenario("red-star", scenario), japan, "japan", "J", bytes(range(16)),
                           None, {}, nonce=bytes([1]) * 32)
    game_dir = create_game_dir(tmp, invite)
    append_packets(game_dir, [invite])
    append_packets(game_dir, [accept_packet(invite, soviet, "S", list(policies.get("soviet", [])),
                                                  nonce=bytes([2]) * 32)])
    keys = {"japan": japan, "soviet": soviet}
    store: dict[str, dict[str, Any]] = {}
    first = {"japan": list(policies.get("japan", []))}
    for _ in range(limit):
        result = replay(load_log(game_dir))
        if result.passes and result.passes[-1].waiting is None:
            break
        author = result.next_author()
        key = keys[author]
        append_packets(game_dir, [build_packet(result, key, bot_packet(result, key, store, first.pop(author, [])))])
    else:
        raise AssertionError(f"the game did not end within {limit} packets")
    result = replay(load_log(game_dir))
    events = [e for record in result.passes for e in record.events]
    return game_dir, events, len(result.packets)


@pytest.fixture(scope="module")
def contact_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Event], int]:
    home = tmp_path_factory.mktemp("home")
    old = os.environ.get("RSR_HOME")
    os.environ["RSR_HOME"] = str(home)
    try:
        return play(tmp_path_factory.mktemp("game"), "july-1939-contact")
    finally:
        if old is None:
            del os.environ["RSR_HOME"]
        else:
            os.environ["RSR_HOME"] = old


def test_the_turn_verifies(contact_game: tuple[Path, list[Event], int]) -> None:
    """RS/RS 3.0: both player turns of a game turn, through packets, verify from the files alone."""
    game_dir, _, packets = contact_game
    out = CliRunner().invoke(main, ["verify", str(game_dir)])
    assert out.exit_code == 0, out.output
    assert 8 <= packets <= 30, packets


def test_sealed_choices_are_revealed_before_the_dice(contact_game: tuple[Path, list[Event], int]) -> None:
    """RS/RS 6.1, 6.21, 6.22: each side's prepared-combat choices are sealed, then revealed."""
    _, events, _ = contact_game
    sealed = [e.data["side"] for e in events if e.kind == "sealed"]
    revealed = [e for e in events if e.kind == "unsealed" and "combat" in e.data]
    assert "japan" in sealed and "soviet" in sealed
    assert {e.data["side"] for e in revealed} == {"japan", "soviet"}
    soviet_attack = [e for e in revealed if e.data["side"] == "soviet" and e.data["choice"]["armor_protection"]]
    assert soviet_attack, "the Soviet armored attack declares armor protection"
    first_die = next(i for i, e in enumerate(events) if e.kind == "die")
    first_reveal = next(i for i, e in enumerate(events) if e.kind == "unsealed")
    assert first_reveal < first_die


def test_night_attack_and_hasty_attacks_happen(contact_game: tuple[Path, list[Event], int]) -> None:
    """RS/RS 6.9, 6.91, 7.5: the Japanese attack at night; both sides make hasty attacks after moving."""
    _, events, _ = contact_game
    assert any(e.kind == "participation" for e in events)
    hasty = {e.data["combat"].split("/")[1] for e in events if e.kind == "combat-start"
             and e.data["combat_kind"] == "hasty"}
    assert hasty == {"japan", "soviet"}
    assert any(e.kind == "moved" for e in events)
    assert any(e.kind == "victory" for e in events)


def test_packets_per_game_turn_with_and_without_round_trips(tmp_path: Path) -> None:
    """RS/RS 6.1, 6.21: what the secret choices cost in packets, measured.

    Sealed attack choices with the defender's choices by policy (the defaults), sealed with the defender
    asked each time (policy ``defence-choices: ask``), and attack choices in the clear by policy
    (``attack-choices: auto``). After a sealed prepared-combat declaration the next packet is the defender's
    anyway (packets alternate), so asking the defender costs nothing there; in a movement order it costs a
    round trip per hasty attack. Choosing in the clear saves the unsealing round trip.
    """
    ask = [{"policy": "defence-choices", "rule": "ask"}]
    auto = [{"policy": "attack-choices", "rule": "auto"}]
    counts = {}
    for label, policies in (("sealed, defender by policy", {}),
                            ("sealed, defender asked", {"japan": ask, "soviet": ask}),
                            ("in the clear", {"japan": auto, "soviet": auto})):
        folder = tmp_path / label.replace(" ", "-").replace(",", "")
        folder.mkdir()
        _, events, packets = play(folder, "july-1939-contact", policies=policies)
        counts[label] = packets
        assert any(e.kind == "victory" for e in events)
    # asking the defender costs a round trip only where the attacker's packet would otherwise have run on
    # past the choices to the dice (hasty attacks in the middle of a movement order)
    assert counts["sealed, defender by policy"] <= counts["sealed, defender asked"] <= counts[
        "sealed, defender by policy"] + 4
    assert counts["in the clear"] < counts["sealed, defender by policy"]
    print(counts)
