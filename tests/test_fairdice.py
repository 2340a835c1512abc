"""The dice contract (docs/protocol.md), checked against the test vectors in tests/vectors/dice-v1.json."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from click.testing import CliRunner

from rsr.canonical import canonical_bytes
from rsr.cli import main
from rsr.errors import NeedDice, RulesError
from rsr.fairdice import (
    KeyedDice,
    NoDice,
    ScriptedDice,
    commitment,
    derive_secret,
    dice_key,
    roll_value,
    seal,
)


def test_commitments_match_vectors(vectors: dict[str, Any]) -> None:
    for case in vectors["cases"]:
        assert commitment(bytes.fromhex(case["reveal_hex"])) == case["commit_hex"]


def test_dice_keys_and_rolls_match_vectors(vectors: dict[str, Any]) -> None:
    for case in vectors["cases"]:
        key = dice_key(bytes.fromhex(case["reveal_hex"]), bytes.fromhex(case["game_id_hex"]),
                       bytes.fromhex(case["packet_sha256_hex"]))
        assert key.hex() == case["key_hex"]
        assert [roll_value(key, n, 6) for n in range(20)] == case["d6_rolls_0_to_19"]
        assert [roll_value(key, n, 10) for n in range(10)] == case["d10_rolls_0_to_9"]


def test_keyed_stream_numbers_rolls_in_order(vectors: dict[str, Any]) -> None:
    case = vectors["cases"][1]
    dice = KeyedDice(bytes.fromhex(case["key_hex"]))
    values = [dice.roll(6, f"roll {i}") for i in range(20)]
    assert values == case["d6_rolls_0_to_19"]
    assert [r.n for r in dice.rolls] == list(range(20))
    assert dice.rolls[3].to_json() == {"n": 3, "sides": 6, "value": values[3], "purpose": "roll 3"}


def test_seal_matches_vector(vectors: dict[str, Any]) -> None:
    sc = vectors["seal_case"]
    choice = {"lead": "2/11", "armor_protection": True}
    assert canonical_bytes(choice).decode() == sc["canonical_choice"]
    assert seal(bytes.fromhex(sc["salt_hex"]), choice) == sc["seal_hex"]


def test_cli_dice_roll_prints_vector_values(vectors: dict[str, Any]) -> None:
    runner = CliRunner()
    for case in vectors["cases"]:
        args = ["dice", "roll", "--reveal", case["reveal_hex"], "--game", case["game_id_hex"],
                "--packet-hash", case["packet_sha256_hex"]]
        out = runner.invoke(main, args + ["--sides", "6", "--count", "20"])
        assert out.exit_code == 0, out.output
        assert out.output.split() == [str(v) for v in case["d6_rolls_0_to_19"]]
        out = runner.invoke(main, args + ["--sides", "10", "--count", "10"])
        assert out.output.split() == [str(v) for v in case["d10_rolls_0_to_9"]]


def test_cli_dice_roll_rejects_bad_hex() -> None:
    out = CliRunner().invoke(main, ["dice", "roll", "--reveal", "zz", "--game", "00" * 16,
                                    "--packet-hash", "00" * 32])
    assert out.exit_code == 2
    assert "--reveal is not hex" in out.output


def test_rolls_are_unbiased_over_many_keys() -> None:
    counts = Counter(roll_value(dice_key(bytes([k % 256]) * 32, bytes(16), bytes(32)), n, 6)
                     for k in range(50) for n in range(120))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert max(counts.values()) - min(counts.values()) < 250  # 6000 rolls: about 1000 each


def test_secrets_differ_by_seq_and_game_and_are_reproducible() -> None:
    seed = bytes(range(32))
    game = bytes(16)
    nonce = bytes([7]) * 32
    assert derive_secret(seed, game, nonce, 2) == derive_secret(seed, game, nonce, 2)
    assert derive_secret(seed, game, nonce, 2) != derive_secret(seed, game, nonce, 4)
    assert derive_secret(seed, bytes([1]) * 16, nonce, 2) != derive_secret(seed, game, nonce, 2)
    # a fresh nonce gives fresh secrets in the same game (docs/protocol.md, "No secret is committed twice")
    assert derive_secret(seed, game, bytes([8]) * 32, 2) != derive_secret(seed, game, nonce, 2)


def test_no_dice_source_stops_a_dry_run() -> None:
    with pytest.raises(NeedDice, match="combat die"):
        NoDice().roll(6, "combat die")


def test_scripted_dice_refuse_impossible_faces_and_running_out() -> None:
    dice = ScriptedDice([7])
    with pytest.raises(RulesError, match="not a face"):
        dice.roll(6, "x")
    with pytest.raises(RulesError, match="ran out"):
        ScriptedDice([]).roll(6, "y")
