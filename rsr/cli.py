"""The command line (docs/architecture.md). Exit status: 0 success, 1 verification or rules failure, 2 bad input.

Every command that takes a game directory takes it first. Errors are one line on stderr; bad input
never shows a traceback and never changes the game directory.
"""

from __future__ import annotations

import datetime
import importlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from rsr.completion import SHELLS, GameDirPath, attach, completion_script
from rsr.errors import BadInput, RsrError
from rsr.rulesets import BUILTIN, DEFAULT_RULESET, DEMO_SCENARIOS
from rsr.safetext import visible
from rsr.words import plain_value, plural, plural_word, wrapped


class LazyModule:
    """A module imported when first used: ``rsr --help`` and ``rsr dice roll`` must not pay for the rules,
    rich, jsonschema or the YAML loader (docs/performance.md)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)


if TYPE_CHECKING:
    from rsr import games as game_actions
    from rsr import keys as keystore
    from rsr import orders as order_actions
    from rsr import progress
    from rsr import reports as report_actions
else:
    game_actions = LazyModule("rsr.games")
    order_actions = LazyModule("rsr.orders")
    report_actions = LazyModule("rsr.reports")
    keystore = LazyModule("rsr.keys")
    progress = LazyModule("rsr.progress")

GameDir = GameDirPath(file_okay=False, path_type=Path)


def console(width: int | None = None) -> Any:
    from rich.console import Console

    return Console(highlight=False, width=width)


def fail(exc: RsrError) -> None:
    # one line, whatever the message quotes (a key or a file name from hostile input may hold a new line)
    text = visible(" ".join(str(exc).splitlines()), 100_000)
    click.echo(f"rsr: {text}", err=True)
    sys.exit(exc.exit_code)


def quiet_on_closed_pipe() -> None:
    """The reader of our output went away (``rsr odds ... | head``): stop at once and say nothing; the
    interpreter's last flush goes to /dev/null so it cannot complain either."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # (no real file descriptor: a test runner's stream)
        pass
    sys.exit(0)


