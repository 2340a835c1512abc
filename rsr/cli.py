"""The command line (DESIGN.md 5). Exit status: 0 success, 1 verification or rules failure, 2 bad input.

Every command that takes a game directory takes it first. Errors are one line on stderr; bad input
never shows a traceback and never changes the game directory.
"""

from __future__ import annotations

import datetime
import os
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markdown import Markdown

from rsr import actions
from rsr import keys as keystore
from rsr.errors import BadInput, RsrError
from rsr.fairdice import dice_key, roll_value

console = Console(highlight=False)
GameDir = click.Path(file_okay=False, path_type=Path)


def fail(exc: RsrError) -> None:
    # one line, whatever the message quotes (a key or a file name from hostile input may hold a new line)
    text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in " ".join(str(exc).splitlines()))
    click.echo(f"rsr: {text}", err=True)
    sys.exit(exc.exit_code)


class RsrGroup(click.Group):
    """Turns every rsr error into one line and its exit status."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RsrError as exc:
            fail(exc)
        except RecursionError:
            fail(BadInput("input nested too deeply"))
        except (OSError, UnicodeError) as exc:
            fail(BadInput(f"{exc}"))


@click.group(cls=RsrGroup)
@click.version_option(package_name="rsr")
def main() -> None:
    """rsr: adjudicate Red Sun Rising and Red Sun/Red Star by email or git, with dice nobody can cheat."""


# -- keys ----------------------------------------------------------------------------------------------


@main.group(cls=RsrGroup)
def key() -> None:
    """Make and show Ed25519 key pairs (kept outside game directories)."""


@key.command("new")
@click.argument("name")
@click.option("--passphrase", is_flag=True, help="Protect the key with a passphrase (asked for).")
def key_new(name: str, passphrase: bool) -> None:
    """Make a key pair NAME."""
    secret = click.prompt("passphrase", hide_input=True, confirmation_prompt=True) if passphrase else None
    pair = keystore.new_key(name, secret)
    click.echo(f"key {name}: {pair.fingerprint}")
    click.echo(f"stored in {keystore.key_dir()} (private key mode 0600)")


@key.command("show")
@click.argument("name", required=False)
def key_show(name: str | None) -> None:
    """Show the fingerprint of key NAME, or of every stored key."""
    names = [name] if name else keystore.key_names()
    if not names:
        raise BadInput(f"no keys in {keystore.key_dir()} (make one with 'rsr key new NAME')")
    for item in names:
        raw = keystore.stored_public(item)
        click.echo(f"{item}: {keystore.fingerprint(raw)}  public {keystore.public_b64(raw)}")


# -- starting a game -------------------------------------------------------------------------------------


@main.command("new")
@click.argument("parent", type=click.Path(file_okay=False, path_type=Path), default=".")
@click.option("--ruleset", default="red-sun-rising", show_default=True)
@click.option("--scenario", required=True)
@click.option("--side", required=True, help="Your side, e.g. russia or japan.")
@click.option("--key", "key_name", required=True, help="Your stored key.")
@click.option("--name", "player", default="", help="Your name as the opponent will see it.")
@click.option("--opponent-key", default=None, help="The opponent's public key (base64), to pin it now.")
@click.option("--deadline-hours", type=click.IntRange(1, 8760), default=None,
              help="Hours each player has to answer a packet; after that the other may sign an overdue claim.")
def new(parent: Path, ruleset: str, scenario: str, side: str, key_name: str, player: str,
        opponent_key: str | None, deadline_hours: int | None) -> None:
    """Start a game under PARENT: writes the invitation to send to your opponent."""
    game_dir, packet = actions.new_game(parent, ruleset, scenario, side, key_name, player or key_name, opponent_key,
                                        deadline_hours=deadline_hours)
    click.echo(f"game {packet.game} created in {game_dir}")
    click.echo(f"send {game_dir / 'turns' / packet.file_name()} to your opponent")


@main.command("accept")
@click.argument("invite", type=click.Path(path_type=Path, allow_dash=True))
@click.option("--key", "key_name", required=True)
@click.option("--dir", "parent", type=click.Path(file_okay=False, path_type=Path), default=".")
@click.option("--name", "player", default="")
@click.option("--orders", type=click.Path(path_type=Path), default=None)
def accept(invite: Path, key_name: str, parent: Path, player: str, orders: Path | None) -> None:
    """Accept the invitation in INVITE (a file, an email, or - for stdin)."""
    given = actions.read_orders(orders) if orders else actions.Orders([])
    game_dir, packet = actions.accept_game(invite, parent, key_name, player or key_name, given.inputs or None,
                                           given.message)
    click.echo(f"accepted game {packet.game} in {game_dir}")
    click.echo(f"send {game_dir / 'turns' / packet.file_name()} to your opponent")


# -- playing ---------------------------------------------------------------------------------------------


@main.command("status")
@click.argument("game_dir", type=GameDir)
@click.option("--key", "key_name", default=None)
def status(game_dir: Path, key_name: str | None) -> None:
    """What is asked of whom, and the position."""
    st = actions.status(game_dir, key_name)
    result = st.result
    click.echo(f"game {result.game_id} ({result.ruleset.id}, scenario {result.scenario.name}), "
               f"{len(result.packets)} packets")
    for side, name in sorted(result.names.items()):
        click.echo(f"  {side}: {name} {keystore.fingerprint(result.keys[side]) if side in result.keys else ''}")
    position = st.pending.position if st.pending else result.position
    for line in result.ruleset.describe(position.state):
        click.echo(line)
    click.echo(f"next packet: {st.next_author}'s" + (" (yours)" if st.side == st.next_author else ""))
    from rsr.claims import owed

    click.echo(owed(result).describe(datetime.datetime.now(datetime.UTC)))
    if st.waiting is None:
        click.echo("the game is over")
    else:
        click.echo(f"the game asks {st.waiting.side}: {st.waiting.prompt} [{st.waiting.id}]")


@main.group(cls=RsrGroup)
def orders() -> None:
    """Write and check orders files."""


@orders.command("template")
@click.argument("game_dir", type=GameDir)
@click.option("--key", "key_name", default=None)
def orders_template(game_dir: Path, key_name: str | None) -> None:
    """Print a YAML template answering the current request, with its legal options."""
    click.echo(actions.template(game_dir, key_name), nl=False)


@orders.command("check")
@click.argument("game_dir", type=GameDir)
@click.argument("orders_file", type=click.Path(path_type=Path, allow_dash=True))
@click.option("--key", "key_name", default=None)
def orders_check(game_dir: Path, orders_file: Path, key_name: str | None) -> None:
    """Check an orders file against the rules without signing anything."""
    result = actions.load_game(game_dir)
    inputs = actions.load_orders(orders_file)
    run = actions.check_all_orders(result, actions.choose_key(result, key_name), inputs)
    click.echo(f"{len(inputs)} input(s) accepted")
    if run.stopped_at_die:
        click.echo(f"the rest depends on dice: {run.stopped_at_die}")
    elif run.next_request is not None:
        click.echo(f"then the game asks {run.next_request.side}: {run.next_request.prompt}")


@main.command("submit")
@click.argument("game_dir", type=GameDir)
@click.argument("orders_file", type=click.Path(path_type=Path, allow_dash=True), required=False)
@click.option("--key", "key_name", default=None)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the packet to this file (to attach or paste into an email).")
def submit(game_dir: Path, orders_file: Path | None, key_name: str | None, out: Path | None) -> None:
    """Sign your orders (or none) into the next packet."""
    given = actions.read_orders(orders_file) if orders_file else actions.Orders([])
    packet = actions.submit(game_dir, given.inputs, key_name, out, given.message)
    click.echo(f"wrote packet {packet.seq} ({packet.side}): {game_dir / 'turns' / packet.file_name()}")


@main.command("receive")
@click.argument("game_dir", type=GameDir)
@click.argument("packet_file", type=click.Path(path_type=Path, allow_dash=True))
@click.option("--key", "key_name", default=None)
def receive(game_dir: Path, packet_file: Path, key_name: str | None) -> None:
    """Take in the opponent's packet (a file, an email, or - for stdin), check it, write the reports."""
    new, reports = actions.receive(game_dir, packet_file, key_name)
    if not new:
        click.echo("nothing new: the log already holds that packet")
    for packet in new:
        click.echo(f"received packet {packet.seq} ({packet.side})")
    if reports:
        click.echo(f"latest report: {reports[-1]}")


