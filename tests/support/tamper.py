"""A hostile opponent's toolkit for the soak tests: base games of both rulesets played by the bots, and
mutators that turn a copy of a game's turns/ into a tampered one (issue 8, "Acceptance").

A game's turns/ is held as ``{file name: bytes}``; a mutant is another such mapping plus what kind of
change it is. Re-signed mutants are made the way a real opponent could make them: with the key of the
side that wrote the packet, on that side's own packet, with the log cut just after it (he cannot sign the
other side's later packets). Every re-signed mutant changes something a check must catch: a die, the
state, the reveal, the chain, the seq, the side, the game, or inputs that break the rules.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rsr import keys as keystore
from rsr.gamedir import append_packets, create_game_dir, load_log
from rsr.log import Replay, accept_packet, build_packet, invite_packet, replay, secret_for
from rsr.packet import Packet, sign_payload
from rsr.rulesets import get_ruleset
from rsr.scenario import load_scenario
from tests.support.games import bot_packet

Files = dict[str, bytes]
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def bot_inputs(result: Replay, key: keystore.KeyPair, store: dict[str, dict[str, Any]],
               boldness: str = "1-1") -> list[dict[str, Any]]:
    """Everything the author's bot answers before the next die (the ruleset's ``bot`` hook, with ``boldness``),
    sealing what it marks to seal with a fresh salt kept in ``store`` until the game asks."""
    return bot_packet(result, key, store,
                      scripted=lambda state, request: result.ruleset.bot(state, request, boldness))


def play_game(parent: Path, ruleset_id: str, scenario: str, keys: dict[str, keystore.KeyPair], game_id: bytes,
              limit: int, version: int | None = None) -> Path:
    """Play ``scenario`` hot-seat through signed packets for at most ``limit`` packets (or to its end); with
    ``version``, under that contract version (else the one new games get)."""
    ruleset = get_ruleset(ruleset_id)
    first, second = ruleset.sides
    nonce = hashlib.sha256(b"soak-nonce" + game_id).digest()
    extra = {} if version is None else {"version": version}
    invite = invite_packet(ruleset, load_scenario(ruleset_id, scenario), keys[first], first, first.title(),
                           game_id, None, {}, nonce=nonce, time="2026-12-01T10:00:00Z", **extra)
    game_dir = create_game_dir(parent, invite)
    append_packets(game_dir, [invite])
    append_packets(game_dir, [accept_packet(invite, keys[second], second.title(), [],
                                            nonce=hashlib.sha256(nonce).digest(), time="2026-12-01T11:00:00Z")])
    store: dict[str, dict[str, Any]] = {}
    for _ in range(limit - 2):
        result = replay(load_log(game_dir))
        if result.passes and result.passes[-1].waiting is None:
            break
        key = keys[result.next_author()]
        append_packets(game_dir, [build_packet(result, key, bot_inputs(result, key, store))])
    return game_dir


@dataclass
class BaseGame:
    """A played game: its turn files in seq order, its packets, and both players' keys."""

    label: str
    ruleset: str
    game_dir: Path
    keys: dict[str, keystore.KeyPair]
    files: list[tuple[str, bytes]] = field(default_factory=list)
    packets: list[Packet] = field(default_factory=list)
    result: Replay | None = None
    home: Path | None = None  # the rsr home holding both players' keys

    @classmethod
    def load(cls, label: str, ruleset: str, game_dir: Path, keys: dict[str, keystore.KeyPair]) -> BaseGame:
        files = [(p.name, p.read_bytes()) for p in sorted((game_dir / "turns").glob("*.rsr"))]
        packets = load_log(game_dir)
        return cls(label, ruleset, game_dir, keys, files, packets, replay(packets))

    def prefix(self, length: int) -> Files:
        return dict(self.files[:length])

    def payloads(self, length: int) -> list[bytes]:
        return [p.payload_bytes for p in self.packets[:length]]


RULESETS = {"red-sun-rising": ("liaoyang-turn-1904", ("russia", "japan")),
            "red-star": ("july-1939-contact", ("japan", "soviet"))}