class RsrGroup(click.Group):
    """Turns every rsr error into one line and its exit status."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            quiet_on_closed_pipe()
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
    say(f"stored in {keystore.key_dir()} (private key mode 0600)")


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


def mailbox_options(func: Any) -> Any:
    """--maildir / --mbox / --imap: where to look for packets in received email."""
    func = click.option("--imap", is_flag=True, help="Read the IMAP folder of <rsr home>/mail.yaml.")(func)
    func = click.option("--mbox", type=click.Path(dir_okay=False, path_type=Path), default=None,
                        help="Read this mbox file.")(func)
    func = click.option("--maildir", type=click.Path(file_okay=False, path_type=Path), default=None,
                        help="Read this Maildir.")(func)
    return func


def exchange_options(func: Any) -> Any:
    """--mail / --send / --git / --push: how a new packet goes to the opponent."""
    func = click.option("--push", is_flag=True, help="With --git: push the commit.")(func)
    func = click.option("--git", "use_git", is_flag=True,
                        help="Commit the packet and reports in the git repository holding the game.")(func)
    func = click.option("--send", is_flag=True,
                        help="Write the email and send it over SMTP (server in <rsr home>/mail.yaml).")(func)
    func = click.option("--mail", "write_mail", is_flag=True,
                        help="Write an email (.eml) with the packet and report to the game's outbox/.")(func)
    return func


def _check_player_name(name: str | None) -> None:
    """A player's name goes into a signed packet the opponent's terminal shows: printable, one line, no
    control, bidi or invisible character, at most 64 characters."""
    from rsr.safetext import has_hidden

    if name and (has_hidden(name) or len(name) > 64):
        raise BadInput(f"--name {visible(name, 80)}: a name is at most 64 printable characters, with no control, "
                       "bidi or invisible character")


def deliver(game_dir: Path, packet: Any, write_mail: bool, send: bool, use_git: bool, push: bool,
            to: str | None = None, key_name: str | None = None) -> None:
    """Send or commit a packet already written into ``game_dir``, and say where it went."""
    if push and not use_git:
        raise BadInput("--push goes with --git")
    if write_mail or send:
        from rsr.mail import send as mail_send

        try:
            mailed = mail_send.mail_packet(game_dir, packet, send, to)
        except BadInput as exc:
            raise BadInput(f"{exc} (packet {packet.seq} is written; send it later with "
                           f"'rsr mail {game_dir} {packet.seq} --send')") from exc
        click.echo(f"wrote email {mailed.path}")
        if mailed.sent_to:
            click.echo(f"sent packet {packet.seq} to {mailed.sent_to}")
    if use_git:
        from rsr import gitsync

        try:
            commit = gitsync.commit_game(game_dir, packet)
            click.echo(f"committed packet {packet.seq} ({commit[:10]})")
            if push:
                where, merged, files = gitsync.push(gitsync.repo_of(game_dir), game_dir, key_name)
                for name in files:
                    click.echo(f"merged (checked) from the remote: {visible(name)}")
                click.echo(f"pushed to {where}")
                _show_unseen(game_dir, key_name, [p.seq for p in merged])
        except BadInput as exc:
            raise BadInput(f"{exc} (packet {packet.seq} is written in {game_dir}; once that is fixed, commit and "
                           "push it with git)") from exc
    if not (write_mail or send or use_git):
        say(f"send {game_dir / 'turns' / packet.file_name()} to your opponent")


@main.command("new")
@click.argument("parent", type=click.Path(file_okay=False, path_type=Path), default=".")
@click.option("--ruleset", default=None,
              help=f"{' or '.join(BUILTIN)} (default: the one that has the scenario, else {DEFAULT_RULESET}).")
@click.option("--scenario", required=True)
@click.option("--side", required=True, help="Your side, e.g. russia or japan.")
@click.option("--key", "key_name", required=True, help="Your stored key.")
@click.option("--name", "player", default="", help="Your name as the opponent will see it.")
@click.option("--opponent-key", default=None, help="The opponent's public key (base64), to pin it now.")
@click.option("--opponent-email", default=None, help="The opponent's address (kept in the game's local.yaml).")
@click.option("--remote", default=None, help="With --git: the shared repository's URL (added as origin).")
@click.option("--deadline-hours", type=click.IntRange(1, 8760), default=None,
              help="Hours each player has to answer a packet; after that the other may sign an overdue claim.")
@click.option("--option", "rule_options", multiple=True, metavar="NAME=VALUE",
              help="A rules option for this game (repeatable); VALUE is a YAML scalar: 3, 1.5, true, text.")
@click.option("--data", "data_files", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Your transcription of the printed map, counters or charts (rsr data export); repeatable.")
@exchange_options
def new(parent: Path, ruleset: str | None, scenario: str, side: str, key_name: str, player: str,
        opponent_key: str | None, opponent_email: str | None, remote: str | None, deadline_hours: int | None,
        rule_options: tuple[str, ...], write_mail: bool, send: bool, use_git: bool, push: bool,
        data_files: tuple[Path, ...] = ()) -> None:
    """Start a game under PARENT: writes the invitation to send to your opponent."""
    from rsr import contacts

    _check_player_name(player)
    options = game_actions.parse_rule_options(rule_options)
    ruleset = ruleset or game_actions.ruleset_of_scenario(scenario)
    if opponent_email:
        contacts.check_address(opponent_email, "--opponent-email")
    if remote and not use_git:
        raise BadInput("--remote goes with --git")
    if push and not use_git:
        raise BadInput("--push goes with --git")
    if send:
        from rsr.mail import send as mail_send

        mail_send.check_can_send(opponent_email, "the new game")  # before anything is signed or written
    if use_git:
        from rsr import gitsync

        gitsync.init_repo(parent, remote)
    game_dir, packet = game_actions.new_game(parent, ruleset, scenario, side, key_name, player or key_name,
                                             opponent_key, options, deadline_hours=deadline_hours,
                                             data_files=list(data_files))
    say(f"game {packet.game} created in {game_dir}")
    for line in game_actions.transcription_lines(packet):
        say(line)
    for name, value in options.items():
        click.echo(f"  rules option {name} = {plain_value(value)}")
    for line in game_actions.scenario_first_needs(ruleset, scenario, options):
        say("note: " + line)
    contacts.ignore_local_files(game_dir)
    if opponent_email:
        contacts.record_opponent_email(game_dir, opponent_email)
    deliver(game_dir, packet, write_mail, send, use_git, push)


def invite_from_mailbox(maildir: Path | None, mbox: Path | None, imap: bool, game: str | None,
                        parent: Path) -> tuple[str, str | None]:
    """The raw message holding the one invitation (or the one of game ``game``) not accepted yet."""
    from rsr.gamedir import game_dir_name
    from rsr.mail import read as mail_read

    def waiting(packet: Any) -> bool:
        if game:
            return bool(packet.game.startswith(game.lower()))
        here = parent / game_dir_name(packet.game)
        return not here.exists() or game_actions.holds_only(here, packet)

    found = [item for item in mail_read.invitations(mail_read.read_mailbox(maildir, mbox, imap)) if waiting(item[0])]
    if not found:
        raise BadInput("no invitation waiting in that mailbox" + (f" for game {game}" if game else ""))
    if len(found) > 1:
        games = ", ".join(p.game[:8] for p, _, _ in found)
        raise BadInput(f"{len(found)} invitations waiting ({games}): choose one with --game ID")
    return found[0][2].decode("utf-8", errors="replace"), found[0][1]


@main.command("accept")
@click.argument("invite", type=click.Path(path_type=Path, allow_dash=True), required=False)
@click.option("--key", "key_name", required=True)
@click.option("--dir", "parent", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to put the game directory (default: beside the invitation's game directory, or .).")
@click.option("--name", "player", default="")
@click.option("--orders", type=click.Path(path_type=Path), default=None)
@click.option("--opponent-email", default=None, help="The opponent's address (default: the invitation's From).")
@click.option("--game", "game_prefix", default=None, help="With a mailbox: which game's invitation.")
@click.option("--preview", is_flag=True,
              help="Show the terms and what the inviter's transcription replaces; sign and write nothing.")
@mailbox_options
@exchange_options
def accept(invite: Path | None, key_name: str, parent: Path | None, player: str, orders: Path | None,
           opponent_email: str | None, game_prefix: str | None, maildir: Path | None, mbox: Path | None,
           imap: bool, write_mail: bool, send: bool, use_git: bool, push: bool, preview: bool = False) -> None:
    """Accept the invitation in INVITE (a file, an email, a game directory holding it, or - for stdin),
    or the one waiting in a mailbox (--maildir, --mbox, --imap)."""
    import tempfile

    from rsr import contacts

    _check_player_name(player)
    given = order_actions.read_orders(orders) if orders else order_actions.Orders([])
    sender = None
    with tempfile.TemporaryDirectory(prefix="rsr-accept-") as tmp:
        if invite is None:
            text, sender = invite_from_mailbox(maildir, mbox, imap, game_prefix, parent or Path("."))
            invite = Path(tmp) / "invitation.eml"
            invite.write_text(text)
        elif maildir or mbox or imap:
            raise BadInput("give an INVITE file or a mailbox, not both")
        elif invite.is_dir():
            found = sorted((invite / "turns").glob("0000-*.rsr"))
            if not found:
                raise BadInput(f"{invite} holds no invitation (turns/0000-*.rsr)")
            parent = parent or invite.parent
            invite = found[0]
        elif str(invite) != "-" and invite.is_file():
            from rsr.gamedir import read_text_file

            sender = contacts.sender_of(read_text_file(invite))
        if preview:  # the acceptor reads what he would sign first
            _preview_invitation(invite)
            return
        if push and not use_git:
            raise BadInput("--push goes with --git")
        if send:
            from rsr.mail import send as mail_send

            mail_send.check_can_send(opponent_email or sender, "this game")  # before anything is signed or written
        if use_git:
            from rsr import gitsync

            repo = gitsync.repo_of(parent or Path("."))
            if invite is not None and invite.parent.name == "turns":  # accepting in place, in a clone
                gitsync.check_repo_safe(repo, invite.parent.parent)  # before signing
        if (write_mail or send) and invite is not None and invite.parent.name == "turns":
            from rsr.mail import send as mail_send

            mail_send.check_outbox(invite.parent.parent)
        game_dir, packet = game_actions.accept_game(invite, parent or Path("."), key_name, player or key_name,
                                               given.inputs or None, given.message)
    say(f"accepted game {packet.game} in {game_dir}")
    from rsr.gamedir import load_log
    from rsr.terms import terms_lines, transcription_lines

    for line in terms_lines(load_log(game_dir)[0]):
        say(line)
    for line in transcription_lines(load_log(game_dir)[0]):
        say(line)
    _mark_shown(game_dir, packet.seq)
    contacts.ignore_local_files(game_dir)
    if opponent_email or sender:
        contacts.record_opponent_email(game_dir, opponent_email or str(sender))
        click.echo(f"opponent's address: {contacts.opponent_email(game_dir)}")
    deliver(game_dir, packet, write_mail, send, use_git, push)


def _preview_invitation(invite: Path) -> None:
    """``rsr accept --preview``: the terms and the transcription's replaced values, nothing signed."""
    from rsr.terms import read_invitation, terms_lines, transcription_lines

    packet = read_invitation(invite)
    for line in [*terms_lines(packet), *transcription_lines(packet)]:
        say(line)
    say(f"nothing signed or written: run rsr accept again without --preview to accept game {packet.game[:8]}")