@main.command("play")
@click.argument("game_dir", type=GameDir)
@click.option("--key", "key_name", default=None)
def play(game_dir: Path, key_name: str | None) -> None:
    """Answer the current request at the terminal, then sign the packet."""
    from rsr.yamlio import load_yaml_text

    text = actions.template(game_dir, key_name)
    console.print(text)
    if "inputs: []" in text:
        if click.confirm("sign an empty packet now?", default=True):
            packet = actions.submit(game_dir, [], key_name)
            console.print(f"wrote packet {packet.seq}")
        return
    edited = click.edit(text, extension=".yaml") if sys.stdin.isatty() else None
    if edited is None:
        console.print("paste your orders (YAML), end with an empty line:")
        edited = "\n".join(iter(lambda: sys.stdin.readline().rstrip("\n"), ""))
    data = load_yaml_text(edited, "orders")
    inputs = (data or {}).get("inputs", []) if isinstance(data, dict) else []
    result = actions.load_game(game_dir)
    actions.plain_json(inputs, "orders")
    actions.check_all_orders(result, actions.choose_key(result, key_name), inputs)
    if click.confirm("orders check out; sign and write the packet?", default=True):
        packet = actions.submit(game_dir, inputs, key_name)
        console.print(f"wrote packet {packet.seq}: {game_dir / 'turns' / packet.file_name()}")


