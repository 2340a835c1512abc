"""Playing through a shared git repository (docs/playing-by-git.md).

Each player keeps a clone; a game is a game directory in it. ``rsr submit --git`` commits the new packet
with its reports (``--push`` pushes); ``rsr receive --git`` fetches, checks every packet the remote added to
this game against the log *before* merging (a packet that does not verify is never merged), merges and
writes the reports. ``.gitattributes`` marks packets ``-text`` so that no git setting rewrites their line
ends. Two different packets for one seq are refused with a clear message, and when one key signed both,
the equivocation proof is written to ``disputes/``.

git is run as the ``git`` executable; its own error text is passed on in one line.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from rsr import actions
from rsr.errors import BadInput, RulesError, VerificationError
from rsr.fileio import game_locked
from rsr.game import check_last_inputs, extend, load_log, my_side, pending_pass
from rsr.mail import conflict, log_keys
from rsr.packet import Packet, check_self_signature, extract_blocks, open_packet, self_signed_key

ATTRIBUTES = ["*.rsr -text", "*.eml -text"]
ATTRIBUTES_NOTE = "# rsr: packets are signed bytes; git must never change their line ends"
GIT_TIMEOUT = 300


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


def ensure_attributes(repo: Path) -> Path:
    """``.gitattributes`` at the top of the repository keeps packet files byte-exact."""
    path = repo / ".gitattributes"
    lines = path.read_text().splitlines() if path.exists() else []
    missing = [line for line in ATTRIBUTES if line not in lines]
    if missing:
        prefix = [ATTRIBUTES_NOTE] if ATTRIBUTES_NOTE not in lines else []
        path.write_text("\n".join(lines + prefix + missing) + "\n")
    return path


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
    """Commit the game directory (packets, reports, game.yaml) with a message naming game, seq and side."""
    repo = repo_of(game_dir)
    attributes = ensure_attributes(repo)
    paths = [str(attributes.relative_to(repo)), str(game_dir.resolve().relative_to(repo.resolve()))]
    git(repo, "add", "--", *paths)
    staged = git(repo, "diff", "--cached", "--quiet", "--", *paths, check=False)
    if staged.returncode == 0:
        raise BadInput(f"nothing to commit in {game_dir}")
    git(repo, "commit", "-q", "-m", commit_message(packet, game_dir), "--", *paths)
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


def remote_packets(repo: Path, game_dir: Path, ref: str) -> list[Packet]:
    """The packet files ``ref`` adds to or changes in this game since the common ancestor, parsed."""
    rel = game_dir.resolve().relative_to(repo.resolve()) / "turns"
    names = git(repo, "diff", "--name-only", "--no-renames", "--diff-filter=AM", f"HEAD...{ref}", "--",
                str(rel)).stdout.split("\n")
    texts = []
    for name in sorted(n for n in names if n.endswith(".rsr")):
        blob = subprocess.run([git_exe(), "show", f"{ref}:{name}"], cwd=repo, capture_output=True, check=False,
                              timeout=GIT_TIMEOUT)
        if blob.returncode != 0:
            raise BadInput(f"git show {ref}:{name} failed: {blob.stderr.decode(errors='replace').strip()}")
        texts.append(blob.stdout.decode("utf-8", errors="replace"))
    log = load_log(game_dir)
    keys = log_keys(log)
    blocks = []
    try:
        for text in texts:
            blocks += extract_blocks(text)
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
    return packets


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
    return [str(rel / "reports"), str(rel / "game.yaml")]


def pull_game(game_dir: Path, key_name: str | None) -> Pulled:
    """``rsr receive --git``: fetch, check what is new for this game, merge, write the reports.

    Everything is decided inside the game lock on the log read inside it: the new packets must extend the
    log, verify, and (where this player holds a key) apply under the rules with this player's reveal, as
    ``rsr receive`` requires; otherwise nothing is merged.
    """
    repo = repo_of(game_dir)
    ref = fetch(repo)
    if ref is None:
        return Pulled([], [], None)
    with game_locked(game_dir):
        before = actions.load_game(game_dir)
        incoming = check_remote(game_dir, remote_packets(repo, game_dir, ref), ref)
        after = before
        if incoming:
            expect = len(before.packets)
            if incoming[0].seq != expect:
                raise VerificationError(f"{ref} has packet {incoming[0].seq} of {game_dir.name} but the log has "
                                        f"{expect} packets; nothing was merged")
            try:  # every new packet verifies and obeys the rules before anything is merged
                after = extend(before, incoming)
                resolver = actions.own_key(after, key_name)
                if resolver is not None and my_side(after, resolver) == after.next_author():
                    pending_pass(after, resolver)
                else:
                    check_last_inputs(after)
            except (VerificationError, RulesError) as exc:
                raise VerificationError(f"{ref}: packet {incoming[-1].seq} of {game_dir.name} is rejected ({exc}); "
                                        "nothing was merged") from exc
        # reports and game.yaml are regenerated from the packets; never let them block a merge
        tracked = [p for p in derived_files(game_dir, repo)
                   if git(repo, "ls-files", "--error-unmatch", "--", p, check=False).returncode == 0]
        if tracked:
            git(repo, "checkout", "-q", "HEAD", "--", *tracked)
        git(repo, "clean", "-q", "-f", "--", *derived_files(game_dir, repo))
        merge(repo, ref)
        if incoming:
            actions.remember(after)
        reports = actions.write_reports(game_dir, key_name, after)
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


def push(repo: Path, game_dir: Path) -> str:
    """Push this branch; when the remote moved on with other work, merge it (after checking it) and retry."""
    ref = upstream(repo)
    target = ["-u", "origin", "HEAD"] if ref is None else []
    run = git(repo, "push", "-q", *target, check=False)
    if run.returncode != 0:
        ref = fetch(repo)
        if ref is None:
            raise BadInput(f"git push failed in {repo}: {run.stderr.strip().splitlines()[-1:]}")
        incoming = check_remote(game_dir, remote_packets(repo, game_dir, ref), ref)
        if incoming:
            raise BadInput(f"{ref} has packets of {game_dir.name} you have not received; run "
                           f"'rsr receive {game_dir} --git'")
        merge(repo, ref)
        git(repo, "push", "-q", *target)
    return upstream(repo) or "origin"
