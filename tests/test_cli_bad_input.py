"""Bad input gets one clear line, exit status 2, and leaves the game directory byte-identical."""

from __future__ import annotations

import base64
import hashlib
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr.cli import main
from tests.support.games import duel_game

INPUTS = {2: [{"request": "r1/attack", "answer": 1}]}


pytestmark = pytest.mark.usefixtures("duel_registered")


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def armor_of(payload: bytes, signature: bytes = bytes(64)) -> str:
    return ("-----BEGIN RSR PACKET-----\nGame: " + "00" * 16 + "\nSeq: 4 attacker\n\n"
            + base64.b64encode(payload).decode() + "\n\n" + base64.b64encode(signature).decode()
            + "\n-----END RSR PACKET-----\n")


HOSTILE = {
    "not-base64": "-----BEGIN RSR PACKET-----\n\n%%%not base64%%%\n\nAAAA\n-----END RSR PACKET-----\n",
    "truncated": "-----BEGIN RSR PACKET-----\nGame: 00\nSeq: 4 attacker\n\neyJ2Ijox\n",
    "empty": "",
    "no-block": "Dear Bob, my orders are attached.\n",
    "deep-nesting": armor_of(b"[" * 200000 + b"]" * 200000),
    "yaml-bomb": "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n",
    "bad-signature": armor_of(b'{"v":1}'),
    "binary": "\x00\x01\x02" * 1000,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_receive_hostile_file(name: str, tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 4)
    before = snapshot(game_dir)
    bad = tmp_path / f"{name}.rsr"
    bad.write_text(HOSTILE[name])
    out = CliRunner().invoke(main, ["receive", str(game_dir), str(bad), "--key", "att"])
    assert out.exit_code == 2, out.output
    assert out.output.startswith("rsr: ") and out.output.count("\n") == 1, out.output
    assert "Traceback" not in out.output
    assert snapshot(game_dir) == before


def test_receive_huge_file(tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 4)
    before = snapshot(game_dir)
    huge = tmp_path / "huge.rsr"
    huge.write_bytes(b"A" * (9 * 1024 * 1024))
    out = CliRunner().invoke(main, ["receive", str(game_dir), str(huge)])
    assert out.exit_code == 2 and "too large" in out.output
    assert snapshot(game_dir) == before


def test_bad_orders_file_changes_nothing(tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 4)
    before = snapshot(game_dir)
    cases = {
        "bomb.yaml": "inputs: &a [*a]\n",
        "notalist.yaml": "inputs: 3\n",
        "illegal.yaml": "inputs:\n  - request: r1/attack\n    answer: 9\n",
        "syntax.yaml": "inputs: [\n",
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        out = CliRunner().invoke(main, ["submit", str(game_dir), str(path)])
        assert out.exit_code == 2, (name, out.output)
        assert out.output.startswith("rsr: ") and "Traceback" not in out.output
    assert snapshot(game_dir) == before


def test_receive_of_a_quoted_rewrapped_email_works(tmp_path: Path) -> None:
    game_dir, keys = duel_game(tmp_path, INPUTS, 4)
    bob_copy = tmp_path / "bob"
    shutil.copytree(game_dir, bob_copy)
    newest = sorted((game_dir / "turns").glob("*.rsr"))[-1]
    newest.unlink()
    lines = (bob_copy / "turns" / newest.name).read_text().splitlines()
    split = lines.index("", 4)
    payload = "".join(lines[4:split])
    signature = "".join(x for x in lines[split + 1:-1])
    quoted = ["On Monday Bob wrote:", *("> " + x for x in lines[:4])]
    quoted += ["> " + payload[i:i + 50] for i in range(0, len(payload), 50)] + [">"]
    quoted += ["> " + signature[i:i + 33] for i in range(0, len(signature), 33)] + ["> " + lines[-1], "", "Cheers"]
    mail = tmp_path / "mail.eml"
    mail.write_text("\r\n".join(quoted))
    out = CliRunner().invoke(main, ["receive", str(game_dir), str(mail), "--key", "att"])
    assert out.exit_code == 0, out.output
    assert "received packet 3" in out.output
