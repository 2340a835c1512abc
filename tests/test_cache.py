"""Checkpoints of replayed positions (rsr/cache.py): a command at the end of a game starts from the newest
checkpoint it can trust, and reaches exactly the state a replay from scratch reaches.

A checkpoint is trusted only if its position hashes to the state the packet's signed resolution recorded;
a damaged, stale or planted one is ignored. ``rsr verify`` never uses one.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from rsr.cache import HomeCheckpoints
from rsr.demo import run_demo
from rsr.gamedir import load_log
from rsr.log import replay


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cache") / "demo"
    run_demo(out, echo=lambda _: None, scenario="liaoyang-turn-1904")  # a whole land turn
    return next(out.glob("audit/game-*"))


@pytest.fixture(scope="module")
def july_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole Red Sun/Red Star July game between the bots (about 60 packets, artillery fired)."""
    out = tmp_path_factory.mktemp("cache-july") / "demo"
    run_demo(out, echo=lambda _: None, scenario="july-1939", ruleset_id="red-star")
    return next(out.glob("audit/game-*"))


def test_cached_and_full_replay_agree_at_every_packet_of_a_whole_july_game(july_game: Path, tmp_path: Path) -> None:
    """Issue 11: with checkpoints (each command starting from the one the command before left) and without,
    every packet of a long bot game reaches the same state digest, the one its signed resolution records."""
    packets = load_log(july_game)
    full = replay(packets)  # from scratch, every position kept
    assert len(packets) >= 40
    store = HomeCheckpoints(tmp_path / "cache")
    for end in range(3, len(packets) + 1):
        cached = replay(packets[:end], store)
        expected = full.passes[end - 3]
        assert cached.passes[-1].state_hash == expected.state_hash
        assert expected.after is not None
        assert cached.position.digest(cached.ruleset) == expected.after.digest(full.ruleset)
        assert end == 3 or not cached.complete  # started from the checkpoint the replay before left
        store.save(cached)


def test_cached_and_full_replay_agree_at_every_packet(long_game: Path, tmp_path: Path) -> None:
    packets = load_log(long_game)
    full = replay(packets)
    assert len(full.passes) >= 6
    store = HomeCheckpoints(tmp_path / "cache")
    started_from = []
    for end in range(3, len(packets) + 1):
        cached = replay(packets[:end], store)
        started_from.append(None if cached.complete else cached.passes[0].resolver)
        expected = full.passes[end - 3]
        assert cached.passes[-1].state_hash == expected.state_hash
        assert cached.position.digest(cached.ruleset) == replay(packets[:end]).position.digest(full.ruleset)
        store.save(cached)
    # every replay after the first started from the checkpoint the one before it left
    assert started_from[0] is None and started_from[1:] == list(range(2, len(packets) - 1))


def test_a_damaged_or_stale_checkpoint_is_ignored(long_game: Path, tmp_path: Path) -> None:
    packets = load_log(long_game)
    store = HomeCheckpoints(tmp_path / "cache")
    store.save(replay(packets))
    path = store.path(packets[-1], replay(packets[:1]).ruleset)
    assert path.exists()
    assert not replay(packets, store).complete  # the good checkpoint is used

    path.write_bytes(b"not a pickle")
    assert replay(packets, store).complete  # damaged: replayed from scratch

    record = replay(packets).passes[-1]
    record.position.state = replay(packets[:3]).passes[-1].position.state  # another position, same name
    path.write_bytes(pickle.dumps(record))
    result = replay(packets, store)
    assert result.complete
    assert result.passes[-1].state_hash == packets[-1].payload["resolution"]["state"]