def make_games(root: Path, home: Path, full: int, other: int) -> dict[str, tuple[BaseGame, BaseGame]]:
    """Two games per ruleset between the same two players: a main one (up to ``full`` packets) and a second
    one (up to ``other``) whose packets are replayed into the first."""
    old = os.environ.get("RSR_HOME")
    os.environ["RSR_HOME"] = str(home)
    try:
        games = {}
        for ruleset, (scenario, sides) in RULESETS.items():
            keys = {side: keystore.new_key(f"{ruleset}-{side}") for side in sides}
            pair = []
            for label, game_id, limit in (("main", bytes(range(16)), full), ("other", bytes([7]) * 16, other)):
                folder = root / ruleset / label
                folder.mkdir(parents=True)
                game_dir = play_game(folder, ruleset, scenario, keys, game_id, limit)
                pair.append(BaseGame.load(f"{ruleset}/{label}", ruleset, game_dir, keys))
                pair[-1].home = home
            games[ruleset] = (pair[0], pair[1])
        return games
    finally:
        if old is None:
            del os.environ["RSR_HOME"]
        else:
            os.environ["RSR_HOME"] = old


_SHARED: dict[tuple[int, int], dict[str, tuple[BaseGame, BaseGame]]] = {}


def shared_games(factory: Any, full: int, other: int) -> dict[str, tuple[BaseGame, BaseGame]]:
    """``make_games`` once per test session for each size (pytest's tmp_path_factory keeps the folders)."""
    if (full, other) not in _SHARED:
        _SHARED[(full, other)] = make_games(factory.mktemp("games"), factory.mktemp("players-home"), full, other)
    return _SHARED[(full, other)]


@dataclass
class Mutant:
    kind: str
    detail: str
    files: Files
    original: list[bytes]  # the payloads of the untouched directory this mutant was made from
    forged: Packet | None = None  # a re-signed packet that is the log's last one (for the receive check)
    special: dict[str, str] = field(default_factory=dict)  # name -> "dir", "fifo", "dev-zero", "sparse", "link"


def write_turns(folder: Path, files: Files, special: dict[str, str] | None = None) -> Path:
    turns = folder / "turns"
    turns.mkdir(parents=True)
    for name, data in files.items():
        (turns / name).write_bytes(data)
    for name, kind in (special or {}).items():
        path = turns / name
        if kind == "dir":
            path.mkdir()
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "dev-zero":
            path.symlink_to("/dev/zero")
        elif kind == "sparse":
            with open(path, "wb") as handle:
                handle.truncate(9 * 1024 * 1024)
        elif kind.startswith("link:"):
            path.symlink_to(turns / kind[5:])
    return folder


# -- byte-level mutators ------------------------------------------------------------------------------------


def _body_lines(text: str) -> list[int]:
    lines = text.split("\n")
    return [i for i, line in enumerate(lines) if line and not line.startswith(("-----", "Game:", "Seq:"))]


def byte_flip(rng: random.Random, game: BaseGame, length: int) -> Mutant:
    files = game.prefix(length)
    name = rng.choice(sorted(files))
    data = bytearray(files[name])
    flips = rng.choice([1, 1, 1, 2, 3])
    for _ in range(flips):
        i = rng.randrange(len(data))
        data[i] ^= rng.randrange(1, 256)
    files[name] = bytes(data)
    return Mutant("byte-flip", f"{name} x{flips}", files, game.payloads(length))


def b64_substitution(rng: random.Random, game: BaseGame, length: int) -> Mutant:
    files = game.prefix(length)
    name = rng.choice(sorted(files))
    text = files[name].decode()
    lines = text.split("\n")
    index = rng.choice(_body_lines(text))
    line = lines[index]
    pos = rng.randrange(len(line))
    if line[pos] == "=":
        pos = 0
    lines[index] = line[:pos] + rng.choice([c for c in B64 if c != line[pos]]) + line[pos + 1:]
    files[name] = "\n".join(lines).encode()
    return Mutant("base64-substitution", f"{name} line {index} col {pos}", files, game.payloads(length))


def truncation(rng: random.Random, game: BaseGame, length: int) -> Mutant:
    files = game.prefix(length)
    name = rng.choice(sorted(files))
    data = files[name]
    how = rng.choice(["bytes", "lines", "one-line"])
    if how == "bytes":
        files[name] = data[:rng.randrange(len(data))]
    elif how == "lines":
        lines = data.split(b"\n")
        files[name] = b"\n".join(lines[:rng.randrange(len(lines) - 1)])
    else:
        lines = data.split(b"\n")
        body = _body_lines(data.decode())
        del lines[rng.choice(body)]
        files[name] = b"\n".join(lines)
    return Mutant("truncation", f"{name} ({how})", files, game.payloads(length))