# -- playing ---------------------------------------------------------------------------------------------


@main.command("status")
@click.argument("game_dir", type=GameDir)
@click.option("--key", "key_name", default=None)
def status(game_dir: Path, key_name: str | None) -> None:
    """What is asked of whom, and the position."""
    st = report_actions.status(game_dir, key_name)
    result = st.result
    say(f"game {result.game_id} ({result.ruleset.id}, scenario {result.scenario.name}), "
        f"{plural(len(result.packets), 'packet')}")
    for side, name in sorted(result.names.items()):
        fingerprint = keystore.fingerprint(result.keys[side]) if side in result.keys else ""
        say(f"  {side}: {visible(name)} {fingerprint}")
    position = st.pending.after if st.pending else result.position
    for line in result.ruleset.describe(position.state):
        say(line)
    if st.side:
        say(f"you play {st.side}")
    for line in st.lines:
        say(line)
    from rsr.disputes import equivocations

    for line in equivocations(game_dir, result):
        say(line)
    from rsr.claims import deadline_hours, owed

    if deadline_hours(result) is not None:
        say(owed(result).describe(datetime.datetime.now(datetime.UTC), st.side))


@main.group(cls=RsrGroup)
def orders() -> None:
    """Write and check orders files."""


@orders.command("template")
@click.argument("game_dir", type=GameDir)
@click.option("--key", "key_name", default=None)
@click.option("--from", "from_file", type=click.Path(path_type=Path, allow_dash=True), default=None,
              help="Your orders so far: keep them and lay out the questions that follow them.")
def orders_template(game_dir: Path, key_name: str | None, from_file: Path | None) -> None:
    """Print a YAML template answering every question of your turn before the next die, with legal options."""
    written = order_actions.load_orders(from_file) if from_file is not None else None
    click.echo(order_actions.template(game_dir, key_name, written), nl=False)


@orders.command("check")
@click.argument("game_dir", type=GameDir)
@click.argument("orders_file", type=click.Path(path_type=Path, allow_dash=True))
@click.option("--key", "key_name", default=None)
def orders_check(game_dir: Path, orders_file: Path, key_name: str | None) -> None:
    """Check an orders file against the rules without signing anything."""
    result = game_actions.load_game(game_dir)
    inputs = order_actions.load_orders(orders_file)
    key = game_actions.choose_key(result, key_name)
    run = order_actions.check_all_orders(result, key, inputs)
    click.echo(f"{plural(len(inputs), 'input')} accepted")
    for line in order_actions.turn_check_lines(result, key, inputs):
        say(line)
    if run.stopped_at_die:
        say(f"the rest depends on dice: {run.stopped_at_die}")
    elif run.next_request is not None:
        say(f"then the game asks {run.next_request.side}: {run.next_request.prompt} "
                      f"[{run.next_request.id}]")
    _orders_odds(result, key_name, inputs)


def say(text: str) -> None:
    """Prose for a person, every line wrapped at 80 columns (rsr.words.wrapped)."""
    click.echo(wrapped(text))


def _orders_odds(result: Any, key_name: str | None, inputs: list[dict[str, Any]]) -> None:
    """The odds section of ``orders check``: exact chances of every attack, combat or fire mission in the
    orders."""
    from rsr.odds import odds_for_inputs, table_lines

    try:
        tables = odds_for_inputs(result.ruleset.id, _odds_state(result, key_name), inputs)
    except BadInput as exc:
        click.echo(f"odds: not available ({exc})")
        return
    if tables:
        click.echo("")
        click.echo("odds (exact, every face of every die):")
    for index, table in enumerate(tables):
        if index:
            click.echo("")
        for line in table_lines(table):
            click.echo(line)


def _odds_state(result: Any, key_name: str | None) -> Any:
    """The position the next packet is written against (with this player's key), else the log's last."""
    from rsr.log import position_for_author

    try:
        position, _, _ = position_for_author(result, game_actions.choose_key(result, key_name))
        return position.state
    except BadInput:
        return result.position.state


@main.command("submit")
@click.argument("game_dir", type=GameDir)
@click.argument("orders_file", type=click.Path(path_type=Path, allow_dash=True), required=False)
@click.option("--key", "key_name", default=None)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the packet to this file (to attach or paste into an email).")
@click.option("--to", default=None, help="With --mail/--send: the opponent's address (remembered for the game).")
@click.option("--pass", "passing", is_flag=True,
              help="With no orders while the game asks you: answer it with nothing (no attacks, no moves), "
                   "where the rules allow that.")
@exchange_options
def submit(game_dir: Path, orders_file: Path | None, key_name: str | None, out: Path | None, to: str | None,
           passing: bool, write_mail: bool, send: bool, use_git: bool, push: bool) -> None:
    """Sign your orders (or none) into the next packet; --send mails it, --git --push commits and pushes it."""
    given = order_actions.read_orders(orders_file) if orders_file else order_actions.Orders([])
    if not given.inputs:
        given = order_actions.Orders(_empty_answer(game_dir, key_name, passing), given.message)
    if to:
        from rsr import contacts

        contacts.check_address(to, "--to")
    if push and not use_git:
        raise BadInput("--push goes with --git")
    if send:
        from rsr import contacts
        from rsr.mail import send as mail_send

        mail_send.check_can_send(to or contacts.opponent_email(game_dir), game_dir.name)  # before signing
    if write_mail or send:
        from rsr.mail import send as mail_send

        mail_send.check_outbox(game_dir)  # no link where the email goes, before signing
    if use_git:
        from rsr import gitsync

        gitsync.check_repo_safe(gitsync.repo_of(game_dir), game_dir)  # before signing: a repository, no links
        if push:
            waiting = gitsync.unreceived(game_dir)
            if waiting:
                raise BadInput(f"the remote has {plural(len(waiting), 'packet')} of {game_dir.name} you have not "
                               f"received; run 'rsr receive {game_dir} --git' first")
    packet = order_actions.submit(game_dir, given.inputs, key_name, out, given.message)
    say(f"wrote packet {packet.seq} ({packet.side}): {game_dir / 'turns' / packet.file_name()}")
    _mark_shown(game_dir, packet.seq)
    if to:
        from rsr import contacts

        contacts.record_opponent_email(game_dir, to)
    if write_mail or send or use_git:
        deliver(game_dir, packet, write_mail, send, use_git, push, to, key_name)


