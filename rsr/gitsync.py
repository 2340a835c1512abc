"""Playing through a shared git repository (docs/playing-by-git.md).

Each player keeps a clone; a game is a game directory in it. ``rsr submit --git`` commits the new packet
(``--push`` pushes); reports, game.yaml and disputes are local files, ignored, never committed.
``rsr receive --git`` fetches and checks **every** change the remote brings (``git diff -z --raw``, names
never quoted) *before* merging: only new packet files in a game's ``turns/`` are taken, each checked in full
against that game's log; a deletion, a rename, an edit of an old file, a symbolic link, an attribute file
rsr did not write or any other file refuses the merge with one line. Blob sizes are
checked before a blob is read and the number of changes is bounded. ``.gitattributes`` marks packets
``-text`` so that no git setting rewrites their line ends. Two different packets for one seq are refused
with a clear message, and when one key signed both, the equivocation proof is written to ``disputes/``.

git is run as the ``git`` executable; its own error text is passed on in one line.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from rsr import games as game_actions
from rsr import reports as report_actions
from rsr.errors import BadInput, RulesError, VerificationError, printable
from rsr.fileio import atomic_write, game_locked, read_limited
from rsr.gamedir import conflict, load_log, log_keys
from rsr.log import Replay, check_last_inputs, extend, my_side, pending_pass, replay
from rsr.packet import Packet, check_self_signature, extract_blocks, open_packet, self_signed_key

ATTRIBUTES = ["*.rsr -text", "*.eml -text"]
ATTRIBUTES_NOTE = "# rsr: packets are signed bytes; git must never change their line ends"
GIT_TIMEOUT = 300
MAX_CHANGES = 5000  # files one merge may bring; a repository that adds more is refused unread
MAX_PACKET_BLOB = 8 * 1024 * 1024  # as a packet file on disk (rsr.gamedir.MAX_PACKET_FILE)
MAX_SMALL_BLOB = 64 * 1024  # .gitignore, .gitattributes
LOCAL_NAMES = ("reports/", "game.yaml", "disputes/")  # derived from the packets, rewritten by every command
PACKET_NAME = re.compile(r"^[0-9]{4,7}-[a-z][a-z0-9_]{0,31}-(?:invite|accept|[0-9a-f]{8})\.rsr$")
GAME_NAME = re.compile(r"^game-[0-9a-f]{8}$")
LINK_MODE = "120000"
SUBMODULE_MODE = "160000"


def git_exe() -> str:
    found = shutil.which("git")
    if found is None:
        raise BadInput("git is not installed or not on PATH (needed for --git); install git or play by email")
    return found


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    try:
        run = subprocess.run([git_exe(), *args], cwd=repo, capture_output=True, text=True, timeout=GIT_TIMEOUT,
                             check=False)
    except subprocess.TimeoutExpired as exc:
        raise BadInput(f"git {args[0]} did not finish within {GIT_TIMEOUT} s (network?)") from exc
    if check and run.returncode != 0:
        lines = [line.strip() for line in (run.stderr or run.stdout).splitlines() if line.strip()]
        detail = "; ".join(lines[-3:]) or f"exit status {run.returncode}"
        raise BadInput(f"git {args[0]} failed in {repo}: {detail}")
    return run


def git_bytes(repo: Path, *args: str, limit: int = 64 * 1024 * 1024) -> bytes:
    """git's standard output as bytes (names as they are, never quoted), of bounded size."""
    try:
        run = subprocess.run([git_exe(), "-c", "core.quotePath=false", *args], cwd=repo, capture_output=True,
                             timeout=GIT_TIMEOUT, check=False)
    except subprocess.TimeoutExpired as exc:
        raise BadInput(f"git {args[0]} did not finish within {GIT_TIMEOUT} s") from exc
    if run.returncode != 0:
        lines = [line.strip() for line in run.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        raise BadInput(f"git {args[0]} failed in {repo}: {printable('; '.join(lines[-3:]), 300)}")
    if len(run.stdout) > limit:
        raise BadInput(f"git {args[0]} wrote more than {limit} bytes; refused")
    return run.stdout


def toplevel(path: Path) -> Path | None:
    """The work tree ``path`` is in, or None."""
    probe = path if path.is_dir() else path.parent
    run = git(probe, "rev-parse", "--show-toplevel", check=False)
    return Path(run.stdout.strip()) if run.returncode == 0 else None


def repo_of(game_dir: Path) -> Path:
    top = toplevel(game_dir)
    if top is None:
        raise BadInput(f"{game_dir} is not inside a git repository (clone the shared repository, "
                       "or start the game with 'rsr new --git')")
    return top


def regular_or_missing(path: Path) -> bool:
    """Whether ``path`` is a regular file (True) or absent (False); a link or anything else is refused."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(info.st_mode):
        raise BadInput(f"{path} is a symbolic link; rsr never reads or writes through a link (remove it)")
    if not stat.S_ISREG(info.st_mode):
        raise BadInput(f"{path} is not a regular file; rsr refuses to use it (remove it)")
    return True


def foreign_attributes(text: str) -> list[str]:
    """Lines of a .gitattributes that rsr did not write (an attribute can rewrite or filter what git checks
    out: working-tree-encoding, filter, eol, ident)."""
    return [line for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#") and line not in ATTRIBUTES]


def ensure_attributes(repo: Path) -> Path:
    """``.gitattributes`` at the top of the repository keeps packet files byte-exact; rsr owns it."""
    path = repo / ".gitattributes"
    text = read_limited(path, MAX_SMALL_BLOB, ".gitattributes").decode("utf-8", "replace") \
        if regular_or_missing(path) else ""
    foreign = foreign_attributes(text)
    if foreign:
        raise BadInput(f"{path} holds a line rsr did not write ({printable(foreign[0])}); git attributes can "
                       "rewrite packets as they are checked out: remove the line")
    lines = text.splitlines()
    missing = [line for line in ATTRIBUTES if line not in lines]
    if missing:
        prefix = [ATTRIBUTES_NOTE] if ATTRIBUTES_NOTE not in lines else []
        atomic_write(path, ("\n".join(lines + prefix + missing) + "\n").encode(), root=repo)
    return path


def check_repo_safe(repo: Path, game_dir: Path) -> None:
    """Before rsr signs or commits anything in a shared repository: no link where rsr reads or writes, no
    link committed in the game, no attribute file rsr did not write."""
    rel = game_dir.resolve().relative_to(repo.resolve())
    for path in (repo / ".gitattributes", game_dir / ".gitignore", game_dir / "local.yaml"):
        regular_or_missing(path)
    for name in ("turns", "reports", "outbox", "disputes"):
        path = game_dir / name
        if path.is_symlink():
            raise BadInput(f"{path} is a symbolic link; rsr never reads or writes through a link (remove it)")
    listed = git_bytes(repo, "ls-files", "-s", "-z", "--", str(rel), ".gitattributes")
    for entry in listed.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_name = entry.partition(b"\t")
        name = raw_name.decode("utf-8", "surrogateescape")
        mode = meta.split(b" ")[0].decode()
        if mode in (LINK_MODE, SUBMODULE_MODE):
            raise BadInput(f"{printable(name)} is committed as a symbolic link or submodule; rsr refuses a "
                           "game that holds one (remove it)")
        if Path(name).name == ".gitattributes" and name != ".gitattributes":
            raise BadInput(f"{printable(name)}: a .gitattributes inside the game; rsr refuses it (remove it)")
    if regular_or_missing(repo / ".gitattributes"):
        ensure_attributes_readonly(repo)


def ensure_attributes_readonly(repo: Path) -> None:
    text = read_limited(repo / ".gitattributes", MAX_SMALL_BLOB, ".gitattributes").decode("utf-8", "replace")
    foreign = foreign_attributes(text)
    if foreign:
        raise BadInput(f"{repo / '.gitattributes'} holds a line rsr did not write ({printable(foreign[0])}); git "
                       "attributes can rewrite packets as they are checked out: remove the line")


def init_repo(parent: Path, remote: str | None) -> Path:
    """The repository ``parent`` is in; a new one when it is in none (``rsr new --git``)."""
    parent.mkdir(parents=True, exist_ok=True)
    repo = toplevel(parent)
    if repo is None:
        git(parent, "init", "-q")
        repo = toplevel(parent)
        assert repo is not None
    if remote:
        current = git(repo, "remote", "get-url", "origin", check=False)
        if current.returncode != 0:
            git(repo, "remote", "add", "origin", remote)
        elif current.stdout.strip() != remote:
            raise BadInput(f"{repo} already has origin {current.stdout.strip()}, not {remote}")
    return repo


def commit_message(packet: Packet, game_dir: Path) -> str:
    what = "invitation" if packet.seq == 0 else "acceptance" if packet.seq == 1 else "packet"
    return (f"rsr({game_dir.name}): {what} {packet.seq} by {packet.side}\n\n"
            f"Rsr-Game: {packet.game}\nRsr-Seq: {packet.seq}\nRsr-Side: {packet.side}\n"
            f"Rsr-Packet-Sha256: {packet.hash_hex}\n")


def commit_game(game_dir: Path, packet: Packet) -> str:
    """Commit the game's packets and its .gitignore with a message naming game, seq and side. Reports,
    game.yaml and disputes are local: ignored, and untracked when an older rsr had committed them."""
    from rsr import contacts

    repo = repo_of(game_dir)
    check_repo_safe(repo, game_dir)
    contacts.ignore_local_files(game_dir)
    attributes = ensure_attributes(repo)
    rel = game_dir.resolve().relative_to(repo.resolve())
    paths = [str(attributes.relative_to(repo)), str(rel / "turns"), str(rel / ".gitignore")]
    git(repo, "rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", *derived_files(game_dir, repo))
    git(repo, "add", "--", *paths)
    staged = git(repo, "diff", "--cached", "--quiet", check=False)
    if staged.returncode == 0:
        raise BadInput(f"nothing to commit in {game_dir}")
    git(repo, "commit", "-q", "-m", commit_message(packet, game_dir))
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def upstream(repo: Path) -> str | None:
    """The remote-tracking branch this branch follows (``origin/main``), or origin/<branch> if that exists."""
    run = git(repo, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}", check=False)
    if run.returncode == 0:
        return run.stdout.strip()
    branch = git(repo, "rev-parse", "--abbrev-ref", "HEAD", check=False).stdout.strip()
    candidate = f"origin/{branch}"
    if git(repo, "rev-parse", "--verify", "-q", candidate, check=False).returncode == 0:
        return candidate
    return None


def has_remote(repo: Path) -> bool:
    return bool(git(repo, "remote").stdout.split())


def fetch(repo: Path) -> str | None:
    if not has_remote(repo):
        raise BadInput(f"{repo} has no remote to exchange with (git remote add origin URL)")
    git(repo, "fetch", "-q", "--all")
    return upstream(repo)


@dataclass(frozen=True)
class Change:
    """One line of ``git diff -z --raw --no-renames``."""

    old_mode: str
    new_mode: str
    new_sha: str
    status: str
    path: str  # as committed (UTF-8, undecodable bytes kept as surrogates), never quoted


def parse_raw(raw: bytes) -> list[Change]:
    fields = raw.split(b"\0")
    changes = []
    index = 0
    while index + 1 < len(fields) and fields[index]:
        meta = fields[index].decode("ascii", "replace").lstrip(":").split()
        if len(meta) != 5:
            line = fields[index].decode("ascii", "replace")
            raise BadInput(f"git diff --raw gave an unexpected line: {printable(line)}")
        old_mode, new_mode, _old_sha, new_sha, status = meta
        changes.append(Change(old_mode, new_mode, new_sha, status[:1],
                              fields[index + 1].decode("utf-8", "surrogateescape")))
        index += 2
    return changes


@dataclass
class Incoming:
    """What a remote ref brings, sorted by game directory (relative to the repository)."""

    packets: dict[str, list[Change]] = field(default_factory=dict)
    other: int = 0  # accepted changes that are not packets (.gitignore, .gitattributes, untracked reports)


def _refuse(change: Change, ref: str, why: str) -> BadInput:
    return BadInput(f"{ref} {why}: {printable(change.path, 120)}; nothing was merged")


def blob(repo: Path, sha: str, limit: int, name: str) -> bytes:
    """A blob's bytes, its size checked with ``git cat-file -s`` before anything is read."""
    size_text = git(repo, "cat-file", "-s", sha).stdout.strip()
    if not size_text.isdigit() or int(size_text) > limit:
        raise BadInput(f"{printable(name, 120)} is {size_text} bytes in the remote; at most {limit}: "
                       "nothing was merged")
    return git_bytes(repo, "cat-file", "blob", sha, limit=limit)


def ignore_lines_ok(text: str) -> bool:
    from rsr import contacts

    return all(not line.strip() or line in contacts.IGNORED for line in text.splitlines())


def vet_changes(repo: Path, ref: str) -> Incoming:
    """Every change ``ref`` brings since the common ancestor, each allowed or refused:
    new packet files in a game's turns/ (kept for a full check), rsr's own .gitignore and .gitattributes
    lines, and the removal of files an older rsr committed (reports, game.yaml). Anything else refuses."""
    base_run = git(repo, "merge-base", "HEAD", ref, check=False)
    if base_run.returncode != 0:
        raise BadInput(f"{ref} shares no history with this clone; nothing was merged")
    base = base_run.stdout.strip()
    changes = parse_raw(git_bytes(repo, "diff", "-z", "--raw", "--no-renames", "--no-abbrev", "--no-ext-diff",
                                  "--no-textconv", base, ref))
    if len(changes) > MAX_CHANGES:
        raise BadInput(f"{ref} brings {len(changes)} changed files; rsr checks at most {MAX_CHANGES}: "
                       "nothing was merged")
    found = Incoming()
    for change in changes:
        parts = change.path.split("/")
        if any(not part.isprintable() for part in parts) or any(part in ("", ".", "..") for part in parts):
            raise _refuse(change, ref, "holds a file name with control characters")
        if LINK_MODE in (change.new_mode, change.old_mode) or SUBMODULE_MODE in (change.new_mode, change.old_mode):
            raise _refuse(change, ref, "holds a symbolic link or submodule; rsr never reads through a link")
        if parts[-1] == ".gitattributes":
            if change.path != ".gitattributes" or change.status not in "AM" or change.new_mode != "100644":
                raise _refuse(change, ref, "changes git attributes in a way rsr never does")
            text = blob(repo, change.new_sha, MAX_SMALL_BLOB, change.path).decode("utf-8", "replace")
            if foreign_attributes(text):
                foreign = printable(foreign_attributes(text)[0])
                raise _refuse(change, ref, f"adds an attribute rsr did not write ({foreign})")
            found.other += 1
            continue
        at = next((i for i, part in enumerate(parts[:-1]) if GAME_NAME.match(part)), None)
        if at is None:
            raise _refuse(change, ref, "changes a file that is no game's")
        game_rel, rest = "/".join(parts[:at + 1]), parts[at + 1:]
        if rest == [".gitignore"]:
            if change.status not in "AM" or change.new_mode != "100644":
                raise _refuse(change, ref, "deletes or changes the mode of a game's .gitignore")
            text = blob(repo, change.new_sha, MAX_SMALL_BLOB, change.path).decode("utf-8", "replace")
            if not ignore_lines_ok(text):
                raise _refuse(change, ref, "writes a .gitignore rsr did not write")
            found.other += 1
        elif len(rest) == 2 and rest[0] == "turns":
            if change.status != "A":
                what = {"D": "deletes", "M": "changes", "T": "changes the type of"}.get(change.status, "changes")
                raise _refuse(change, ref, f"{what} a turn file already in the log")
            if change.new_mode != "100644" or not PACKET_NAME.match(rest[1]):
                raise _refuse(change, ref, "adds a turn file that is not named NNNN-side-tag.rsr")
            found.packets.setdefault(game_rel, []).append(change)
        elif rest and (rest[0] in ("reports", "disputes") or rest == ["game.yaml"]) and change.status == "D":
            found.other += 1  # an older rsr committed these; they are local now
        else:
            raise _refuse(change, ref, "changes a file rsr does not own (only new packets in turns/ are taken)")
    return found


def blob_packets(repo: Path, game_dir: Path, changes: list[Change], ref: str) -> list[Packet]:
    """The packet files ``changes`` add to this game, read (size checked first) and opened."""
    texts = [blob(repo, c.new_sha, MAX_PACKET_BLOB, c.path).decode("utf-8", errors="replace")
             for c in sorted(changes, key=lambda c: c.path)]
    log = load_log(game_dir)
    keys = log_keys(log)
    blocks = []
    try:
        for text in texts:
            found = extract_blocks(text)
            if len(found) != 1:
                raise VerificationError(f"a turn file holds {len(found)} packets, not one")
            blocks += found
        packets = []
        for block in sorted(blocks, key=lambda b: not b.headers.get("Seq", "").startswith(("0 ", "1 "))):
            if block.headers.get("Seq", "").startswith(("0 ", "1 ")):
                packet = open_packet(block, None)  # the invitation and acceptance introduce their keys
                check_self_signature(packet)
                if packet.seq == 1 and len(log) == 1 and packet.payload.get("prev") == log[0].hash_hex:
                    keys.setdefault(packet.side, self_signed_key(packet))
            else:
                packet = open_packet(block, keys)
            packets.append(packet)
    except (BadInput, VerificationError) as exc:
        raise VerificationError(f"{ref} holds a packet for {game_dir.name} that does not verify ({exc}); "
                                "nothing was merged") from exc
    named = {Path(c.path).name for c in changes}
    if any(p.file_name() not in named for p in packets):
        raise VerificationError(f"{ref} holds a packet of {game_dir.name} under another packet's file name; "
                                "nothing was merged")
    return packets


def remote_packets(repo: Path, game_dir: Path, ref: str) -> list[Packet]:
    """The packet files ``ref`` adds to this game since the common ancestor, parsed (every change vetted)."""
    rel = str(game_dir.resolve().relative_to(repo.resolve()))
    return blob_packets(repo, game_dir, vet_changes(repo, ref).packets.get(rel, []), ref)


def check_new_game(repo: Path, game_rel: str, changes: list[Change], ref: str) -> None:
    """A game this clone does not hold yet: its packets must make a whole log that replays."""
    with tempfile.TemporaryDirectory(prefix="rsr-git-") as tmp:
        turns = Path(tmp) / Path(game_rel).name / "turns"
        turns.mkdir(parents=True)
        for change in changes:
            (turns / Path(change.path).name).write_bytes(blob(repo, change.new_sha, MAX_PACKET_BLOB, change.path))
        try:
            check_last_inputs(replay(load_log(turns.parent)))
        except (BadInput, VerificationError, RulesError) as exc:
            raise VerificationError(f"{ref}: the new game {printable(game_rel)} does not verify ({exc}); "
                                    "nothing was merged") from exc


def check_game(repo: Path, game_dir: Path, changes: list[Change], ref: str,
               key_name: str | None) -> tuple[list[Packet], Replay, Replay]:
    """New packets of one game: they extend its log, verify and (where this player holds a key) apply
    under the rules with this player's reveal, as ``rsr receive`` requires; else nothing is merged."""
    before = game_actions.load_game(game_dir)
    incoming = check_remote(game_dir, blob_packets(repo, game_dir, changes, ref), ref)
    after = before
    if incoming:
        expect = len(before.packets)
        if incoming[0].seq != expect:
            raise VerificationError(f"{ref} has packet {incoming[0].seq} of {game_dir.name} but the log has "
                                    f"{expect} packets; nothing was merged")
        try:  # every new packet verifies and obeys the rules before anything is merged
            after = extend(before, incoming)
            resolver = game_actions.own_key(after, key_name)
            if resolver is not None and my_side(after, resolver) == after.next_author():
                pending_pass(after, resolver)
            else:
                check_last_inputs(after)
        except (VerificationError, RulesError) as exc:
            raise VerificationError(f"{ref}: packet {incoming[-1].seq} of {game_dir.name} is rejected ({exc}); "
                                    "nothing was merged") from exc
    return incoming, before, after


def check_merge_clean(repo: Path, ref: str) -> None:
    """``git merge-tree``: the merge is tried in the object store first; a conflict refuses it unmerged."""
    run = git(repo, "merge-tree", "--write-tree", "--name-only", "HEAD", ref, check=False)
    if run.returncode == 1:
        lines = run.stdout.splitlines()[1:]
        named = next((line for line in lines if line.strip()), "?")
        raise BadInput(f"merging {ref} would conflict ({printable(named, 120)}); nothing was merged")
    if run.returncode != 0:
        raise BadInput(f"git merge-tree failed: {printable(run.stderr.strip(), 200)}")


def check_remote(game_dir: Path, packets: list[Packet], ref: str) -> list[Packet]:
    """Refuse before merging: a different packet at a seq we hold, or two for one new seq."""
    log = load_log(game_dir)
    new: list[Packet] = []
    for packet in sorted(packets, key=lambda p: (p.seq, p.payload_bytes)):
        if packet.game != log[0].game:
            raise VerificationError(f"{ref} holds a packet of game {packet.game} in {game_dir.name}")
        if packet.seq < len(log):
            if packet.payload_bytes != log[packet.seq].payload_bytes:
                error = conflict(game_dir, log, packet)
                raise VerificationError(f"{error} (yours is in your clone, the other came with {ref}; "
                                        "nothing was merged)")
        elif new and new[-1].seq == packet.seq:
            raise conflict(game_dir, log + new, packet)
        else:
            new.append(packet)
    return new


@dataclass
class Pulled:
    new: list[Packet]
    reports: list[Path]
    ref: str | None


def derived_files(game_dir: Path, repo: Path) -> list[str]:
    rel = game_dir.resolve().relative_to(repo.resolve())
    return [str(rel / "reports"), str(rel / "game.yaml"), str(rel / "disputes")]


def checked_merge(repo: Path, game_dir: Path, ref: str,
                  key_name: str | None) -> tuple[list[Packet], Replay, list[str]]:
    """Vet every change ``ref`` brings, check this game's and any other game's new packets, try the merge,
    then merge. Called inside this game's lock; returns this game's new packets, its replay after, and the
    packet files the merge brought (of every game)."""
    check_repo_safe(repo, game_dir)
    vetted = vet_changes(repo, ref)
    rel = str(game_dir.resolve().relative_to(repo.resolve()))
    incoming, _, after = check_game(repo, game_dir, vetted.packets.get(rel, []), ref, key_name)
    for other_rel, changes in sorted(vetted.packets.items()):
        if other_rel == rel:
            continue
        other = repo / other_rel
        if (other / "turns").is_dir() and not other.is_symlink():
            check_game(repo, other, changes, ref, None)
        elif other.exists() or other.is_symlink():
            raise BadInput(f"{ref} adds packets to {printable(other_rel)}, which is not a game directory here; "
                           "nothing was merged")
        else:
            check_new_game(repo, other_rel, changes, ref)
    if git(repo, "merge-base", "--is-ancestor", ref, "HEAD", check=False).returncode != 0:
        check_merge_clean(repo, ref)
        # reports, game.yaml and disputes are regenerated from the packets; never let them block a merge
        tracked = [p for p in derived_files(game_dir, repo)
                   if git(repo, "ls-files", "--error-unmatch", "--", p, check=False).returncode == 0]
        if tracked:
            git(repo, "checkout", "-q", "HEAD", "--", *tracked)
        merge(repo, ref)
    return incoming, after, sorted(c.path for changes in vetted.packets.values() for c in changes)


def pull_game(game_dir: Path, key_name: str | None) -> Pulled:
    """``rsr receive --git``: fetch, check everything the remote brings, merge, write the reports.

    Everything is decided inside the game lock on the log read inside it; otherwise nothing is merged.
    """
    repo = repo_of(game_dir)
    check_repo_safe(repo, game_dir)
    ref = fetch(repo)
    if ref is None:
        return Pulled([], [], None)
    with game_locked(game_dir):
        incoming, after, _ = checked_merge(repo, game_dir, ref, key_name)
        if incoming:
            game_actions.remember(after)
        reports = report_actions.write_reports(game_dir, key_name, after)
    return Pulled(list(incoming), reports, ref)


def merge(repo: Path, ref: str) -> None:
    run = git(repo, "merge", "-q", "--no-edit", ref, check=False)
    if run.returncode != 0:
        git(repo, "merge", "--abort", check=False)
        lines = [line.strip() for line in (run.stderr or run.stdout).splitlines() if line.strip()]
        raise BadInput(f"git merge {ref} failed in {repo} and was undone: {'; '.join(lines[-3:])}")


def unreceived(game_dir: Path) -> list[Packet]:
    """Packets of this game the remote holds and this clone has not merged (fetches first)."""
    repo = repo_of(game_dir)
    ref = fetch(repo)
    if ref is None:
        return []
    return check_remote(game_dir, remote_packets(repo, game_dir, ref), ref)


def push(repo: Path, game_dir: Path, key_name: str | None = None) -> tuple[str, list[Packet], list[str]]:
    """Push this branch; when the remote moved on, check everything it brought as ``receive --git`` does,
    merge it and retry. Returns where it went, the packets of this game the merge brought, and every packet
    file it brought."""
    ref = upstream(repo)
    target = ["-u", "origin", "HEAD"] if ref is None else []
    run = git(repo, "push", "-q", *target, check=False)
    merged: list[Packet] = []
    files: list[str] = []
    if run.returncode != 0:
        ref = fetch(repo)
        if ref is None:
            raise BadInput(f"git push failed in {repo}: {run.stderr.strip().splitlines()[-1:]}")
        with game_locked(game_dir):
            incoming = check_remote(game_dir, remote_packets(repo, game_dir, ref), ref)
            if incoming:
                raise BadInput(f"{ref} has packets of {game_dir.name} you have not received; run "
                               f"'rsr receive {game_dir} --git'")
            merged, _, files = checked_merge(repo, game_dir, ref, key_name)
        git(repo, "push", "-q", *target)
    return upstream(repo) or "origin", merged, files
