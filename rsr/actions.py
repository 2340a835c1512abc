"""What the commands do, without the printing: each function checks everything before it writes."""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import math
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rsr import journal, lookahead, progress, transcription
from rsr import keys as keystore
from rsr.engine import Position, Request, dry_run, resolve_pass
from rsr.errors import BadInput, RulesError, VerificationError
from rsr.fairdice import NONCE_BYTES, KeyedDice, seal
from rsr.fileio import atomic_write, game_locked, read_limited
from rsr.gamedir import create_game_dir, game_dir_name, incoming, load_log, read_text_file, write_packets
from rsr.log import (
    PassRecord,
    Replay,
    accept_packet,
    build_packet,
    check_last_inputs,
    check_orders,
    extend,
    invite_packet,
    other_side,
    pending_pass,
    position_for_author,
    replay,
)
from rsr.packet import Packet, check_self_signature, extract_blocks, open_packet, read_packets
from rsr.report import pass_markdown
from rsr.rulesets import DEFAULT_RULESET, get_ruleset
from rsr.scenario import load_scenario
from rsr.yamlio import dump_yaml, load_yaml_text

MAX_INPUT_BYTES = 8 * 1024 * 1024
SAFE_INT = 2**53 - 1


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


def _seal_path(game_id: str, request_id: str) -> Path:
    digest = hashlib.sha256(request_id.encode()).hexdigest()[:24]
    return keystore.home() / "seals" / game_id / f"{digest}.json"


def seal_inputs(game_id: str, inputs: list[dict[str, Any]], keep: bool) -> list[dict[str, Any]]:
    """Turn ``{request, answer, seal: true}`` into a sealed input (docs/protocol.md, "Sealed choices").

    The salt and the choice stay on this machine (in the rsr home, never in the game directory) until the
    game asks to unseal; with ``keep`` False (checking orders) nothing is stored.
    """
    out = []
    for item in inputs:
        if not item.get("seal"):
            out.append(item)
            continue
        if set(item) != {"request", "answer", "seal"} or item["seal"] is not True:
            raise BadInput("a sealed order is {request, answer, seal: true}")
        salt = os.urandom(16)
        out.append({"request": item["request"], "sealed": seal(salt, item["answer"])})
        if keep:
            record = {"request": item["request"], "salt": salt.hex(), "choice": item["answer"]}
            atomic_write(_seal_path(game_id, item["request"]), json.dumps(record, sort_keys=True).encode(), mode=0o600)
    return out


def unseal_input(game_id: str, request: Request) -> dict[str, Any] | None:
    """The unsealing of a choice this machine sealed earlier, if the game now asks for it."""
    if request.unseals is None:
        return None
    path = _seal_path(game_id, request.unseals)
    if not path.exists():
        return None
    try:
        record = json.loads(read_limited(path, MAX_INPUT_BYTES, "sealed choice"))
        return {"unseal": record["request"], "salt": record["salt"], "choice": record["choice"]}
    except (ValueError, KeyError, TypeError) as exc:
        raise BadInput(f"{path}: the sealed choice kept on this machine is damaged ({type(exc).__name__})") from exc


def seal_hides_anything(result: Replay, position: Position, side: str, item: dict[str, Any]) -> bool:
    """Whether sealing ``item`` keeps anything from the opponent (docs/protocol.md, "Sealed choices").

    A seal matters only while the opponent still has a choice of his own to make before the sealed one is
    revealed. Run the rules with the answer sealed and no dice: when they come straight to asking this side
    to unseal it, the opponent's part was answered by his standing policies, which are public and fixed
    before this packet, so the seal hides nothing and only costs a packet each way. Anything else (a die
    first, a question to either side) keeps the seal.
    """
    try:
        run = dry_run(result.ruleset, position, side, len(result.packets),
                      seal_inputs(result.game_id, [item], keep=False))
    except BadInput:
        return True
    waiting = run.next_request
    return bool(run.stopped_at_die) or waiting is None or waiting.side != side or waiting.unseals != item["request"]