@main.command("resign")
@click.argument("game_dir", type=GameDir)
@click.option("--key", "key_name", default=None)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the packet to this file (to attach or paste into an email).")
@click.option("--to", default=None, help="With --mail/--send: the opponent's address (remembered for the game).")
@exchange_options
def resign_command(game_dir: Path, key_name: str | None, yes: bool, out: Path | None, to: str | None,
                   write_mail: bool, send: bool, use_git: bool, push: bool) -> None:
    """Concede the game: sign a resignation as your next packet. The game ends at once with your opponent's
    decisive victory, in both copies and for rsr verify (docs/protocol.md, "Resigning")."""
    from rsr.log import my_side, other_side

    result = game_actions.load_game(game_dir)
    progress.refuse_if_over(result)
    side = my_side(result, game_actions.choose_key(result, key_name))
    if result.next_author() != side:
        raise BadInput(f"the next packet is {result.next_author()}'s: resign once it has come in (rsr receive)")
    if push and not use_git:
        raise BadInput("--push goes with --git")
    winner = other_side(result.ruleset, side)
    if not yes and not click.confirm(f"resign game {result.game_id[:8]} as {side}, giving {winner} a decisive "
                                     "victory?", default=False):
        raise BadInput("not resigned; nothing signed")
    packet = order_actions.resign(game_dir, key_name, out)
    say(f"wrote packet {packet.seq} ({packet.side}, resignation): {game_dir / 'turns' / packet.file_name()}")
    say(progress.result_line(progress.game_result(game_actions.load_game(game_dir), None)))
    if to:
        from rsr import contacts

        contacts.record_opponent_email(game_dir, to)
    deliver(game_dir, packet, write_mail, send, use_git, push, to)


def _empty_answer(game_dir: Path, key_name: str | None, passing: bool) -> list[dict[str, Any]]:
    """No orders while the game asks this player: refused (a packet that answers nothing makes the opponent
    send one back for nothing), unless ``--pass`` answers the request with nothing and the rules allow it."""
    result = game_actions.load_game(game_dir)
    asked = report_actions.pending_request(result, key_name)
    if asked is None:
        return []
    unsealing = order_actions.unseal_input(result.game_id, asked)
    if unsealing is not None:  # the only thing asked is to reveal the choice this machine sealed
        click.echo(f"no orders given: revealing your sealed choice for {asked.prompt}")
        return [unsealing]
    empty = order_actions.pass_answer(result, key_name)
    if not passing:
        hint = " or --pass to answer it with nothing" if empty is not None else ""
        raise BadInput(f"no orders given while the game asks you: {asked.prompt} [{asked.id}]; give an orders "
                       f"file (rsr orders template {game_dir}){hint}; nothing signed")
    if empty is None:
        raise BadInput(f"--pass: the rules allow no empty answer to {asked.prompt} [{asked.id}]; nothing signed")
    return [empty]


@main.command("receive")
@click.argument("game_dir", type=GameDir)
@click.argument("packet_file", type=click.Path(path_type=Path, allow_dash=True), required=False)
@click.option("--key", "key_name", default=None)
@click.option("--git", "use_git", is_flag=True, help="Pull the shared repository and receive what is new.")
@mailbox_options
def receive(game_dir: Path, packet_file: Path | None, key_name: str | None, use_git: bool, maildir: Path | None,
            mbox: Path | None, imap: bool) -> None:
    """Take in the opponent's packet (a file, an email, or - for stdin), or every new packet of this game
    in a mailbox (--maildir, --mbox, --imap) or the shared repository (--git); check, write the reports."""
    sources = [x for x in (packet_file, maildir, mbox, imap or None, use_git or None) if x]
    if len(sources) != 1:
        raise BadInput("give one of PACKET_FILE, --maildir DIR, --mbox FILE, --imap, --git")
    notes: list[str] = []
    if use_git:
        from rsr import gitsync

        pulled = gitsync.pull_game(game_dir, key_name)
        new, reports = pulled.new, pulled.reports
    elif packet_file is not None:
        new, reports = report_actions.receive(game_dir, packet_file, key_name)
    else:
        from rsr.mail import read as mail_read

        got = mail_read.receive_from_mailbox(game_dir, mail_read.read_mailbox(maildir, mbox, imap), key_name)
        new, reports = got.new, got.reports
        if got.found.after_gap:
            notes.append(f"waiting for an earlier packet: {', '.join(map(str, got.found.after_gap))} "
                         "cannot be received yet")
        if got.found.unverified:
            notes.append(f"{plural(got.found.unverified, 'block')} naming this game did not verify and "
                         f"{plural_word('was', got.found.unverified)} ignored")
        notes += [visible(line, 300) for line in got.skipped]
    if not new:
        click.echo("nothing new: the log already holds every packet found")
    for packet in new:
        click.echo(f"received packet {packet.seq} ({packet.side})")
    for note in notes:
        click.echo(note)
    summary = _show_unseen(game_dir, key_name, [p.seq for p in new])
    if reports and not summary:
        click.echo(f"latest report: {reports[-1]}")


def _mark_shown(game_dir: Path, seq: int) -> None:
    """The player has seen the log up to the packet they just wrote."""
    from rsr import contacts

    try:
        contacts.remember_local(game_dir, "shown_through", seq)
    except BadInput:
        pass  # a local file that cannot be written only means a summary may show again


def _show_unseen(game_dir: Path, key_name: str | None, new_seqs: list[int]) -> list[str]:
    """What the opponent's packets did, for the packets just taken in and for any an earlier merge brought
    without showing them (a push that merged them). The last shown seq is local."""
    from rsr import contacts

    try:
        local = contacts.load_local(game_dir)
    except BadInput:
        local = {}
    shown = local.get("shown_through")
    if not new_seqs and not isinstance(shown, int):
        return []
    # (the log ``receive`` just wrote, not read again: flat in the game's length)
    result = report_actions._RECEIVED.get(game_dir) or game_actions.load_game(game_dir)
    count = len(result.packets)
    seqs = list(new_seqs)
    if isinstance(shown, int) and not isinstance(shown, bool) and 0 <= shown < count - 1:
        try:
            me, _ = report_actions.author_view(result, key_name)
        except BadInput:
            me = None
        unseen = [seq for seq in range(max(shown + 1, 2), count) if result.packets[seq].side != me]
        seqs = sorted(set(seqs) | set(unseen))
    summary = report_actions.receive_summary(game_dir, seqs, key_name) if seqs else []
    if seqs and not new_seqs:
        click.echo(f"not shown before: {plural_word('packet', len(seqs))} {', '.join(map(str, seqs))}, merged earlier")
    for line in summary:
        say(line)
    if count and shown != count - 1:
        try:
            contacts.remember_local(game_dir, "shown_through", count - 1)
        except BadInput:
            pass  # a local file that cannot be written only means the summary may show again
    return summary