def reorder(rng: random.Random, game: BaseGame, length: int) -> Mutant:
    files = game.prefix(length)
    names = sorted(files)
    how = rng.choice(["swap-contents", "swap-lines", "swap-sections", "rename"])
    if how == "swap-contents":
        a, b = rng.sample(names, 2)
        files[a], files[b] = files[b], files[a]
        detail = f"{a} <-> {b}"
    elif how == "swap-lines":
        name = rng.choice(names)
        lines = files[name].decode().split("\n")
        body = _body_lines(files[name].decode())
        i, j = rng.sample(body, 2)
        lines[i], lines[j] = lines[j], lines[i]
        files[name] = "\n".join(lines).encode()
        detail = f"{name} lines {i} <-> {j}"
    elif how == "swap-sections":
        name = rng.choice(names)
        text = files[name].decode()
        head, rest = text.split("\n\n", 1)
        payload, tail = rest.split("\n\n", 1)
        signature, end = tail.split("\n-----END", 1)
        files[name] = f"{head}\n\n{signature}\n\n{payload}\n-----END{end}".encode()
        detail = f"{name} payload <-> signature"
    else:
        a, b = rng.sample(names, 2)
        files[b.split("-")[0] + "-" + "-".join(a.split("-")[1:])] = files.pop(a)
        detail = f"{a} renamed to seq of {b}"
    return Mutant("reorder", how + ": " + detail, files, game.payloads(length))


def drop(rng: random.Random, game: BaseGame, length: int) -> Mutant:
    files = game.prefix(length)
    names = sorted(files)
    count = rng.choice([1, 1, 2])
    gone = rng.sample(names[:-1], min(count, len(names) - 1))  # dropping only the tail leaves a valid prefix
    for name in gone:
        del files[name]
    return Mutant("drop", ", ".join(gone), files, game.payloads(length))


def duplicate_seq(rng: random.Random, game: BaseGame, length: int, other: BaseGame) -> Mutant:
    files = game.prefix(length)
    names = sorted(files)
    how = rng.choice(["copy-under-other-seq", "same-bytes-other-name", "other-game-same-seq"])
    if how == "copy-under-other-seq":
        a, b = rng.sample(names, 2)
        fake = b.split("-")[0] + "-" + "-".join(a.split("-")[1:])
        files[fake if fake not in files else fake.replace(".rsr", "-x.rsr")] = files[a]
        detail = f"{a} copied to seq of {b}"
    elif how == "same-bytes-other-name":
        a = rng.choice(names)
        seq, side = a.split("-")[:2]
        files[f"{seq}-{side}-{rng.randrange(16**8):08x}.rsr"] = files[a]
        detail = f"{a} copied under another name"
    else:
        seq = rng.randrange(min(length, len(other.files)))
        name, data = other.files[seq]
        files[name if name not in files else name.replace(".rsr", "-b.rsr")] = data
        detail = f"{other.label} {name} added"
    return Mutant("duplicate-seq", how + ": " + detail, files, game.payloads(length))


def cross_game(rng: random.Random, game: BaseGame, length: int, other: BaseGame) -> Mutant:
    """Packets of another game between the same two players (same keys, so every signature verifies)."""
    files = game.prefix(length)
    how = rng.choice(["replace-one", "splice-tail", "swap-head"])
    top = min(length, len(other.files))
    if how == "replace-one":
        seq = rng.randrange(top)
        del files[sorted(files)[seq]]
        name, data = other.files[seq]
        files[name] = data
        detail = f"seq {seq} from {other.label}"
    elif how == "splice-tail":
        start = rng.randrange(1, top)
        for name in sorted(files)[start:]:
            del files[name]
        for name, data in other.files[start:length]:
            files[name] = data
        detail = f"seqs {start}.. from {other.label}"
    else:
        cut = rng.randrange(1, top)
        for name in sorted(files)[:cut]:
            del files[name]
        for name, data in other.files[:cut]:
            files[name] = data
        detail = f"seqs ..{cut - 1} from {other.label}"
    return Mutant("cross-game", how + ": " + detail, files, game.payloads(length))


# -- re-signed mutators (the author's own key; the log ends with the forged packet) ---------------------------


def _forge(game: BaseGame, seq: int, change: Callable[[dict[str, Any]], None], kind: str, detail: str,
           keep_original: bool = False) -> Mutant:
    packet = game.packets[seq]
    payload = _copy(packet.payload)
    change(payload)
    forged = sign_payload(payload, game.keys[packet.side])
    files = game.prefix(seq + (1 if keep_original else 0))
    name = forged.file_name()
    if name in files:
        name = name.replace(".rsr", "-f.rsr")
    files[name] = forged.armored().encode()
    return Mutant(kind, detail, files, game.payloads(seq + 1), forged)