@main.command("verify")
@click.argument("game_dir", type=GameDir)
@click.option("--dice", is_flag=True, help="Print every roll with its key and purpose.")
def verify(game_dir: Path, dice: bool) -> None:
    """Replay and check the whole log: signatures, chain, reveals, every die, every rule."""
    from rsr.report import dice_audit

    result = actions.verify_game(game_dir)
    rolls = sum(len(r.rolls) for r in result.passes)
    if dice:
        for line in dice_audit(result):
            click.echo(line)
    click.echo(f"verified: {len(result.packets)} packets, {len(result.passes)} resolutions, {rolls} dice")


@main.command("report")
@click.argument("game_dir", type=GameDir)
@click.argument("seq", type=int, required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "md"]), default="text", show_default=True)
@click.option("--key", "key_name", default=None)
def report(game_dir: Path, seq: int | None, fmt: str, key_name: str | None) -> None:
    """Show the report of packet SEQ's resolution (default: the latest)."""
    from rsr.report import pass_markdown

    result = actions.load_game(game_dir)
    records = actions.resolutions(result, key_name, seq)
    if not records:
        raise BadInput("no resolution to report yet")
    text = pass_markdown(result, records[-1])
    if fmt == "md":
        click.echo(text)
    else:
        console.print(Markdown(text))


@main.command("map")
@click.argument("game_dir", type=GameDir)
@click.argument("seq", type=int, required=False)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The picture to write: .svg, or .png (needs rsvg-convert from librsvg2-bin).")
@click.option("--key", "key_name", default=None)
def map_command(game_dir: Path, seq: int | None, out: Path, key_name: str | None) -> None:
    """Draw the position after packet SEQ's resolution (default: the latest), with its moves and attacks."""
    import shutil
    import subprocess
    import tempfile

    from rsr.mapview import render

    result = actions.load_game(game_dir)
    records = actions.resolutions(result, key_name, seq)
    state = records[-1].position.state if records else result.position.state
    events = records[-1].events if records else []
    label = f"packet {records[-1].resolved} resolved" if records else "start"
    svg = render(state, events, f"Game {result.game_id[:8]} ({result.scenario.name}), {label}")
    if out.suffix.lower() == ".png":
        converter = shutil.which("rsvg-convert")
        if converter is None:
            raise BadInput("PNG needs rsvg-convert (Debian package librsvg2-bin); write .svg instead")
        with tempfile.NamedTemporaryFile("w", suffix=".svg", delete=False) as handle:
            handle.write(svg)
        subprocess.run([converter, "-o", str(out), handle.name], check=True)
        Path(handle.name).unlink()
    else:
        out.write_text(svg)
    click.echo(f"wrote {out}")


@main.group(cls=RsrGroup)
def claim() -> None:
    """Signed claims that the opponent let the game's deadline pass."""


