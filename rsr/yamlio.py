"""YAML as people write it (orders, scenario data), loaded safely.

Safe loader only; anchors and aliases are refused (no YAML bombs); only ``true``/``false`` are booleans
(YAML 1.1 would read ``no``, ``on``, ``yes`` as booleans, turning a Norwegian side or an order to
"move on" into ``False``); size and nesting are bounded. Errors name the file and the line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from rsr.errors import BadInput, printable

MAX_YAML_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 64


class _StrictLoader(yaml.SafeLoader):
    pass


# rebuild the implicit resolvers without the YAML 1.1 booleans
_StrictLoader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_StrictLoader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|false)$"), list("tf"))


def _compose_node(self: _StrictLoader, parent: Any, index: Any) -> Any:
    if self.check_event(yaml.events.AliasEvent):
        event = self.peek_event()
        raise yaml.composer.ComposerError(None, None, "anchors and aliases are not allowed", event.start_mark)
    depth = getattr(self, "_depth", 0) + 1
    if depth > MAX_DEPTH:
        raise yaml.composer.ComposerError(None, None, f"nested deeper than {MAX_DEPTH} levels",
                                          self.peek_event().start_mark)
    self._depth = depth  # type: ignore[attr-defined]
    try:
        return yaml.composer.Composer.compose_node(self, parent, index)
    finally:
        self._depth = depth - 1  # type: ignore[attr-defined]


_StrictLoader.compose_node = _compose_node  # type: ignore[method-assign,assignment]


def load_yaml_text(text: str, where: str) -> Any:
    if len(text) > MAX_YAML_BYTES:
        raise BadInput(f"{where}: {len(text)} characters; at most {MAX_YAML_BYTES}")
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f" line {mark.line + 1}" if mark else ""
        raise BadInput(f"{where}:{line}: {_one_line(str(exc.problem or exc.context))}") from exc
    except yaml.YAMLError as exc:  # e.g. a ReaderError (a control character), whose text spans lines
        raise BadInput(f"{where}: not valid YAML ({_one_line(str(exc))})") from exc
    except RecursionError as exc:
        raise BadInput(f"{where}: nested too deeply") from exc
    except (ValueError, TypeError, OverflowError) as exc:  # an explicit tag on a value it cannot build: !!int x
        raise BadInput(f"{where}: a value cannot be read ({_one_line(str(exc))})") from exc


def _one_line(text: str) -> str:
    """A YAML error's text on one line, without control characters."""
    return printable(" ".join(text.split()), 200)


def load_yaml_file(path: Path) -> Any:
    from rsr.fileio import read_limited

    try:
        text = read_limited(path, MAX_YAML_BYTES, "YAML file").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{path}: not UTF-8 text") from exc
    return load_yaml_text(text, str(path))


def dump_yaml(value: Any) -> str:
    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=100)
