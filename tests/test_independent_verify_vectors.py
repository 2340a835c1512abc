"""Tests for tools/independent_verify.py, the checker written from the protocol contract (docs/protocol.md) only.

The first group reproduces every value of tests/vectors/dice-v1.json with the checker's own primitives.
The second builds small games from the contract alone (no `rsr` import) and checks that the checker accepts
them, survives email mangling, and names the right packet when one is tampered with.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import rfc8785
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

TOOL = Path(__file__).resolve().parents[1] / "tools" / "independent_verify.py"
VECTORS = Path(__file__).resolve().parent / "vectors" / "dice-v1.json"


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("independent_verify", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is created
    spec.loader.exec_module(module)
    return module


iv = _load_tool()


@pytest.fixture(scope="module")
def vectors() -> dict[str, Any]:
    return json.loads(VECTORS.read_text(encoding="utf-8"))


def _case_key(case: dict[str, Any]) -> bytes:
    return iv.dice_key(bytes.fromhex(case["reveal_hex"]), bytes.fromhex(case["game_id_hex"]),
                       bytes.fromhex(case["packet_sha256_hex"]))


def test_vectors_have_cases(vectors: dict[str, Any]) -> None:
    assert len(vectors["cases"]) >= 3


def test_commit_vectors(vectors: dict[str, Any]) -> None:
    for case in vectors["cases"]:
        assert iv.commit_of(bytes.fromhex(case["reveal_hex"])).hex() == case["commit_hex"]


def test_key_vectors(vectors: dict[str, Any]) -> None:
    for case in vectors["cases"]:
        assert _case_key(case).hex() == case["key_hex"]


def test_d6_vectors(vectors: dict[str, Any]) -> None:
    for case in vectors["cases"]:
        key = _case_key(case)
        assert [iv.roll(key, n, 6) for n in range(20)] == case["d6_rolls_0_to_19"]


def test_d10_vectors(vectors: dict[str, Any]) -> None:
    for case in vectors["cases"]:
        key = _case_key(case)
        assert [iv.roll(key, n, 10) for n in range(10)] == case["d10_rolls_0_to_9"]


def test_seal_vector(vectors: dict[str, Any]) -> None:
    seal = vectors["seal_case"]
    choice = json.loads(seal["canonical_choice"])
    assert rfc8785.dumps(choice) == seal["canonical_choice"].encode()
    assert iv.seal_of(bytes.fromhex(seal["salt_hex"]), choice).hex() == seal["seal_hex"]


def test_roll_rejects_impossible_dice() -> None:
    with pytest.raises(ValueError):
        iv.roll(b"k" * 32, 0, 257)


# --- whole games built from the contract ------------------------------------------------------------------

GAME = "3f9c2a71e0b84d553f9c2a71e0b84d55"
SIDES = ("japan", "russia")
PRIVATE = {side: Ed25519PrivateKey.from_private_bytes(bytes([i + 1]) * 32) for i, side in enumerate(SIDES)}
Mutate = Callable[[int, dict[str, Any]], None]
RawHook = Callable[[int, bytes], bytes]


def _pub(side: str) -> str:
    return base64.b64encode(PRIVATE[side].public_key().public_bytes_raw()).decode()


def _armor(seq: int, side: str, payload: bytes, signature: bytes, width: int = 64) -> str:
    def wrap(data: bytes) -> str:
        text = base64.b64encode(data).decode()
        return "\n".join(text[i:i + width] for i in range(0, len(text), width))

    return (f"Dear opponent,\n\n{iv.BEGIN}\nGame: {GAME}\nSeq: {seq} {side}\n\n{wrap(payload)}\n\n"
            f"{wrap(signature)}\n{iv.END}\nregards\n")


def build_game(root: Path, packets: int = 6, mutate: Mutate | None = None, raw_hook: RawHook | None = None,
               width: int = 64, quote: bool = False) -> Path:
    turns = root / "game-3f9c2a71" / "turns"
    turns.mkdir(parents=True)
    secrets = [hashlib.sha256(b"secret" + bytes([k])).digest() for k in range(packets)]
    raws: list[bytes] = []
    for seq in range(packets):
        side = SIDES[seq % 2]
        p: dict[str, Any] = {"v": 1, "game": GAME, "seq": seq, "side": side,
                             "prev": hashlib.sha256(raws[-1]).hexdigest() if raws else None,
                             "commit": iv.commit_of(secrets[seq]).hex(), "inputs": []}
        if seq == 0:
            p["invite"] = {"ruleset": "red-star", "ruleset_version": "1", "scenario": "13.1",
                           "scenario_sha256": "0" * 64, "options": {}, "keys": {side: _pub(side)},
                           "names": {side: "Alice"}}
        elif seq == 1:
            p["accept"] = {"keys": {side: _pub(side)}, "name": "Bob"}
        else:
            key = iv.dice_key(secrets[seq - 2], bytes.fromhex(GAME), hashlib.sha256(raws[-1]).digest())
            p["reveal"] = secrets[seq - 2].hex()
            p["resolution"] = {"state": "ab" * 32, "dice": [
                {"n": n, "sides": s, "value": iv.roll(key, n, s), "purpose": f"test roll {n}"}
                for n, s in enumerate((6, 6, 10))]}
        if seq:
            p["inputs"] = [{"request": f"r{seq}", "answer": seq}]
        if mutate:
            mutate(seq, p)
        raw = rfc8785.dumps(p)
        if raw_hook:
            raw = raw_hook(seq, raw)
        raws.append(raw)
        text = _armor(seq, side, raw, PRIVATE[side].sign(iv.SIGNATURE_PREFIX + raw), width)
        if quote:
            text = "\r\n".join("> " + line for line in text.split("\n"))
        suffix = ("invite", "accept")[seq] if seq <= 1 else hashlib.sha256(raw).hexdigest()[:8]
        (turns / f"{seq:04d}-{side}-{suffix}.rsr").write_text(text, encoding="utf-8", newline="")
    return turns.parent


def test_clean_game_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game_dir = build_game(tmp_path)
    assert list(iv.verify_game(game_dir)) == [(0, "japan", 0), (1, "russia", 0), (2, "japan", 3),
                                              (3, "russia", 3), (4, "japan", 3), (5, "russia", 3)]
    assert iv.main(["iv", str(game_dir)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "6 packets, 12 dice checked"


def test_quoted_crlf_rewrapped_game_verifies(tmp_path: Path) -> None:
    assert len(list(iv.verify_game(build_game(tmp_path, width=37, quote=True)))) == 6


def _set(seq: int, path: tuple[Any, ...], value: Any) -> Mutate:
    def mutate(at: int, p: dict[str, Any]) -> None:
        if at == seq:
            target = p
            for step in path[:-1]:
                target = target[step]
            target[path[-1]] = value
    return mutate


@pytest.mark.parametrize(("mutate", "raw_hook", "where", "reason"), [
    (_set(3, ("resolution", "dice", 1, "value"), 7), None, 3, "die n=1"),
    (_set(4, ("resolution", "dice", 0, "n"), 1), None, 4, "n must run"),
    (_set(4, ("reveal",), "00" * 32), None, 4, "reveal does not match"),
    (_set(2, ("prev",), "00" * 32), None, 2, "prev is not"),
    (_set(3, ("game",), "00" * 16), None, 3, "game id differs"),
    (_set(5, ("surprise",), 1), None, 5, "unknown fields"),
    (_set(2, ("side",), "russia"), None, 2, "breaks the alternation"),
    (_set(1, ("side",), "japan"), None, 1, "inviting side"),
    (None, lambda seq, raw: raw.replace(b'"v":1', b'"v": 1') if seq == 2 else raw, 2, "not canonical"),
    (None, lambda seq, raw: raw.replace(b'{"', b'{"v":1,"', 1) if seq == 3 else raw, 3, "duplicate key"),
])
def test_tampered_game_names_the_packet(tmp_path: Path, mutate: Mutate | None, raw_hook: RawHook | None,
                                        where: int, reason: str) -> None:
    with pytest.raises(iv.VerifyError) as err:
        list(iv.verify_game(build_game(tmp_path, mutate=mutate, raw_hook=raw_hook)))
    assert (err.value.where, reason in err.value.reason) == (where, True), str(err.value)


def test_packet_signed_by_the_wrong_side_fails(tmp_path: Path) -> None:
    turns = build_game(tmp_path) / "turns"
    forged = _armor(3, "russia", b"{}", PRIVATE["japan"].sign(iv.SIGNATURE_PREFIX + b"{}"))
    next(turns.glob("0003-*.rsr")).write_text(forged, encoding="utf-8")
    with pytest.raises(iv.VerifyError, match="bad signature") as err:
        list(iv.verify_game(turns.parent))
    assert err.value.where == 3


def test_gap_fork_and_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game_dir = build_game(tmp_path)
    two = next((game_dir / "turns").glob("0002-*.rsr"))
    shutil.copy(two, game_dir / "turns" / "0002-japan-ffffffff.rsr")
    assert iv.main(["iv", str(game_dir)]) == 1
    assert "packet 2: two files for one seq" in capsys.readouterr().out
    (game_dir / "turns" / "0002-japan-ffffffff.rsr").unlink()
    two.unlink()
    assert iv.main(["iv", str(game_dir)]) == 1
    assert capsys.readouterr().out.strip() == "packet 2: missing (gap in the log)"
    assert iv.main(["iv"]) == 2
    assert iv.main(["iv", str(tmp_path / "nowhere")]) == 2