@claim.command("make")
@click.argument("game_dir", type=GameDir)
@click.option("--key", "key_name", default=None)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the claim here (default: GAME_DIR/claims/).")
def claim_make(game_dir: Path, key_name: str | None, out: Path | None) -> None:
    """Sign a claim that the packet you wait for is overdue (needs a game with a deadline)."""
    from rsr.claims import make_claim
    from rsr.fileio import atomic_write

    result = actions.load_game(game_dir)
    key = actions.choose_key(result, key_name)
    text = make_claim(result, key, datetime.datetime.now(datetime.UTC))
    path = out or game_dir / "claims" / f"{len(result.packets):04d}-overdue.txt"
    atomic_write(path, text.encode(), root=None if out else game_dir)
    click.echo(f"wrote {path}: send it to your opponent and whoever settles your games")


@claim.command("check")
@click.argument("game_dir", type=GameDir)
@click.argument("claim_file", type=click.Path(dir_okay=False, path_type=Path))
def claim_check(game_dir: Path, claim_file: Path) -> None:
    """Check a claim against the game's log."""
    from rsr.claims import check_claim

    result = actions.load_game(game_dir)
    for line in check_claim(result, actions.read_text_file_limited(claim_file, 65536, "claim")):
        click.echo(line)


# -- auditing and testing --------------------------------------------------------------------------------


@main.group(cls=RsrGroup)
def dice() -> None:
    """Audit dice by hand."""


def _hex(value: str, size: int, what: str) -> bytes:
    try:
        raw = bytes.fromhex(value)
    except ValueError as exc:
        raise BadInput(f"--{what} is not hex") from exc
    if len(raw) != size:
        raise BadInput(f"--{what} must be {size} bytes ({2 * size} hex digits)")
    return raw


@dice.command("roll")
@click.option("--reveal", required=True, help="The secret revealed by the resolving packet (hex).")
@click.option("--game", "game_id", required=True, help="The game id (32 hex digits).")
@click.option("--packet-hash", required=True, help="SHA-256 of the resolved packet's payload (hex).")
@click.option("--sides", type=click.IntRange(2, 256), default=6, show_default=True)
@click.option("--count", type=click.IntRange(1, 100000), default=1, show_default=True)
@click.option("--start", type=click.IntRange(0), default=0, help="First roll number.")
def dice_roll(reveal: str, game_id: str, packet_hash: str, sides: int, count: int, start: int) -> None:
    """Print rolls start..start+count-1 of a packet's dice (DESIGN.md 3.2)."""
    key_bytes = dice_key(_hex(reveal, 32, "reveal"), _hex(game_id, 16, "game"), _hex(packet_hash, 32, "packet-hash"))
    click.echo(" ".join(str(roll_value(key_bytes, n, sides)) for n in range(start, start + count)))


@main.group(cls=RsrGroup)
def case() -> None:
    """Adjudication test cases (tests/cases/)."""


@case.command("run")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
def case_run(paths: tuple[Path, ...]) -> None:
    """Run adjudication cases (files or folders; default tests/cases)."""
    from rsr.cases import collect, run_case

    files = collect(list(paths) or [Path("tests/cases")])
    failures = 0
    for path, spec in files:
        problems = run_case(path, spec)
        label = f"{path}#{spec['id']}"
        if problems:
            failures += 1
            click.echo(f"FAIL {label}: {problems[0]}")
        else:
            click.echo(f"ok   {label} ({', '.join(spec['cases'])})")
    click.echo(f"{len(files) - failures} passed, {failures} failed")
    if failures:
        sys.exit(1)


@main.command("demo")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("demo"), show_default=True)
@click.option("--scenario", default="liaoyang-1904", show_default=True,
              help="Scenario to play (red-sun-rising: liaoyang-1904, korea-1904, liaoyang-turn-1904).")
@click.option("--ruleset", "ruleset_id", default="red-sun-rising", show_default=True)
def demo(out: Path, scenario: str, ruleset_id: str) -> None:
    """Play the sample game between two generated keys through packet files, then verify it."""
    from rsr.demo import run_demo

    run_demo(out, echo=click.echo, scenario=scenario, ruleset_id=ruleset_id)


if __name__ == "__main__":  # pragma: no cover
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