@main.command("mail")
@click.argument("game_dir", type=GameDir)
@click.argument("seq", type=int, required=False)
@click.option("--send", is_flag=True, help="Send it over SMTP (server in <rsr home>/mail.yaml).")
@click.option("--to", default=None, help="The opponent's address (remembered for the game).")
@click.option("--key", "key_name", default=None)
def mail_command(game_dir: Path, seq: int | None, send: bool, to: str | None, key_name: str | None) -> None:
    """Write (and with --send, send) the email of packet SEQ, default your latest: to send again."""
    from rsr import contacts
    from rsr.mail import send as mail_send

    result = game_actions.load_game(game_dir)
    if seq is None:
        side = next((s for s, pub in sorted(result.keys.items())
                     if pub == game_actions.choose_key(result, key_name).public_raw), None)
        mine = [p for p in result.packets if p.side == side]
        if not mine:
            raise BadInput(f"{game_dir} holds no packet of yours")
        packet = mine[-1]
    elif 0 <= seq < len(result.packets):
        packet = result.packets[seq]
    else:
        raise BadInput(f"{game_dir} has packets 0 to {len(result.packets) - 1}, not {seq}")
    if to:
        contacts.record_opponent_email(game_dir, to)
    mailed = mail_send.mail_packet(game_dir, packet, send)
    click.echo(f"wrote email {mailed.path}")
    if mailed.sent_to:
        click.echo(f"sent packet {packet.seq} to {mailed.sent_to}")


@main.command("inbox")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path), default=".")
@click.option("--git", "use_git", is_flag=True, help="Fetch each game's repository and count what is new.")
@mailbox_options
def inbox(folder: Path, use_git: bool, maildir: Path | None, mbox: Path | None, imap: bool) -> None:
    """List the games under FOLDER, whose packet is next, and the packets waiting in a mailbox or remote."""
    from rsr import inbox as inboxmod

    messages = None
    if maildir or mbox or imap:
        from rsr.mail import read as mail_read

        messages = mail_read.read_mailbox(maildir, mbox, imap)
    for line in inboxmod.inbox_lines(folder, messages, use_git):
        say(visible(line, 2000))  # nothing from a mail or a packet reaches the terminal raw


def edit_in_editor(text: str) -> str | None:
    """``text`` edited in the player's $VISUAL or $EDITOR; None (then the orders are pasted at the terminal)
    when neither is set (no guessing at the system's editor chooser) or the editor fails, saying so."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if not editor:
        say("no EDITOR set (export EDITOR=nano, say): the orders are pasted here instead")
        return None
    try:
        return click.edit(text, editor=editor, extension=".yaml")
    except click.ClickException as exc:
        say(f"the editor {editor!r} failed ({exc.format_message()}): the orders are pasted here instead")
        return None


@main.command("play")
@click.argument("game_dir", type=GameDir)
@click.option("--key", "key_name", default=None)
def play(game_dir: Path, key_name: str | None) -> None:
    """Answer the current request at the terminal, then sign the packet."""
    from rsr.yamlio import load_yaml_text

    text = order_actions.template(game_dir, key_name)
    click.echo(text, nl=False)  # plain text: a terminal must not wrap or restyle YAML the player may paste
    result = game_actions.load_game(game_dir)
    asked = report_actions.pending_request(result, key_name)
    if asked is None:
        if click.confirm("your packet carries no orders; sign it now?", default=True):
            packet = order_actions.submit(game_dir, [], key_name)
            say(f"wrote packet {packet.seq}: {game_dir / 'turns' / packet.file_name()}")
        return
    edited = edit_in_editor(text) if sys.stdin.isatty() else None
    if edited is None:
        click.echo("paste your orders (YAML), end with an empty line:")
        edited = "\n".join(iter(lambda: sys.stdin.readline().rstrip("\n"), ""))
    data = load_yaml_text(edited, "orders", hexes=True)
    if data is not None and not isinstance(data, dict):
        raise BadInput("orders: an orders file is a mapping with a list 'inputs:'")
    inputs = (data or {}).get("inputs") or []
    if not isinstance(inputs, list):
        raise BadInput("orders: 'inputs:' must be a list")
    if not inputs:
        refusal = f"no orders given while the game asks you: {asked.prompt} [{asked.id}]; nothing signed"
        passing = order_actions.pass_answer(result, key_name)
        if passing is None:
            raise BadInput(refusal + " (the rules allow no empty answer here)")
        if not click.confirm(f"no orders given, but the game asks you: {asked.prompt}. Pass, answering it with "
                             f"{plain_value(passing['answer'])} (the rules allow it)?", default=False):
            raise BadInput(refusal)
        inputs = [passing]
    order_actions.check_all_orders(result, game_actions.choose_key(result, key_name), inputs)
    inputs = _play_rest_of_turn(game_dir, key_name, result, inputs)
    if click.confirm("orders check out; sign and write the packet?", default=True):
        packet = order_actions.submit(game_dir, inputs, key_name)
        say(f"wrote packet {packet.seq}: {game_dir / 'turns' / packet.file_name()}")


def _play_rest_of_turn(game_dir: Path, key_name: str | None, result: Any,
                       inputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rsr play``: the questions of this turn the orders leave unanswered (rsr/lookahead.py), named; at a
    terminal, laid out after the answers written (``orders template --from``) for another edit."""
    from rsr.yamlio import load_yaml_text

    key = game_actions.choose_key(result, key_name)
    for _ in range(8):
        left = [q.request for q in order_actions.whole_turn(result, key, inputs).questions if q.source == "nothing"]
        if not left:
            break
        say(f"your orders leave {plural(len(left), 'question')} of this packet unanswered, asked again in a "
                      f"later packet: {', '.join(r.id for r in left)}")
        if not sys.stdin.isatty() or not click.confirm("lay them out after your answers and edit again?",
                                                       default=True):
            break
        edited = click.edit(order_actions.template(game_dir, key_name, inputs), extension=".yaml")
        data = load_yaml_text(edited or "", "orders")
        more = data.get("inputs") if isinstance(data, dict) else None
        if not isinstance(more, list) or not more:
            break
        order_actions.check_all_orders(result, key, more)
        inputs = more
    return inputs