def test_verify_does_not_use_checkpoints(long_game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from rsr import cache
    from rsr.cli import main

    calls: list[int] = []
    monkeypatch.setattr(cache.HomeCheckpoints, "newest", lambda self, p, r: calls.append(1))
    out = CliRunner().invoke(main, ["verify", str(long_game)])
    assert out.exit_code == 0 and calls == []


# -- the record of packet files checked before (rsr/cache.py, rsr/gamedir.py read_log) ----------------------


def _fresh_process(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Forget what this test process checked or read (as a new command would), and count Ed25519 checks."""
    from rsr import cache, packet

    monkeypatch.setattr(cache, "_KNOWN", {})
    monkeypatch.setattr(cache, "_REPLAYS", {})
    packet.forget_checks()
    checked: list[bytes] = []
    real = packet.verify_signature

    def counting(public_raw: bytes, signature: bytes, message: bytes) -> bool:
        checked.append(message)
        return real(public_raw, signature, message)

    monkeypatch.setattr(packet, "verify_signature", counting)
    return checked


def _copy_game(long_game: Path, tmp_path: Path) -> Path:
    import shutil

    game_dir = tmp_path / long_game.name
    shutil.copytree(long_game, game_dir)
    return game_dir


def test_files_checked_before_are_not_checked_again(long_game: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    game_dir = _copy_game(long_game, tmp_path)
    store = HomeCheckpoints(tmp_path / "cache")
    first = store.load(game_dir)
    count = len(first.packets)
    assert list((tmp_path / "cache" / first.game_id).glob("files-v2-*.bin"))
    checked = _fresh_process(monkeypatch)
    again = store.load(game_dir)
    assert len(checked) == 0  # (the invite and the acceptance too: their files' bytes are recorded, issue 24)
    assert [p.payload_bytes for p in again.packets] == [p.payload_bytes for p in first.packets]
    assert [p.payload for p in again.packets] == [p.payload for p in first.packets]
    assert again.position.digest(again.ruleset) == replay(load_log(game_dir)).position.digest(again.ruleset)
    checked.clear()
    from rsr.packet import forget_checks

    forget_checks()
    load_log(game_dir)  # what rsr verify reads: everything, from scratch
    assert len(checked) == count



def test_an_invite_file_that_changed_is_checked_again(long_game: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Packets 0 and 1 carry their own keys: the record vouches for their signatures only for the very bytes
    it recorded (issue 24). Other bytes, even the same packet with a line added, are verified again, and a
    record naming another game (the armor's Game line is only where to look) vouches for nothing."""
    game_dir = _copy_game(long_game, tmp_path)
    store = HomeCheckpoints(tmp_path / "cache")
    first = store.load(game_dir)
    invite = next((game_dir / "turns").glob("0000-*.rsr"))
    invite.write_bytes(invite.read_bytes() + b"\n")
    checked = _fresh_process(monkeypatch)
    again = store.load(game_dir)
    assert len(checked) == 1  # the invite, whose bytes changed; the acceptance's did not
    assert again.packets[0].payload_bytes == first.packets[0].payload_bytes
    checked = _fresh_process(monkeypatch)
    load_log(game_dir)  # no record at all: every packet verified
    assert len(checked) == len(first.packets)


def test_files_unchanged_since_they_were_hashed_are_not_read(long_game: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24: a command reads only new or changed packet files; one whose size, times and inode are those
    recorded when its bytes were hashed is taken as those bytes. A file rewritten, even with the same bytes,
    is read again (its change time moved); the replay comes out the same."""
    from rsr import gamedir

    game_dir = _copy_game(long_game, tmp_path)
    store = HomeCheckpoints(tmp_path / "cache")
    first = store.load(game_dir)
    _fresh_process(monkeypatch)
    store.load(game_dir)
    assert not any(e.stat for e in store.known_files(first.game_id).values())  # (files just written: racy)
    monkeypatch.setattr(gamedir, "RACY_NS", -10**12)  # (as if every file were older)
    _fresh_process(monkeypatch)
    store.load(game_dir)  # (the first command after the record gained the files' stats)
    read: list[str] = []
    real = gamedir.read_limited

    def counting(path: object, limit: int, what: str = "file") -> bytes:
        read.append(Path(str(path)).name)
        return real(path, limit, what)

    monkeypatch.setattr(gamedir, "read_limited", counting)
    _fresh_process(monkeypatch)
    again = store.load(game_dir)
    assert sorted(read) == sorted(p.file_name() for p in first.packets[:2])  # the invite and acceptance only
    assert again.position.digest(again.ruleset) == first.position.digest(first.ruleset)
    changed = sorted((game_dir / "turns").glob("*.rsr"))[4]
    changed.write_bytes(changed.read_bytes())  # the same bytes, written again
    read.clear()
    _fresh_process(monkeypatch)
    again = store.load(game_dir)
    assert changed.name in read and len(read) == 3
    assert again.position.digest(again.ruleset) == first.position.digest(first.ruleset)


def test_packets_read_from_the_record_are_parsed_only_when_read(long_game: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A file checked before gives a packet whose seq, side, game and prev come from the record and whose
    payload is parsed from its bytes when first read: the same packet as a full check gives."""
    from rsr.packet import KnownPacket

    game_dir = _copy_game(long_game, tmp_path)
    store = HomeCheckpoints(tmp_path / "cache")
    first = store.load(game_dir)
    _fresh_process(monkeypatch)
    again = store.load(game_dir)
    known = [p for p in again.packets if isinstance(p, KnownPacket)]
    assert len(known) == len(again.packets) - 2
    assert sum("payload" in vars(p) for p in known) <= 2  # (replay resumed at the newest checkpoint)
    full = load_log(game_dir)
    for mine, theirs in zip(again.packets, full, strict=True):
        assert (mine.seq, mine.side, mine.game, mine.hash_hex, mine.file_name()) == \
            (theirs.seq, theirs.side, theirs.game, theirs.hash_hex, theirs.file_name())
        if mine.seq:
            assert mine.prev == theirs.prev == theirs.payload["prev"]
        assert mine.payload == theirs.payload and mine.payload_bytes == theirs.payload_bytes
    assert [p.payload for p in first.packets] == [p.payload for p in full]


def test_a_record_in_the_older_format_is_ignored_and_replaced(long_game: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A chunk of format 1 (parsed payloads, no header) is not read: every file is checked in full, and the
    chunk written in its place is of the current format."""
    game_dir = _copy_game(long_game, tmp_path)
    store = HomeCheckpoints(tmp_path / "cache")
    first = store.load(game_dir)
    folder = tmp_path / "cache" / first.game_id
    (record,) = folder.glob("files-v2-*.bin")
    old = record.with_name(record.name.replace("-v2-", "-v1-"))
    old.write_bytes(b"rsr-checked-files-v1\n" + record.read_bytes().partition(b"\n")[2])
    record.unlink()
    checked = _fresh_process(monkeypatch)
    again = store.load(game_dir)
    assert len(checked) == len(first.packets)
    assert not old.exists() and list(folder.glob("files-v2-*.bin"))
    assert again.position.digest(again.ruleset) == first.position.digest(first.ruleset)

def _flip_payload_byte(path: Path) -> None:
    """Change one base64 character of the payload: the file still reads as a packet, with other bytes."""
    lines = path.read_text().split("\n")
    row = next(i for i, line in enumerate(lines) if i > 0 and lines[i - 1] == "" and line)  # payload's first line
    line = lines[row]
    lines[row] = line[:10] + ("A" if line[10] != "A" else "B") + line[11:]
    path.write_text("\n".join(lines))


@pytest.mark.parametrize("new_process", [False, True])
def test_a_changed_old_packet_file_is_checked_and_refused(long_game: Path, tmp_path: Path, new_process: bool,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from rsr.errors import VerificationError

    game_dir = _copy_game(long_game, tmp_path)
    store = HomeCheckpoints(tmp_path / "cache")
    store.load(game_dir)
    old = sorted((game_dir / "turns").glob("*.rsr"))[3]
    size = old.stat().st_size
    _flip_payload_byte(old)
    assert old.stat().st_size == size
    if new_process:
        _fresh_process(monkeypatch)
    with pytest.raises(VerificationError, match="signature"):
        store.load(game_dir)


def test_a_changed_old_packet_file_stops_the_command(long_game: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rsr.cli import main

    game_dir = _copy_game(long_game, tmp_path)
    assert CliRunner().invoke(main, ["status", str(game_dir)]).exit_code == 0  # leaves checkpoint and record
    old = sorted((game_dir / "turns").glob("*.rsr"))[4]
    _flip_payload_byte(old)
    out = CliRunner().invoke(main, ["status", str(game_dir)])
    assert out.exit_code == 1, out.output  # a verification failure, named with its file
    assert old.name in out.output and "signature" in out.output


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "wrong chunk"])
def test_a_damaged_record_of_checked_files_is_ignored(long_game: Path, tmp_path: Path, damage: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    game_dir = _copy_game(long_game, tmp_path)
    store = HomeCheckpoints(tmp_path / "cache")
    first = store.load(game_dir)
    (record,) = (tmp_path / "cache" / first.game_id).glob("files-v2-*.bin")
    data = record.read_bytes()
    if damage == "flip":
        record.write_bytes(data[:-40] + bytes([data[-40] ^ 1]) + data[-39:])
    elif damage == "truncate":
        record.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        record.write_bytes(b"rsr-checked-files-v2\n" + b"0" * 64 + b"\nnot marshal")
    else:  # a consistent chunk under another chunk's name: its entries do not belong there
        record.rename(record.with_name("files-v2-00001.bin"))
    checked = _fresh_process(monkeypatch)
    again = store.load(game_dir)
    assert len(checked) == len(first.packets)  # every file checked in full
    assert again.position.digest(again.ruleset) == first.position.digest(first.ruleset)


def test_a_record_entry_for_other_bytes_is_not_used(long_game: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Stale: the files changed since the record was written (here, packet 5's file rewritten with other
    armor line breaks): that file is checked in full, the others are not."""
    game_dir = _copy_game(long_game, tmp_path)
    store = HomeCheckpoints(tmp_path / "cache")
    store.load(game_dir)
    path = sorted((game_dir / "turns").glob("*.rsr"))[5]
    path.write_text(path.read_text().replace("\n", "\r\n"))  # what an email client might do: same packet
    checked = _fresh_process(monkeypatch)
    store.load(game_dir)
    assert len(checked) == 1  # the rewritten file (the invite and acceptance are recorded too: issue 24)


def test_the_compiled_packet_schema_is_kept_and_a_damaged_copy_ignored(long_game: Path, tmp_path: Path) -> None:
    """fastjsonschema's validator, compiled once into the rsr home (rsr/schemas.py), judges as a fresh one."""
    import fastjsonschema

    from rsr import schemas
    from rsr.scenario import cache_dir

    schema = schemas._end_anchored(__import__("json").loads((schemas.SCHEMA_DIR / "packet.schema.json").read_text()))
    made = schemas._compiled_code(schema, fastjsonschema)
    (kept,) = (cache_dir().parent / "schemas").glob("*.marshal")
    again = schemas._compiled_code(schema, fastjsonschema)
    assert made is not None and again is not None and again[0] == made[0]
    data = kept.read_bytes()
    kept.write_bytes(data[:-5] + bytes([data[-5] ^ 1]) + data[-4:])
    assert schemas._compiled_code(schema, fastjsonschema) is not None  # ignored and made again
    digest, _, body = kept.read_bytes().partition(b"\n")  # written anew, whole
    assert __import__("hashlib").sha256(body).hexdigest().encode() == digest
    for compiled in (made, again):
        namespace: dict = {}
        exec(compiled[1], namespace)  # noqa: S102
        check = namespace[compiled[0]]
        payload = load_log(long_game)[3].payload
        check(payload)
        with pytest.raises(fastjsonschema.JsonSchemaException):
            check({**payload, "seq": "three"})
