"""YAML as people write it (orders, scenario data), loaded safely.

Safe loader only (libyaml's C parser when PyYAML has it); anchors and aliases are refused (no YAML
bombs), and so is a key given twice in one mapping; only ``true``/``false`` are booleans
(YAML 1.1 would read ``no``, ``on``, ``yes`` as booleans, turning a Norwegian side or an order to
"move on" into ``False``); size and nesting are bounded. Errors name the file and the line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from rsr.errors import BadInput

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

# The same strict reading through libyaml's C parser where PyYAML has it (about ten times faster on the
# scenario files). The C composer cannot be hooked, so the composed node graph is checked afterwards
# (_check_nodes: no alias, bounded depth, no duplicate key); libyaml bounds its own nesting while parsing.
_CLoader: type | None = None
if getattr(yaml, "__with_libyaml__", False):
    class _StrictCLoader(yaml.CSafeLoader):
        pass

    _StrictCLoader.yaml_implicit_resolvers = _StrictLoader.yaml_implicit_resolvers
    _CLoader = _StrictCLoader


def _check_nodes(root: Any) -> None:
    """Refuse what the strict loader refuses, on a composed node graph: an alias (a node reached twice),
    nesting deeper than MAX_DEPTH, and a key given twice in one mapping (YAML would keep the last)."""
    seen: set[int] = set()
    stack: list[tuple[Any, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            raise yaml.composer.ComposerError(None, None, "anchors and aliases are not allowed", node.start_mark)
        seen.add(id(node))
        if depth > MAX_DEPTH:
            raise yaml.composer.ComposerError(None, None, f"nested deeper than {MAX_DEPTH} levels", node.start_mark)
        if isinstance(node, yaml.MappingNode):
            keys: set[tuple[str, str]] = set()
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if (key.tag, key.value) in keys:
                        raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key.value!r}",
                                                                key.start_mark)
                    keys.add((key.tag, key.value))
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, depth + 1) for item in node.value)


def _strict_load(text: str) -> Any:
    loader = (_CLoader or _StrictLoader)(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_nodes(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def load_yaml_text(text: str, where: str) -> Any:
    if len(text) > MAX_YAML_BYTES:
        raise BadInput(f"{where}: {len(text)} characters; at most {MAX_YAML_BYTES}")
    try:
        return _strict_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        # (libyaml puts an error at the end of the input one line past the last; name the last line)
        line = f" line {min(mark.line + 1, text.count(chr(10)) + 1)}" if mark else ""
        raise BadInput(f"{where}:{line}: {exc.problem or exc.context}") from exc
    except yaml.YAMLError as exc:
        raise BadInput(f"{where}: not valid YAML ({exc})") from exc
    except RecursionError as exc:
        raise BadInput(f"{where}: nested too deeply") from exc


def load_yaml_file(path: Path) -> Any:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise BadInput(f"{path}: cannot read ({exc.strerror})") from exc
    if size > MAX_YAML_BYTES:
        raise BadInput(f"{path}: {size} bytes; at most {MAX_YAML_BYTES}")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{path}: not UTF-8 text") from exc
    return load_yaml_text(text, str(path))


def dump_yaml(value: Any) -> str:
    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=100)