@main.command("verify")
@click.argument("games", nargs=-1, required=True, type=GameDir)
@click.option("--dice", is_flag=True, help="Print every roll with its key and purpose.")
@click.option("--jobs", type=click.IntRange(1, 1024), default=None,
              help="Games checked at once, one process each (default: one per processor).")
def verify(games: tuple[Path, ...], dice: bool, jobs: int | None) -> None:
    """Replay and check the whole log: signatures, chain, reveals, every die, every rule.

    Several games, or a folder of games, are checked side by side on every processor: one line per game,
    then a summary; the exit status is 1 (2 for bad input) if any game failed."""
    from rsr import club

    if len(games) > 1 or club.is_folder_of_games(games[0]):
        verify_games(list(games), dice, jobs)
        return
    game_dir = games[0]
    from rsr.report import dice_audit

    result = game_actions.verify_game(game_dir)
    rolls = sum(len(r.rolls) for r in result.passes)
    if dice:
        for line in dice_audit(result):
            click.echo(line)
    click.echo(f"verified: {plural(len(result.packets), 'packet')}, {plural(len(result.passes), 'resolution')}, "
               f"{rolls} {'die' if rolls == 1 else 'dice'}")
    if progress.is_over(result):
        say(progress.result_line(progress.game_result(result, result.position.state)))
    from rsr.disputes import equivocations

    for line in equivocations(game_dir, result):  # contract 2: the first packet stays; the proof is named
        say(line)


def verify_games(paths: list[Path], dice: bool, jobs: int | None) -> None:
    """``rsr verify`` of many games (rsr/club.py): one line each as it is known, a summary, the exit status."""
    from rsr import club

    verdicts = []
    for verdict in club.verify_many(club.games_named(paths), jobs, dice):
        verdicts.append(verdict)
        for line in verdict.dice:
            click.echo(f"{club.printable(verdict.game, 200)}: {line}")
        click.echo(verdict.line())
    click.echo(club.summary(verdicts))
    sys.exit(club.exit_code(verdicts))


@main.command("report")
@click.argument("game_dir", type=GameDir)
@click.argument("seq", type=int, required=False)
@click.option("--last", is_flag=True, help="The latest resolution (the default when no SEQ is given).")
@click.option("--format", "fmt", type=click.Choice(["text", "md", "html"]), default="text", show_default=True)
@click.option("--html", "as_html", is_flag=True, help="Same as --format html.")
@click.option("--all", "every", is_flag=True, help="With --html: a browsable replay of the whole game in --out DIR.")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Write to this file (a folder with --all) instead of the terminal.")
@click.option("--key", "key_name", default=None)
def report(game_dir: Path, seq: int | None, last: bool, fmt: str, as_html: bool, every: bool, out: Path | None,
           key_name: str | None) -> None:
    """Show what packet SEQ's resolution did (default: the latest): every input, die, loss and move."""
    from rsr.fileio import atomic_write
    from rsr.report import build_report, report_html, report_markdown, report_text, write_replay_pages

    if as_html:
        fmt = "html"
    if last and seq is not None:
        raise BadInput("give SEQ or --last, not both")
    if every:  # the whole game, a page a pass, drawn and written as the log replays
        if fmt != "html" or out is None:
            raise BadInput("--all writes an HTML replay: give --html and --out FOLDER")
        written = write_replay_pages(game_dir, lambda result: game_actions.choose_key(result, key_name), out)
        click.echo(f"wrote {written} pages to {out} (open {out / 'index.html'})")
        return
    result = game_actions.load_game(game_dir)
    records = report_actions.resolutions(result, key_name, seq)
    if not records:
        raise BadInput("no resolution to report yet")
    record = records[-1]
    built = build_report(result, record)
    if fmt == "html":
        from rsr.draw import draw_position

        svg, _ = draw_position(result, record)
        text = report_html(built, svg)
    else:
        text = report_markdown(built) if fmt == "md" else report_text(built)
    if out is not None:
        atomic_write(out, text.encode())
        click.echo(f"wrote {out}")
    else:
        click.echo(text, nl=False)


@main.command("replay")
@click.argument("game_dir", type=GameDir)
@click.option("--seq", type=int, default=None, help="Print the frame of packet SEQ and stop (no questions).")
@click.option("--key", "key_name", default=None)
def replay_command(game_dir: Path, seq: int | None, key_name: str | None) -> None:
    """Step through the game: the map and the report of each packet side by side. Keys: Enter or n next,
    p previous, a packet number to jump, q to quit. Without a terminal (or with --seq) one frame is printed."""
    from rsr.report import replay_frame

    result = game_actions.load_game(game_dir, cache=seq is not None)  # stepping through needs every pass
    if seq is not None and not result.complete:  # one frame, from the checkpoints (rsr/cache.py)
        replay_one_frame(result, seq, key_name)
        return
    records = report_actions.resolutions(result, key_name)
    if not records:
        raise BadInput("no resolution to replay yet")
    seqs = [r.resolved for r in records]
    if seq is not None and seq not in seqs:
        raise BadInput(f"packet {seq} has no resolution (resolved packets: {seqs[0]}-{seqs[-1]})")
    first = next((i for i, r in enumerate(records) if r.events), 0)  # the first packet where something happened
    index = seqs.index(seq) if seq is not None else (len(records) - 1 if not sys.stdin.isatty() else first)
    out = console(None if sys.stdout.isatty() else 80)
    while True:
        out.print(replay_frame(result, records[index], index, len(records), out.width))
        if seq is not None or not sys.stdin.isatty():
            return
        answer = click.prompt(f"[n]ext, [p]revious, packet number ({seqs[0]}-{seqs[-1]}), [q]uit", default="n",
                              show_default=False)
        answer = answer.strip().lower()
        if answer in ("q", "quit"):
            return
        if answer.isdigit() and int(answer) in seqs:
            index = seqs.index(int(answer))
        elif answer in ("p", "prev", "previous"):
            index = max(0, index - 1)
        elif answer in ("n", "next", ""):
            if index + 1 >= len(records):
                out.print("that was the last packet")
            index = min(len(records) - 1, index + 1)
        else:
            out.print(f"no such packet or key: {answer!r}")