def _copy(value: Any) -> Any:
    import copy

    return copy.deepcopy(value)


def _later(game: BaseGame, rng: random.Random, low: int = 2) -> int:
    return rng.randrange(low, len(game.packets))


def wrong_reveal(rng: random.Random, game: BaseGame, other: BaseGame) -> Mutant:
    seq = _later(game, rng)
    packet = game.packets[seq]
    assert game.result is not None and other.result is not None
    key = game.keys[packet.side]
    choices = {
        "random": os.urandom(32).hex(),
        "own-future-secret": secret_for(game.result, key, seq).hex(),
        "same-seq-other-game": secret_for(other.result, key, seq - 2).hex(),
        "other-reveal": rng.choice([p.payload["reveal"] for p in game.packets[2:] if p.seq != seq]),
    }
    how = rng.choice(sorted(choices))
    value = choices[how]
    if value == packet.payload["reveal"]:
        value = os.urandom(32).hex()

    def change(payload: dict[str, Any]) -> None:
        payload["reveal"] = value

    return _forge(game, seq, change, "wrong-reveal", f"packet {seq}: {how}")


def resigned_edit(rng: random.Random, game: BaseGame, other: BaseGame) -> Mutant:
    seq = _later(game, rng)
    packet = game.packets[seq]
    dice = packet.payload["resolution"]["dice"]
    options = ["state", "prev", "game", "seq", "side", "equivocating-state"]
    if dice:
        options += ["die-value", "die-value", "die-dropped", "die-sides", "die-purpose", "die-n"]
    options += ["die-added"]
    how = rng.choice(options)
    index = rng.randrange(len(dice)) if dice else 0

    def change(payload: dict[str, Any]) -> None:
        res = payload["resolution"]
        if how in ("state", "equivocating-state"):
            states = [p.payload["resolution"]["state"] for p in game.packets[2:] + other.packets[2:]]
            candidates = [s for s in states if s != res["state"]] + [os.urandom(32).hex()]
            res["state"] = rng.choice(candidates)
        elif how == "prev":
            payload["prev"] = rng.choice([p.hash_hex for p in game.packets if p.seq != seq - 1]
                                         + [hashlib.sha256(os.urandom(8)).hexdigest()])
        elif how == "game":
            payload["game"] = other.packets[0].game
        elif how == "seq":
            payload["seq"] = rng.choice([s for s in range(2, len(game.packets) + 2) if s != seq])
        elif how == "side":
            payload["side"] = next(s for s in game.keys if s != payload["side"])
        elif how == "die-value":
            die = res["dice"][index]
            die["value"] = rng.choice([v for v in range(1, die["sides"] + 1) if v != die["value"]])
        elif how == "die-dropped":
            del res["dice"][index]
        elif how == "die-sides":
            res["dice"][index]["sides"] = rng.choice([s for s in (2, 4, 6, 8, 10, 12, 20) if
                                                      s != res["dice"][index]["sides"]])
        elif how == "die-purpose":
            res["dice"][index]["purpose"] = res["dice"][index]["purpose"] + " (forged)"
        elif how == "die-n":
            res["dice"][index]["n"] = res["dice"][index]["n"] + rng.choice([1, 2, 100])
        elif how == "die-added":
            template = res["dice"][-1] if res["dice"] else {"n": 0, "sides": 6, "value": 6, "purpose": "extra"}
            extra = dict(template)
            extra["n"] = len(res["dice"])
            extra["value"] = rng.randrange(1, extra["sides"] + 1)
            res["dice"].append(extra)

    return _forge(game, seq, change, "re-signed-edit", f"packet {seq}: {how}",
                  keep_original=how == "equivocating-state")


JUNK: list[Any] = [[], [["A1", "B2"]], {"x": 1}, 10**15, -1, "zz99", None, True, [[1]], {"": []}, "", 0,
                   ["no-such-unit"], {"from": [1, 2], "to": {"a": 1}}]


