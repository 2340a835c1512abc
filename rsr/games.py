"""Games: loading and verifying a game directory, choosing the player's key, the scenarios and rule options,
starting a game (new) and accepting an invitation; every check is made before anything is written."""

from __future__ import annotations

import datetime
import hashlib
import math
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rsr import journal, transcription
from rsr import keys as keystore
from rsr.engine import dry_run, resolve_pass
from rsr.errors import BadInput, RulesError, VerificationError
from rsr.fairdice import NONCE_BYTES, KeyedDice
from rsr.fileio import game_locked, read_limited
from rsr.gamedir import create_game_dir, game_dir_name, load_log, read_text_file, write_packets
from rsr.log import (
    Replay,
    accept_packet,
    check_last_inputs,
    extend,
    invite_packet,
    other_side,
    replay,
)
from rsr.packet import Packet, check_self_signature, extract_blocks, open_packet, read_packets
from rsr.rulesets import DEFAULT_RULESET, get_ruleset
from rsr.scenario import load_scenario
from rsr.yamlio import load_yaml_text

MAX_INPUT_BYTES = 8 * 1024 * 1024


def load_game(game_dir: Path, cache: bool = True, keep_positions: bool = True) -> Replay:
    """The game's log, checked and replayed. With ``cache`` the rules are replayed only after the newest
    checkpoint in the rsr home, and only packet files not checked before are checked in full (rsr/cache.py);
    ``rsr verify`` passes False and replays everything (without
    ``keep_positions``, keeping only the last position, so its memory stays flat in the log's length)."""
    if not cache:
        from rsr.packet import forget_checks

        forget_checks()  # from scratch: not even what this process took as checked before
        if not keep_positions:  # (verify: the packets' payloads parsed when read, not all kept)
            from rsr.gamedir import read_log

            return replay(read_log(game_dir, lazy=True).packets, keep_positions=False)
        return replay(load_log(game_dir), keep_positions=keep_positions)
    from rsr.cache import HomeCheckpoints

    return HomeCheckpoints().load(game_dir)


def remember(result: Replay) -> None:
    from rsr.cache import HomeCheckpoints

    HomeCheckpoints().remember(result)


def verify_game(game_dir: Path) -> Replay:
    """``rsr verify``: the whole log replayed from the invitation (no checkpoint is trusted, only the last
    position kept), and the last packet's inputs up to the first die (read-only)."""
    result = load_game(game_dir, cache=False, keep_positions=False)
    check_last_inputs(result)
    return result


def choose_key(result: Replay, name: str | None) -> keystore.KeyPair:
    """The named key, or the one stored key of this game (the side to write, when both are here)."""
    return keystore.load_key(chosen_key_name(result, name))


def chosen_key_name(result: Replay, name: str | None) -> str:
    """The name of the key ``choose_key`` loads."""
    if name:
        return name
    found = keystore.find_keys_for(result.keys)
    if not found:
        raise BadInput("none of your stored keys belongs to this game (use --key NAME)")
    side = result.next_author()
    return found.get(side) or found[sorted(found)[0]]


def stored_side(result: Replay, key_name: str | None) -> str | None:
    """The side of the key ``choose_key`` would load, read from its public half (``NAME.pub``): no private key
    is read and no cryptography imported. None if that cannot tell."""
    try:
        public = keystore.stored_public(chosen_key_name(result, key_name))
    except BadInput:
        return None
    return next((s for s, pub in sorted(result.keys.items()) if pub == public), None)


OPTION_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")


