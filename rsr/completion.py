"""Shell completion (``rsr completion bash|zsh|fish``): scenario names, key names and game directories.

Click generates the shell script; the parameter types here add the values only rsr knows. Completion
runs on every TAB, so it reads folder listings and the first lines of files, never whole scenarios.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click
from click.shell_completion import CompletionItem, get_completion_class

SHELLS = ("bash", "zsh", "fish")
COMPLETE_VAR = "_RSR_COMPLETE"
_INCLUDE_LINE = re.compile(r"^include:", re.MULTILINE)


def completion_script(cli: click.Command, shell: str) -> str:
    """The script that, sourced by ``shell``, completes ``rsr`` command lines."""
    cls = get_completion_class(shell)
    if cls is None:
        raise click.BadParameter(f"no completion for shell {shell!r} (use one of {', '.join(SHELLS)})")
    return cls(cli, {}, "rsr", COMPLETE_VAR).source()


def scenario_names(ruleset: str | None = None) -> list[tuple[str, str]]:
    """(ruleset, scenario) pairs from the installed data; a scenario file is one with an ``include:`` line."""
    from rsr.data import scenarios_dir

    root = scenarios_dir()
    folders = [root / ruleset] if ruleset else sorted(p for p in root.iterdir() if p.is_dir())
    found = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.yaml")):
            with path.open(encoding="utf-8", errors="replace") as handle:
                head = handle.read(8192)
            if _INCLUDE_LINE.search(head):
                found.append((folder.name, path.stem))
    return found


def is_game_dir(path: Path) -> bool:
    return (path / "turns").is_dir()


def game_dirs(incomplete: str) -> list[str]:
    """Game directories whose path starts with ``incomplete``, and those one level below a matching folder
    (``games/game-...`` from the folder that holds ``games/``)."""
    base, sep, prefix = incomplete.rpartition("/")
    parent = Path(base + sep) if sep else Path(".")
    try:
        entries = sorted(parent.iterdir())
    except OSError:
        return []
    found = []
    for entry in entries:
        if not entry.name.startswith(prefix) or not entry.is_dir() or entry.name.startswith("."):
            continue
        shown = f"{base}{sep}{entry.name}"
        if is_game_dir(entry):
            found.append(shown)
            continue
        try:
            children = sorted(entry.iterdir())
        except OSError:
            continue
        found += [f"{shown}/{child.name}" for child in children if child.is_dir() and is_game_dir(child)]
    return found


class GameDirPath(click.Path):
    """A game directory argument; TAB offers game directories, then falls back to the shell's folders."""

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        found = game_dirs(incomplete)
        if found:
            return [CompletionItem(path) for path in found]
        return [CompletionItem(incomplete, type="dir")]


class KeyName(click.ParamType):
    """The name of a key in the key store (``$RSR_HOME/keys``)."""

    name = "key"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return value

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        from rsr import keys as keystore

        try:
            names = keystore.key_names()
        except OSError:
            return []
        return [CompletionItem(name) for name in names if name.startswith(incomplete)]


class ScenarioName(click.ParamType):
    """A scenario name; TAB offers the scenarios of the ``--ruleset`` given so far (all if none)."""

    name = "scenario"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return value

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        ruleset = ctx.params.get("ruleset") or ctx.params.get("ruleset_id")
        try:
            pairs = scenario_names(ruleset if isinstance(ruleset, str) else None)
        except (OSError, RuntimeError):
            return []
        names = sorted({name for _, name in pairs})
        return [CompletionItem(name) for name in names if name.startswith(incomplete)]


def attach(group: click.Group) -> None:
    """Give every ``--key`` option, ``key show NAME`` and every ``--scenario`` option its completion."""
    for command in group.commands.values():
        if isinstance(command, click.Group):
            attach(command)
            continue
        for param in command.params:
            if param.name == "key_name" or (group.name == "key" and command.name == "show" and param.name == "name"):
                param.type = KeyName()
            elif param.name == "scenario":
                param.type = ScenarioName()