def replay_one_frame(result: Any, seq: int, key_name: str | None) -> None:
    """``rsr replay --seq SEQ`` of a game replayed from a checkpoint: packet N's pass is the N-th (packet 2
    resolves packet 1, and so on), an old one comes from the milestone before it."""
    from rsr.report import replay_frame

    later = report_actions.resolutions(result, key_name)
    record = next((r for r in later if r.resolved == seq), None) or report_actions.old_resolution(result, seq)
    if record is None:
        raise BadInput(f"packet {seq} has no resolution (resolved packets: 1-{later[-1].resolved})")
    out = console(None if sys.stdout.isatty() else 80)
    out.print(replay_frame(result, record, seq - 1, later[-1].resolved, out.width))


@main.command("map")
@click.argument("game_dir", type=GameDir)
@click.argument("seq", type=int, required=False)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The picture to write: .svg or .png.")
@click.option("--around", "around", default=None, help="Centre the picture on this hex (e.g. 4414).")
@click.option("--radius", type=click.IntRange(0, 60), default=3, show_default=True,
              help="How many hexes to show around the action (or around --around).")
@click.option("--whole", is_flag=True, help="Draw the whole map instead of the part where the action was.")
@click.option("--naval", "view", flag_value="naval", help="Red Sun Rising: the Strategic Naval Map (the default "
              "for a packet that played the naval game).")
@click.option("--land", "view", flag_value="land", help="The land map, also for a naval packet.")
@click.option("--battle", default=None, is_flag=False, flag_value="first", metavar="[HEX]",
              help="Red Sun Rising: the Tactical Naval Display of the packet's naval battle (in naval hex HEX).")
@click.option("--hour", type=click.IntRange(0, 12), default=None,
              help="With --battle: the display after this hour (0: the set-up; default: the last hour).")
@click.option("--key", "key_name", default=None)
def map_command(game_dir: Path, seq: int | None, out: Path, around: str | None, radius: int, whole: bool,
                view: str | None, battle: str | None, hour: int | None, key_name: str | None) -> None:
    """Draw the position after packet SEQ's resolution (default: the latest), with its moves and attacks."""
    from rsr.draw import draw_battle, draw_position, svg_to_png
    from rsr.fileio import atomic_write

    if out.suffix.lower() not in (".svg", ".png"):
        raise BadInput(f"--out {out}: the picture must be .svg or .png")
    if hour is not None and battle is None:
        raise BadInput("--hour goes with --battle")
    result = game_actions.load_game(game_dir)
    records = report_actions.resolutions(result, key_name, seq)
    if battle is not None:
        svg, zoom = draw_battle(result, records[-1] if records else None, None if battle == "first" else battle,
                                hour), 1.0
    else:
        svg, scene = draw_position(result, records[-1] if records else None, around, radius, whole, view or "auto")
        zoom = scene.zoom
    atomic_write(out, svg_to_png(svg, zoom) if out.suffix.lower() == ".png" else svg.encode())
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

    result = game_actions.load_game(game_dir)
    key = game_actions.choose_key(result, key_name)
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

    result = game_actions.load_game(game_dir)
    for line in check_claim(result, game_actions.read_text_file_limited(claim_file, 65536, "claim")):
        click.echo(line)


@main.command("odds")
@click.argument("game_dir", type=GameDir)
@click.argument("attacks", nargs=-1, required=True)
@click.option("--key", "key_name", default=None)
def odds_command(game_dir: Path, attacks: tuple[str, ...], key_name: str | None) -> None:
    """Exact odds of each attack ATTACK (HEX:UNIT,UNIT, with /COMMAND in Red Sun Rising; in Red Sun/Red Star
    +GUN,GUN for offensive support and /night) or Red Sun/Red Star fire mission (bombard:UNIT:GUN,GUN or
    interdict:HEX:GUN,GUN) in the current position, from the tables, shifts and modifiers in force."""
    from rsr.odds import odds_for_specs, parse_spec, table_lines

    specs = [parse_spec(text) for text in attacks]
    result = game_actions.load_game(game_dir)
    for index, table in enumerate(odds_for_specs(result.ruleset.id, _odds_state(result, key_name), specs)):
        if index:
            click.echo("")
        for line in table_lines(table):
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
    """Print rolls start..start+count-1 of a packet's dice (docs/protocol.md)."""
    from rsr.fairdice import dice_key, roll_value

    key_bytes = dice_key(_hex(reveal, 32, "reveal"), _hex(game_id, 16, "game"), _hex(packet_hash, 32, "packet-hash"))
    click.echo(" ".join(str(roll_value(key_bytes, n, sides)) for n in range(start, start + count)))


@dice.command("show")
@click.argument("game_dir", type=GameDir)
@click.argument("seq", type=click.IntRange(0))
def dice_show(game_dir: Path, seq: int) -> None:
    """Print what checks the dice of packet SEQ by hand: the reveal, game id, packet hash and every roll.

    Each roll line gives n, sides, value and purpose; 'rsr dice roll' (or any other implementation of
    docs/protocol.md) fed with the three hex values reproduces every value.
    """
    result = game_actions.load_game(game_dir)
    record = next((r for r in result.passes if r.resolved == seq), None) or report_actions.old_resolution(result, seq)
    if record is None:
        if seq >= len(result.packets):
            raise BadInput(f"the log has no packet {seq} (it holds 0..{len(result.packets) - 1})")
        if seq < 2 and not result.packets[seq].payload.get("inputs"):
            raise BadInput(f"packet {seq} is the {'invitation' if seq == 0 else 'acceptance'}: it has no dice")
        if progress.is_over(result):
            raise BadInput(f"packet {seq} came after the last die of the game: it has no dice")
        raise BadInput(f"the dice of packet {seq} are not public yet: packet {seq + 1} reveals them")
    resolved, resolver = result.packets[record.resolved], result.packets[record.resolver]
    reveal = resolver.payload["reveal"]
    click.echo(f"packet {seq} ({resolved.side}), dice revealed by packet {record.resolver} ({resolver.side})")
    click.echo(f"reveal       {reveal}")
    click.echo(f"game         {result.game_id}")
    click.echo(f"packet-hash  {resolved.hash_hex}")
    click.echo(f"dice key     {record.key.hex()}")
    click.echo(f"rolls        {len(record.rolls)}")
    for roll in record.rolls:
        click.echo(f"  n={roll.n} sides={roll.sides} value={roll.value} purpose={roll.purpose}")
    runs: list[list[Any]] = []  # consecutive rolls with the same number of sides: one check command each
    for roll in record.rolls:
        if runs and runs[-1][0] == roll.sides and runs[-1][1] + runs[-1][2] == roll.n:
            runs[-1][2] += 1
        else:
            runs.append([roll.sides, roll.n, 1])
    for sides, start, count in runs:
        click.echo(f"check: rsr dice roll --reveal {reveal} --game {result.game_id} --packet-hash {resolved.hash_hex} "
                   f"--sides {sides} --start {start} --count {count}")