def unsealed_where_useless(result: Replay, position: Position, side: str,
                           answer: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``answer`` with ``seal: true`` dropped from every choice whose seal hides nothing (see above)."""
    return [{k: v for k, v in item.items() if k != "seal"}
            if item.get("seal") and not seal_hides_anything(result, position, side, item) else item
            for item in answer]


def check_sealed_content(result: Replay, key: keystore.KeyPair, inputs: list[dict[str, Any]]) -> None:
    """A sealed choice must be one that can be unsealed legally: the author knows its content, so each is
    checked in the clear (the other inputs as they will be signed) before anything is sealed. A choice that
    could never be unsealed would leave the game stuck forever at the reveal."""
    for index, item in enumerate(inputs):
        if not item.get("seal"):
            continue
        clear = [({"request": item["request"], "answer": item["answer"]} if i == index else other)
                 for i, other in enumerate(inputs)]
        try:
            check_orders(result, key, seal_inputs(result.game_id, clear, keep=False))
        except BadInput as exc:
            raise BadInput(f"input {index + 1}: the sealed choice for {item['request']} is not legal, so it could "
                           f"never be unsealed: {exc}") from exc


def check_input_shapes(inputs: list[dict[str, Any]], where: str = "orders") -> None:
    """Each input has one of the shapes a packet may carry (the packet schema's ``input``), before the rules
    see it: a policy without its rule, say, is refused here with its place, not met by the rules code."""
    if len(inputs) > 1 and any(isinstance(item, dict) and "resign" in item for item in inputs):
        raise BadInput(f"{where}: a resignation goes alone in its packet (rsr resign GAME signs it)")
    for number, item in enumerate(inputs, start=1):
        if isinstance(item, dict) and item.get("seal") is True and set(item) == {"request", "answer", "seal"}:
            item = {"request": item["request"], "answer": item["answer"]}  # sealed when signed
        if not _input_validator().is_valid(item):
            shown = repr(item) if len(repr(item)) <= 120 else repr(item)[:120] + "..."
            raise BadInput(f"{where}: input {number} {shown} is none of: {{request, answer}}, {{request, answer, "
                           "seal: true}, {unseal, salt, choice}, {policy, rule}, {resign: true}")


@functools.cache
def _input_validator() -> Any:
    """The packet schema's ``input`` definition, on its own."""
    import jsonschema

    from rsr.schemas import SCHEMA_DIR

    schema = json.loads((SCHEMA_DIR / "packet.schema.json").read_text())
    alone = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/input"}
    return jsonschema.validators.validator_for(schema)(alone)


def check_all_orders(result: Replay, key: keystore.KeyPair, inputs: list[dict[str, Any]]) -> Any:
    """Every check ``submit`` makes before signing, without signing: plain data, input shapes, sealed content,
    the dry run."""
    plain_json(inputs, "orders")
    check_input_shapes(inputs)
    check_sealed_content(result, key, inputs)
    return check_orders(result, key, seal_inputs(result.game_id, inputs, keep=False))


@dataclass
class Orders:
    """An orders file: the inputs to sign and an optional message to the opponent (signed with them)."""

    inputs: list[dict[str, Any]]
    message: str | None = None


def read_orders(path: Path | str) -> Orders:
    """An orders file: ``inputs:`` a list of answers and policies, and an optional ``message:``
    (docs/red-sun-rising/orders.md). Every value must be plain JSON data: text, whole numbers, true/false,
    null, lists and mappings with text keys; YAML's floats, dates and binary are refused with their place."""
    if str(path) == "-":
        data = load_yaml_text(read_packet_text(path), "orders from standard input", hexes=True)
    else:
        data = load_yaml_text(read_text_file_limited(Path(path), MAX_INPUT_BYTES, "orders file"), str(path),
                              hexes=True)
    if data is None:
        return Orders([])
    if not isinstance(data, dict) or not isinstance(data.get("inputs", []), list):
        raise BadInput(f"{path}: an orders file is a mapping with a list 'inputs:'")
    extra = sorted(str(k) for k in data if k not in ("inputs", "message"))
    if extra:
        raise BadInput(f"{path}: unknown key {extra[0]!r} (an orders file has 'inputs:' and 'message:')")
    inputs = data.get("inputs") or []
    for number, item in enumerate(inputs, start=1):
        if not isinstance(item, dict):
            raise BadInput(f"{path}: inputs[{number}] is not a mapping")
        plain_json(item, f"{path}: inputs[{number}]")
    check_input_shapes(inputs, str(path))
    message = data.get("message")
    if message is not None:
        if not isinstance(message, str):
            raise BadInput(f"{path}: message: is text")
        if len(message) > 2000 or any(not (ch.isprintable() or ch == "\n") for ch in message):
            raise BadInput(f"{path}: message: at most 2000 printable characters (new lines allowed)")
    return Orders(inputs, message or None)


def load_orders(path: Path | str) -> list[dict[str, Any]]:
    """The inputs of an orders file (see :func:`read_orders`)."""
    return read_orders(path).inputs


def read_text_file_limited(path: Path, limit: int, what: str) -> str:
    try:
        return read_limited(path, limit, what).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{path}: not UTF-8 text") from exc


def plain_json(value: Any, where: str) -> None:
    """Refuse anything in an input that is not exactly JSON with whole numbers (what a packet may carry)."""
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        if abs(value) > SAFE_INT:
            raise BadInput(f"{where}: {value} is too large (whole numbers up to {SAFE_INT})")
        return
    if isinstance(value, list):
        for index, item in enumerate(value):
            plain_json(item, f"{where}[{index}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise BadInput(f"{where}: key {key!r} is not text")
            plain_json(item, f"{where}.{key}")
        return
    kind = {"float": "a fraction (orders take whole numbers)", "datetime": "a date", "date": "a date",
            "bytes": "binary data"}.get(type(value).__name__, f"a {type(value).__name__}")
    raise BadInput(f"{where}: {value!r} is {kind}, not plain text, a whole number, true/false or a list")


@dataclass
class Status:
    result: Replay
    side: str | None
    waiting: Request | None
    next_author: str
    pending: PassRecord | None
    lines: list[str] = field(default_factory=list)  # what happens next, one thing per line (rsr.progress)


AuthorView = tuple[Position, Request | None, PassRecord | None]


def author_view(result: Replay, key_name: str | None) -> tuple[str | None, AuthorView | None]:
    """This player's side (None if no key of the game is here) and, when the next packet is theirs,
    ``position_for_author``."""
    known = stored_side(result, key_name)
    if known is not None and (result.next_author() != known or progress.is_over(result)):
        return known, None  # (not this player's packet to write: the private key is not needed)
    try:
        key = choose_key(result, key_name)
        side = next(s for s, pub in sorted(result.keys.items()) if pub == key.public_raw)
    except (BadInput, StopIteration):
        return None, None
    if result.next_author() != side or progress.is_over(result):
        return side, None
    return side, position_for_author(result, key)


def status(game_dir: Path, key_name: str | None) -> Status:
    result = load_game(game_dir)
    side, view = author_view(result, key_name)
    waiting, pending = (view[1], view[2]) if view else (_waiting(result), None)
    return Status(result, side, waiting, result.next_author(), pending, progress.next_lines(result, side, view))


def _waiting(result: Replay) -> Request | None:
    return result.passes[-1].waiting if result.passes else result.start_waiting


def _comment(text: str) -> str:
    """``text`` as YAML comment lines of at most 80 columns, whatever line breaks it holds."""
    import textwrap

    lines = [part for line in text.splitlines() or [""]
             for part in textwrap.wrap(line, width=78, break_on_hyphens=False) or [""]]
    return "\n".join("# " + line for line in lines)


def template(game_dir: Path, key_name: str | None, written: list[dict[str, Any]] | None = None) -> str:
    """The orders file to fill in, as YAML that loads as it is (every note is a whole comment line).

    It lays out every question the game will ask this player before the next die or the opponent's answer
    (rsr/lookahead.py), each with its case and legal options, and after a die the questions a plan signed
    now may answer. ``written`` (``--from FILE``) are the player's answers so far: they are kept, and the
    questions after them are those the game asks after these answers.
    """
    result = load_game(game_dir)
    progress.refuse_if_over(result)
    key = choose_key(result, key_name)
    side = next(s for s, pub in sorted(result.keys.items()) if pub == key.public_raw)
    if result.next_author() != side:
        raise BadInput(f"it is {result.next_author()}'s packet to write, not {side}'s")
    position, waiting, _ = position_for_author(result, key)
    lines = [f"# orders for game {result.game_id[:8]}, {side}, packet {len(result.packets)}"]
    if waiting is None:
        lines.append("# the game is over")
        return "\n".join(lines) + "\ninputs: []\n"
    if waiting.side != side:
        lines.append(_comment(f"the game waits for {waiting.side} ({waiting.prompt}); your packet carries no orders"))
        return "\n".join(lines) + "\ninputs: []\n"
    found = whole_turn(result, key, written or [])
    return "\n".join(lines + _turn_lines(result, side, found, written or [])) + "\n"


def whole_turn(result: Replay, key: keystore.KeyPair, written: list[dict[str, Any]]) -> lookahead.Walk:
    """Every question this player's next packet may answer (rsr/lookahead.py), after the answers ``written``."""
    side = next(s for s, pub in sorted(result.keys.items()) if pub == key.public_raw)
    position, waiting, _ = position_for_author(result, key)
    return lookahead.walk(result.ruleset, position, waiting, side, len(result.packets), written,
                          prepare=lambda items: seal_inputs(result.game_id, items, keep=False),
                          unsealing=lambda request: unseal_input(result.game_id, request))


def _turn_lines(result: Replay, side: str, found: lookahead.Walk, written: list[dict[str, Any]]) -> list[str]:
    """The body of :func:`template`: the questions of the walk, each with its notes, then where it stops."""
    count = len(found.questions) + len(found.prepared)
    lines = []
    if count > 1:
        lines.append(_comment(f"this packet can answer {count} questions of this turn at once: write your answer "
                              "under each, in order (the answers given are examples); you may stop after any "
                              "question by deleting the ones after it, and the game asks those in a later "
                              "packet"))
    if any(q.source == "nothing" for q in found.questions[1:]):
        lines.append(_comment("options of a later question are those that follow if you answer the questions "
                              "before it with nothing; once you have written your answers, run `rsr orders "
                              "template GAME --from YOUR-FILE` to see them after your answers"))
    prepared_kinds = {q.prepared.policy for q in found.prepared if q.prepared is not None}
    items: list[tuple[list[str], dict[str, Any]]] = []
    for item in written:
        if "policy" in item and item["policy"] not in prepared_kinds:
            items.append((["# a standing policy you wrote"], item))
    if found.prepared:  # (policies come before the answers: an input after the answer that rolls is refused)
        items.append(([_comment(f"questions the game asks after the dice of this packet "
                                f"({found.stopped_at_die}), answered now by a plan (options as the position is "
                                "before the dice):")], {}))
    for number, question in enumerate(found.prepared, 1):
        items.append(_prepared_item(result.ruleset.id, number, question, written))
    if found.prepared:
        items.append((["# the questions of this packet, in the order the game asks them:"], {}))
    for number, question in enumerate(found.questions, len(found.prepared) + 1):
        items.append(_question_item(result, side, number, question))
    reached = {q.request.id for q in found.questions}
    for item in written:
        if isinstance(item.get("request"), str) and item["request"] not in reached:
            items.append(([_comment(f"you answered {item['request']}, but the game does not ask it before the "
                                    "next die, so it is left out here (answer it when the game asks it):")]
                          + ["#   " + line for line in dump_yaml([item]).splitlines()], {}))
    if found.stopped_at_die:
        items.append(([_comment(f"then the game rolls dice ({found.stopped_at_die})")], {}))
    body = ["inputs:" if any(item for _, item in items) else "inputs: []"]
    for notes, item in items:
        body += notes
        if item:
            body += dump_yaml([item]).rstrip("\n").splitlines()
    if found.blocked:
        body.append(_comment(f"the template stops here: {found.blocked}; write it, then run `rsr orders template "
                             "GAME --from YOUR-FILE` to see the questions after it"))
    elif found.next_request is not None and not found.stopped_at_die:
        body.append(_comment(f"then the game asks {found.next_request.side}: {found.next_request.prompt}"))
    elif found.next_request is None and not found.stopped_at_die and found.questions:
        body.append("# then the game ends")
    return lines + body


def _question_item(result: Replay, side: str, number: int,
                   question: lookahead.Question) -> tuple[list[str], dict[str, Any]]:
    request = question.request
    notes = [_comment(f"{number}. {request.prompt} ({request.case}) [{request.id}]")]
    if question.source == "sealed" and question.item is not None:
        notes.append("# your sealed choice, to reveal now (stored on this machine when you sealed it)")
        return notes, question.item
    if question.source == "written" and question.item is not None:
        notes.append("# your answer, as written")
        return notes, question.item
    if number > 1 and lookahead.prepared_for(result.ruleset.id, request.id) is not None:
        notes.append(_comment("if an answer above rolls dice (a fire mission), this question comes after them: "
                              "`rsr orders template GAME --from YOUR-FILE` then writes it as a plan signed now"))
    notes.append("# legal options:")
    notes += ["#   " + line for line in dump_yaml(request.options).splitlines()]
    item: dict[str, Any] = {"request": request.id, "answer": request.template}
    if request.sealable and question.at is not None \
            and seal_hides_anything(result, question.at, side, {**item, "seal": True}):
        notes.append(_comment("this choice may be sealed: keep 'seal: true' to hide it until the opponent has "
                              "answered"))
        item["seal"] = True
    elif request.sealable:
        notes.append(_comment("this choice may be sealed, but a seal would hide nothing: the opponent's part is "
                              "already fixed by his standing policies; answered in the clear it saves a packet "
                              "each way (add 'seal: true' to seal anyway)"))
    return notes, item


def _prepared_item(ruleset_id: str, number: int, question: lookahead.Question,
                   written: list[dict[str, Any]]) -> tuple[list[str], dict[str, Any]]:
    request, prepared = question.request, question.prepared
    assert prepared is not None
    notes = [_comment(f"{number}. {request.prompt} ({request.case}) [{request.id}]"), _comment(prepared.note)]
    mine = next((item for item in written if item.get("policy") == prepared.policy), None)
    if mine is not None:
        return notes + ["# your plan, as written"], mine
    notes.append("# legal options (before the dice):")
    notes += ["#   " + line for line in dump_yaml(request.options).splitlines()]
    item = lookahead.prepared_input(ruleset_id, request.id, request.template)
    return notes, item or {}


def pass_answer(result: Replay, key_name: str | None) -> dict[str, Any] | None:
    """The input that answers the request pending for this player with nothing (no attacks, no moves), if
    the request is theirs, its answer is a list or a mapping, and the rules accept it empty."""
    key = choose_key(result, key_name)
    _, waiting, _ = position_for_author(result, key)
    side = next((s for s, pub in sorted(result.keys.items()) if pub == key.public_raw), None)
    if waiting is None or waiting.side != side or waiting.unseals is not None:
        return None
    if not isinstance(waiting.template, list | dict):
        return None
    item = {"request": waiting.id, "answer": lookahead.emptied(waiting.template)}
    try:
        check_orders(result, key, [item])
    except BadInput:
        return None
    return item


def pending_request(result: Replay, key_name: str | None) -> Request | None:
    """The request this player's next packet must answer, if the next packet is theirs and one is asked."""
    side, view = author_view(result, key_name)
    if view is None or view[1] is None or view[1].side != side:
        return None
    return view[1]


def submit(game_dir: Path, inputs: list[dict[str, Any]], key_name: str | None,
           out: Path | None = None, message: str | None = None) -> Packet:
    """Check, sign, journal and write the next packet; every decision is taken inside the game lock."""
    with game_locked(game_dir):
        result = load_game(game_dir)
        progress.refuse_if_over(result)
        key = choose_key(result, key_name)
        seq = len(result.packets)
        journal.refuse_if_signed(result.game_id, seq)
        check_all_orders(result, key, inputs)  # refuse bad orders first
        packet = build_packet(result, key, seal_inputs(result.game_id, inputs, keep=True), utc_now(), message)
        after = checked_before_signing(result, packet)
        journal.record(packet)
        write_packets(game_dir, [packet], after)
        write_reports(game_dir, key_name, after)
        remember(after)
    if out is not None:
        atomic_write(out, packet.armored().encode())
    return packet


RESIGNATION: dict[str, Any] = {"resign": True}  # docs/protocol.md, "Resigning"


def resign(game_dir: Path, key_name: str | None, out: Path | None = None, message: str | None = None) -> Packet:
    """Sign the resignation ``{resign: true}`` as this side's next packet: the game ends at once with the
    other side's decisive victory, for both copies and for ``rsr verify``."""
    return submit(game_dir, [dict(RESIGNATION)], key_name, out, message)


def receive(game_dir: Path, source: Path | str, key_name: str | None) -> tuple[list[Packet], list[Path]]:
    """Take in packets from a file, stdin or an email; decide and write inside the game lock."""
    text = read_packet_text(source)
    label = "standard input" if str(source) == "-" else str(source)
    with game_locked(game_dir):
        result = load_game(game_dir)
        new, _, after = incoming(game_dir, text, label, lambda extended: own_key(extended, key_name), result)
        if new:
            write_packets(game_dir, new, after)
            remember(after)
            _RECEIVED[game_dir] = after
        return new, write_reports(game_dir, key_name, after)


_RECEIVED: dict[Path, Replay] = {}  # what ``receive`` just wrote, for its summary (same command, no re-read)


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


def receive_summary(game_dir: Path, new_seqs: list[int], key_name: str | None) -> list[str]:
    """What ``rsr receive`` prints after taking packets in (rsr.progress.receive_summary)."""
    if not new_seqs:
        return []
    result = _RECEIVED.pop(game_dir, None) or load_game(game_dir)
    side, view = author_view(result, key_name)
    return progress.receive_summary(result, side, new_seqs, view)


def resolutions(result: Replay, key_name: str | None, seq: int | None = None) -> list[PassRecord]:
    """Every resolution in the log, plus the one this player's next packet will record (if any);
    with ``seq``, only the resolution of that packet."""
    records = list(result.passes)
    try:
        mine = pending_pass(result, choose_key(result, key_name))
        if mine is not None:
            records.append(mine)
    except BadInput:
        pass  # no key of this game here: a third party sees the log's resolutions only
    if seq is not None:
        records = [r for r in records if r.resolved == seq]
        if not records and not result.complete:  # started from a checkpoint: an old packet's pass
            found = old_resolution(result, seq)
            records = [found] if found is not None else []
        if not records:
            raise BadInput(f"packet {seq} has not been resolved yet")
    return records


def old_resolution(result: Replay, seq: int) -> PassRecord | None:
    """The pass that resolved packet ``seq`` when ``result`` started from a checkpoint after it: replayed from
    the milestone checkpoint before it (rsr/cache.py), not from the start of the game."""
    if result.complete or not 1 <= seq < len(result.packets) - 1:
        return next((r for r in result.passes if r.resolved == seq), None)
    from rsr.cache import HomeCheckpoints

    return next((r for r in HomeCheckpoints().replay_to(result.packets, seq).passes if r.resolved == seq), None)


def report_text(result: Replay, record: PassRecord) -> str:
    """The report of one pass; the pass that ends the game also says who won, and by which case."""
    text = pass_markdown(result, record)
    if record.waiting is None:
        verdict = progress.game_result(result, record.after.state)
        said = progress.verdict_text(verdict)
        text = text.rstrip("\n") + "\n\n## Result\n\n" + said[:1].upper() + said[1:] + ".\n"
    return text


def write_reports(game_dir: Path, key_name: str | None, result: Replay | None = None) -> list[Path]:
    """Reports of the passes in the log, and of the pass my next packet will carry (never through a link).

    A report once written does not change, so only missing ones and the newest two are rendered.
    """
    result = result or load_game(game_dir)
    records = resolutions(result, key_name)
    written = []
    for number, record in enumerate(records):
        author = result.packets[record.resolved].side
        path = game_dir / "reports" / f"{record.resolved:04d}-{author}.md"
        if number < len(records) - 2 and path.is_file() and not path.is_symlink():
            written.append(path)
            continue
        text = report_text(result, record)
        if not _holds(path, text.encode()):
            atomic_write(path, text.encode(), root=game_dir)
        written.append(path)
    return written


def _holds(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file (not a link) holding ``data``; a FIFO or a device is never read."""
    if path.is_symlink() or not path.exists():
        return False
    try:
        return read_limited(path, len(data), "report") == data
    except BadInput:
        return False


def turn_check_lines(result: Replay, key: keystore.KeyPair, inputs: list[dict[str, Any]]) -> list[str]:
    """For ``rsr orders check``: every question of this packet's turn (rsr/lookahead.py), and which of them
    the orders answer (an answer, a plan used after the dice) or leave for a later packet."""
    try:
        found = whole_turn(result, key, inputs)
    except BadInput:
        return []
    lines = []
    mine = {item.get("policy") for item in inputs if "policy" in item}
    for question in found.questions:
        where = {"written": "answered by your orders", "sealed": "your sealed choice is revealed",
                 "nothing": "NOT answered: the game asks it in a later packet (rsr orders template GAME "
                            "--from YOUR-FILE lays it out)"}.get(question.source, question.source)
        lines.append(f"  {question.request.id}: {where}")
    for question in found.prepared:
        policy = question.prepared.policy if question.prepared else "?"
        where = (f"after the dice, your plan (policy {policy}) is used" if policy in mine
                 else f"after the dice: no plan given, the game asks it in a later packet (policy {policy})")
        lines.append(f"  {question.request.id}: {where}")
    if lines:
        lines.insert(0, "questions of this packet:")
    return lines