def parse_rule_options(items: Iterable[str]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs of ``rsr new --option``: VALUE is one YAML scalar, read with its exact type
    (``3`` an integer, ``1.5`` a number, ``true`` a boolean, ``'3'`` or ``text`` a string). Whether the
    ruleset knows the option is for the ruleset to say when the game starts."""
    options: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or not OPTION_NAME.match(name):
            raise BadInput(f"--option {item!r}: write NAME=VALUE, NAME in lower case letters, digits, - and _")
        if name in options:
            raise BadInput(f"--option {name} is given twice")
        value = load_yaml_text(text, f"--option {name}")
        if value is None or isinstance(value, dict | list):
            raise BadInput(f"--option {name}: the value must be one number, true/false or text, not {text!r}")
        if isinstance(value, float) and not math.isfinite(value):
            raise BadInput(f"--option {name}: {text!r} is not a finite number")
        if not isinstance(value, str | int | float | bool):  # YAML dates and timestamps
            raise BadInput(f"--option {name}: quote {text!r} to pass it as text")
        options[name] = value
    return options


def scenarios_by_ruleset() -> dict[str, list[str]]:
    """Every ruleset rsr knows with the names of its scenarios (rsr/catalogue.py)."""
    from rsr.catalogue import by_ruleset

    return by_ruleset()


def ruleset_of_scenario(name: str, default: str = DEFAULT_RULESET) -> str:
    """The ruleset a scenario name picks: the only one that has it, else ``default``."""
    having = [ruleset_id for ruleset_id, names in scenarios_by_ruleset().items() if name in names]
    return having[0] if len(having) == 1 else default


def scenario_first_needs(ruleset_id: str, scenario_name: str, options: dict[str, Any]) -> list[str]:
    """What must happen before the scenario gives what its title promises (a naval battle needs a sortie),
    worked out from its set-up and the rules; empty when nothing is left to chance."""
    return get_ruleset(ruleset_id).first_needs(load_scenario(ruleset_id, scenario_name), options)


def scenario_catalogue() -> list[tuple[str, str, str]]:
    """(ruleset, scenario, title) of every scenario, rulesets and scenarios in name order (rsr/catalogue.py)."""
    from rsr.catalogue import catalogue

    return catalogue()


def utc_now() -> str:
    """The time a packet is signed, to the second, in UTC (shown in status and reports; rules never read it)."""
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_game(parent: Path, ruleset_id: str, scenario_name: str, side: str, key_name: str, player: str,
             opponent_key: str | None = None, options: dict[str, Any] | None = None,
             deadline_hours: int | None = None, data_files: list[Path] | None = None) -> tuple[Path, Packet]:
    ruleset = get_ruleset(ruleset_id)
    scenario = load_scenario(ruleset.id, scenario_name)
    data = transcription_data(ruleset.id, data_files or [], scenario.name)
    if data:  # play on the player's transcription of the printed sheets
        scenario = transcription.scenario_with(scenario, transcription.from_invite(ruleset.id, data))
    options = dict(options or {})
    try:  # refuse data or options the ruleset cannot play before anything is written
        ruleset.initial_state(scenario, options)
    except RulesError as exc:
        raise BadInput(str(exc)) from exc
    key = keystore.load_key(key_name)
    opponent = keystore.decode_public(opponent_key) if opponent_key else None
    packet = invite_packet(ruleset, scenario, key, side, player, os.urandom(16), opponent, options,
                           nonce=os.urandom(NONCE_BYTES), deadline_hours=deadline_hours, time=utc_now(), data=data)
    checked_before_signing(None, packet)
    game_dir = create_game_dir(parent, packet)
    with game_locked(game_dir):
        journal.record(packet)
        write_packets(game_dir, [packet])
    return game_dir, packet


def transcription_data(ruleset_id: str, files: list[Path], scenario_name: str | None = None) -> list[dict[str, Any]]:
    """What ``rsr new --data FILE...`` puts in the invitation: each file checked as ``rsr data check`` does."""
    found = []
    for path in files:
        read, _ = transcription.check(path)
        if read.ruleset != ruleset_id:
            raise BadInput(f"{path}: a transcription for {read.ruleset}, not {ruleset_id}")
        if read.scenario is not None and read.scenario != scenario_name:  # a Turn Record is one scenario's
            raise BadInput(f"{path}: the Turn Record of scenario {read.scenario}, not of {scenario_name}")
        if read.entries:
            found.append(read)
    return transcription.invite_data(found)


def transcription_lines(invite: Packet) -> list[str]:
    """What an invitation's transcription changes, for the acceptor (empty for a game on rsr's own data)."""
    data = invite.payload["invite"].get("data")
    if not data:
        return []
    ruleset_id = invite.payload["invite"]["ruleset"]
    scenario = load_scenario(ruleset_id, invite.payload["invite"]["scenario"])
    return transcription.describe(scenario, transcription.from_invite(ruleset_id, data))


def read_packet_text(source: Path | str) -> str:
    """The text of a packet file, stdin, or an email message (MIME parts decoded)."""
    if str(source) == "-":
        import sys

        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        if len(data) > MAX_INPUT_BYTES:
            raise BadInput(f"standard input: more than {MAX_INPUT_BYTES} bytes; too large for a packet or an email")
        text = data.decode("utf-8", errors="replace")
    else:
        text = read_text_file(Path(source))
    return email_text(text)


def email_text(text: str) -> str:
    """If ``text`` is an email whose body is encoded (quoted-printable, base64, multipart), decode every
    text part; otherwise return it as it is. Mail clients re-encode bodies, and '=' in base64 padding
    becomes '=3D' in quoted-printable."""
    head = text[:4096]
    if "BEGIN RSR PACKET" in text and "Content-Transfer-Encoding" not in head and "multipart/" not in head:
        return text
    import email  # (after the plain packet file's return: start-up)
    import email.policy

    message = email.message_from_string(text, policy=email.policy.default)
    parts = []
    for part in message.walk():
        if part.get_content_maintype() == "text":
            try:
                parts.append(part.get_content())
            except (LookupError, UnicodeError):
                payload = part.get_payload(decode=True)
                parts.append(payload.decode("utf-8", errors="replace") if isinstance(payload, bytes) else "")
    return "\n".join(parts) if parts else text


def accept_game(invite_file: Path | str, parent: Path, key_name: str, player: str,
                inputs: list[dict[str, Any]] | None = None, message: str | None = None) -> tuple[Path, Packet]:
    text = read_packet_text(invite_file)
    packets = read_packets(text, None)
    invite = packets[0]
    if invite.seq != 0 or "invite" not in invite.payload:
        raise BadInput(f"{invite_file} holds packet {invite.seq}, not an invitation")
    first = replay([invite])  # the invite itself must check out (ruleset, scenario hash) before we answer it
    key = keystore.load_key(key_name)
    earlier = journal.accepted_before(invite.game)
    if earlier is not None:
        raise BadInput(f"you already accepted an invitation to game {invite.game[:8]} (your journal keeps the "
                       f"acceptance: {earlier}); an invitation is accepted once, and a re-sent or copied one "
                       "could be used to predict your dice")
    target = parent / game_dir_name(invite.game)
    reuse = holds_only(target, invite)  # a clone of the shared repository may already hold the invitation
    if target.exists() and not reuse:
        raise BadInput(f"{target} already exists")
    if inputs:
        side = other_side(first.ruleset, invite.side)
        try:
            dry_run(first.ruleset, first.position, side, 1, inputs)
        except BadInput as exc:
            raise BadInput(f"orders: {exc}") from exc
    packet = accept_packet(invite, key, player, inputs, nonce=os.urandom(NONCE_BYTES), time=utc_now(),
                           message=message)
    checked_before_signing(first, packet)
    game_dir = target if reuse else create_game_dir(parent, invite)
    with game_locked(game_dir):
        journal.record(packet)
        write_packets(game_dir, [invite, packet])
    return game_dir, packet


def checked_before_signing(before: Replay | None, packet: Packet) -> Replay:
    """Everything a packet must pass before it is kept or sent: read back from its own armor exactly as the
    opponent will read it, replayed with the log, and its inputs resolved with trial dice.

    The trial dice are fixed streams, not the game's (nobody knows those yet); they exercise whatever part of
    an input is applied after a die, which the dry run (it stops at the first die) cannot reach. An answer
    that would break the log for some roll is refused now rather than discovered by the opponent. Returns
    the replay with the packet.
    """
    block = extract_blocks(packet.armored())[0]
    try:
        reread = open_packet(block, None if before is None or packet.seq <= 1 else before.keys)
        if packet.seq <= 1:
            check_self_signature(reread)
        if reread.payload_bytes != packet.payload_bytes:
            raise BadInput("the packet does not read back as signed")
        replayed = extend(before, [reread]) if before is not None else replay([reread])
        for trial in range(TRIAL_STREAMS):
            resolve_pass(replayed.ruleset, replayed.position,
                         KeyedDice(hashlib.sha256(b"rsr-trial-dice" + bytes([trial])).digest()))
    except (BadInput, VerificationError, RulesError) as exc:
        raise BadInput(f"these orders would break the game log when resolved ({exc}); nothing was kept or "
                       "sent") from exc
    return replayed


TRIAL_STREAMS = 3


def holds_only(game_dir: Path, invite: Packet) -> bool:
    """True when ``game_dir`` is a game directory whose log is exactly this invitation."""
    if not (game_dir / "turns").is_dir():
        return False
    log = load_log(game_dir)
    return len(log) == 1 and log[0].payload_bytes == invite.payload_bytes


def read_text_file_limited(path: Path, limit: int, what: str) -> str:
    try:
        return read_limited(path, limit, what).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{path}: not UTF-8 text") from exc


def own_key(result: Replay, key_name: str | None) -> keystore.KeyPair | None:
    """The key that resolves the log's last packet: the named one, or the stored key of the side that writes
    next (with both keys on one machine, not the key of the packet's own author)."""
    # Issue 20, section 4: a key that is named, or stored for this game, and cannot be unlocked (no
    # RSR_PASSPHRASE in cron, a mistyped passphrase) stops receive with one line; it never downgrades to a
    # third party's checks. Only a copy that holds no key of this game checks as a third party.
    if key_name is None and not keystore.find_keys_for(result.keys):
        return None  # a third party's copy: it checks the chain and what comes before the first die
    try:
        return choose_key(result, key_name)
    except BadInput as exc:
        raise BadInput(f"{exc}; your own checks need your key, so nothing was received") from exc