@main.group(cls=RsrGroup, hidden=True)
def case() -> None:
    """Adjudication test cases (tests/cases/ of a checkout of rsr): a contributor's command, hidden from
    the player's help."""


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


class ScenarioListCommand(click.Command):
    """A command whose help ends with every ruleset and its scenarios."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from rsr.catalogue import by_ruleset  # (not through actions: help must not load the rules)

        rows = [(f"{ruleset}:", ", ".join(names)) for ruleset, names in by_ruleset().items()]
        with formatter.section("Rulesets and scenarios (rsr scenarios describes them)"):
            formatter.write_dl(rows)
        super().format_epilog(ctx, formatter)


@main.command("demo", cls=ScenarioListCommand)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("demo"), show_default=True)
@click.option("--ruleset", "ruleset_id", default=DEFAULT_RULESET, show_default=True,
              help=f"{' or '.join(BUILTIN)}.")
@click.option("--scenario", default=None,
              help="Scenario to play (default: " + ", ".join(f"{s} for {r}" for r, s in DEMO_SCENARIOS.items()) + ").")
def demo(out: Path, scenario: str | None, ruleset_id: str) -> None:
    """Play the sample game between two generated keys through packet files, then verify it."""
    from rsr.demo import run_demo

    chosen = scenario or DEMO_SCENARIOS.get(ruleset_id)
    if chosen is None:
        raise BadInput(f"give --scenario for ruleset {ruleset_id} (rsr scenarios lists them)")
    run_demo(out, echo=click.echo, scenario=chosen, ruleset_id=ruleset_id)


@main.command("scenarios")
def scenarios_command() -> None:
    """List every scenario of every ruleset: name, ruleset, title."""
    from rsr.catalogue import catalogue  # (not through actions: listing must not load the rules)

    rows = catalogue()
    width = max(len(name) for _, name, _ in rows)
    import textwrap

    for ruleset, name, title in rows:
        head = f"{name:<{width}}  {ruleset:<14}  "
        click.echo(textwrap.fill(title, width=80, initial_indent=head, subsequent_indent=" " * len(head),
                                 break_on_hyphens=False, break_long_words=False))


@main.command("completion")
@click.argument("shell", type=click.Choice(SHELLS))
def completion(shell: str) -> None:
    """Print the shell completion script for SHELL (bash, zsh or fish); see README, "Shell completion"."""
    click.echo(completion_script(main, shell), nl=False)


attach(main)  # completion of key names and scenario names on every command that takes them


if __name__ == "__main__":  # pragma: no cover
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()


# -- a player's transcription of the printed sheets (rsr/transcription.py) -------------------------


@main.group(cls=RsrGroup)
def data() -> None:
    """Your own transcription of the printed map, counters and charts, to play on."""


@data.command("export")
@click.argument("ruleset")
@click.argument("kind", type=click.Choice(["map", "counters", "tables", "track", "naval", "naval_map",
                                           "turn_record"]))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the form here (default: standard output).")
@click.option("--scenario", default=None, help="With turn_record (Red Sun/Red Star): the scenario whose turns.")
def data_export(ruleset: str, kind: str, out: Path | None, scenario: str | None = None) -> None:
    """Write rsr's own KIND data of RULESET as a transcription form, one entry per value, provisional ones marked."""
    from rsr import transcription
    from rsr.fileio import atomic_write

    text = transcription.form_text(transcription.export_form(ruleset, kind, scenario))
    if out is None:
        click.echo(text, nl=False)
        return
    if out.is_symlink():
        raise BadInput(f"{out} is a symbolic link; rsr does not write through one")
    atomic_write(out, text.encode())
    click.echo(f"wrote {out}")


@data.command("check")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--all", "show_all", is_flag=True, help="List every value still provisional, not just a count.")
def data_check(file: Path, show_all: bool) -> None:
    """Check a transcription: its form, and every value the rulebooks pin; list what stays provisional."""
    from rsr import transcription

    read, result = transcription.check(file)
    say(f"{visible(str(file))}: {read.ruleset} {read.kind}, {plural(result.copied, 'value')} transcribed, "
        f"{len(result.changed)} {'differs' if len(result.changed) == 1 else 'differ'} from rsr's; none "
        "contradicts a value the rules pin")
    for at, label, old, new in result.changed:  # (the file may be the opponent's: escaped, bounded, wrapped)
        say(f"  {transcription.bounded(label, 100)} ({transcription.bounded(at, 100)}): "
            f"{transcription.shown_value(old)} -> {transcription.shown_value(new)}")
    shown = result.provisional if show_all else result.provisional[:10]
    click.echo(f"still provisional: {plural(len(result.provisional), 'value')}")
    for label in shown:
        click.echo(visible(f"  {label}"))
    if len(shown) < len(result.provisional):
        click.echo(f"  ... and {len(result.provisional) - len(shown)} more (--all lists them)")


@data.command("diff")
@click.argument("invite", type=click.Path(path_type=Path, allow_dash=True))
@click.option("--provisional", "list_provisional", is_flag=True,
              help="Also list every value that stays provisional, not just how many.")
def data_diff(invite: Path, list_provisional: bool) -> None:
    """Every value an invitation's transcription replaces (INVITE: a file, an email, a game directory or -)."""
    from rsr.terms import read_invitation, transcription_lines

    packet = read_invitation(invite)
    lines = transcription_lines(packet, None, list_provisional)
    if not lines:
        say(f"game {packet.game[:8]} is played on rsr's own data: no transcription")
    for line in lines:
        say(line)


@data.command("show")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The picture to write: .svg or .png.")
def data_show(file: Path, out: Path) -> None:
    """Draw the whole map with a map transcription applied and every hex numbered (transcribed hexes marked T)."""
    from rsr import transcription
    from rsr.draw import svg_to_png
    from rsr.draw.transcribed import map_svg
    from rsr.fileio import atomic_write

    if out.suffix.lower() not in (".svg", ".png"):
        raise BadInput(f"--out {out}: the picture must be .svg or .png")
    if out.is_symlink():
        raise BadInput(f"{out} is a symbolic link; rsr does not write through one")
    read, _ = transcription.check(file)
    svg = map_svg(read, str(file))
    atomic_write(out, svg_to_png(svg, 1.0) if out.suffix.lower() == ".png" else svg.encode())
    click.echo(f"wrote {out}")