def resigned_bad_inputs(rng: random.Random, game: BaseGame) -> Mutant:
    """The author re-signs his own packet with inputs that break the rules (the last packet of the log)."""
    candidates = [p.seq for p in game.packets[2:] if any("request" in i for i in p.inputs)]
    seq = rng.choice(candidates) if candidates and rng.random() < 0.8 else _later(game, rng)
    packet = game.packets[seq]
    how = rng.choice(["junk-answer", "junk-answer", "unknown-request", "extra-input", "sealed-garbage"])

    def change(payload: dict[str, Any]) -> None:
        inputs = payload["inputs"]
        answering = [i for i, item in enumerate(inputs) if "request" in item and "answer" in item]
        if how == "junk-answer" and answering:
            inputs[rng.choice(answering)]["answer"] = _copy(rng.choice(JUNK))
        elif how == "unknown-request" and answering:
            inputs[rng.choice(answering)]["request"] = "no/such/request"
        elif how == "sealed-garbage" and answering:
            target = inputs[rng.choice(answering)]
            target.pop("answer")
            target["sealed"] = "00" * 32
        else:
            inputs.insert(0, {"request": "no/such/request", "answer": _copy(rng.choice(JUNK))})

    return _forge(game, seq, change, "re-signed-bad-inputs", f"packet {seq} ({packet.side}): {how}")


def hostile_file(rng: random.Random, game: BaseGame, length: int) -> Mutant:
    """What a shared repository can hold in turns/: odd names, folders, FIFOs, devices, huge files, links."""
    files = game.prefix(length)
    names = sorted(files)
    target = rng.choice(names)
    seq, side = target.split("-")[:2]
    how = rng.choice(["unicode-digits", "control-chars", "long-seq", "dir", "fifo", "dev-zero", "sparse", "empty",
                      "link-to-other", "no-side"])
    special: dict[str, str] = {}
    if how == "unicode-digits":
        files["\u2460\u2461-" + side + "-x.rsr"] = files[target]
    elif how == "control-chars":
        files[f"{seq}-{side}\n\x1b[2K-x.rsr"] = files.pop(target)
    elif how == "long-seq":
        files[f"0000000{seq}-{side}-x.rsr"] = files.pop(target)
    elif how in ("dir", "fifo", "dev-zero", "sparse"):
        del files[target]
        special[target] = how
    elif how == "empty":
        files[target] = b""
    elif how == "link-to-other":
        other = rng.choice([n for n in names if n != target])
        del files[target]
        special[target] = "link:" + other
    else:
        files[f"{seq}.rsr"] = files.pop(target)
    return Mutant("hostile-file", f"{target}: {how}", files, game.payloads(length), special=special)


def email_damage(rng: random.Random, game: BaseGame, length: int) -> Mutant:
    """What mail does to text without changing a packet: quoting, CRLF, text around, re-wrapping."""
    files = game.prefix(length)
    name = rng.choice(sorted(files))
    text = files[name].decode()
    how = rng.choice(["quote", "crlf", "surround", "rewrap"])
    if how == "quote":
        text = "\n".join("> " + line for line in text.split("\n"))
    elif how == "crlf":
        text = text.replace("\n", "\r\n")
    elif how == "surround":
        text = "Hi, my move:\n\n" + text + "\n-- \nsent from my phone\n"
    else:
        lines = text.split("\n")
        out = []
        for line in lines:
            if line and not line.startswith(("-----", "Game:", "Seq:")) and len(line) > 20:
                out += [line[:20], line[20:]]
            else:
                out.append(line)
        text = "\n".join(out)
    files[name] = text.encode()
    return Mutant("email-damage (content unchanged)", f"{name}: {how}", files, game.payloads(length))


def claim_setup() -> tuple[Replay, str, keystore.KeyPair]:
    """A duel game with a one-hour deadline whose defender owes packet 3, and the attacker's signed claim."""
    import datetime

    from rsr.claims import make_claim
    from tests.support.duel import duel_scenario

    attacker, defender = keystore.new_key("att"), keystore.new_key("def")
    invite = invite_packet(get_ruleset("duel"), duel_scenario(), attacker, "attacker", "A", bytes(range(16)), None,
                           {}, nonce=bytes([1]) * 32, deadline_hours=1, time="2026-01-01T00:00:00Z")
    accept = accept_packet(invite, defender, "D", nonce=bytes([2]) * 32, time="2026-01-01T00:10:00Z")
    log = replay([invite, accept])
    third = build_packet(log, attacker, [{"request": "r1/attack", "answer": 1}], time="2026-01-01T00:20:00Z")
    result = replay([invite, accept, third])
    claim = make_claim(result, attacker, datetime.datetime(2026, 1, 2, tzinfo=datetime.UTC))
    return result, claim, attacker
