"""The strict YAML loader classes (rsr.yamlio imports this module on first use; PyYAML is slow to import)."""

from __future__ import annotations

import re
from typing import Any

import yaml

MAX_DEPTH = 64  # the deepest nesting a YAML document may have


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

# Orders read hexes as the text the player wrote: a plain scalar of four digits (``2007``, ``0414``) or
# any number written with a leading zero (``012``) stays text, never a number and never octal (YAML 1.1
# reads ``0414`` as 268). Naval hex numbers (``7``, ``63``) and every other count stay whole numbers.
HEX_TEXT = re.compile(r"^(?:[0-9]{4}|0[0-9_]+)$")


def _hex_resolvers(resolvers: dict[Any, Any]) -> dict[Any, Any]:
    table = {key: list(items) for key, items in resolvers.items()}
    for digit in "0123456789":
        table[digit] = [("tag:yaml.org,2002:str", HEX_TEXT)] + table.get(digit, [])
    return table


class _StrictHexLoader(_StrictLoader):
    pass


_StrictHexLoader.yaml_implicit_resolvers = _hex_resolvers(_StrictLoader.yaml_implicit_resolvers)

# The same strict reading through libyaml's C parser where PyYAML has it (about ten times faster on the
# scenario files). The C composer cannot be hooked, so the composed node graph is checked afterwards
# (_check_nodes: no alias, bounded depth, no duplicate key); libyaml bounds its own nesting while parsing.
_CLoader: type | None = None
_CHexLoader: type | None = None
if getattr(yaml, "__with_libyaml__", False):
    class _StrictCLoader(yaml.CSafeLoader):
        pass

    _StrictCLoader.yaml_implicit_resolvers = _StrictLoader.yaml_implicit_resolvers
    _CLoader = _StrictCLoader

    class _StrictHexCLoader(yaml.CSafeLoader):
        pass

    _StrictHexCLoader.yaml_implicit_resolvers = _StrictHexLoader.yaml_implicit_resolvers
    _CHexLoader = _StrictHexCLoader


def _check_nodes(root: Any) -> None:
    """Refuse what the strict loader refuses, on a composed node graph: an alias (a node reached twice),
    nesting deeper than MAX_DEPTH, and a key given twice in one mapping (YAML would keep the last).

    Nodes are visited in document order, so an alias is reported where it is used (at its key or list)."""
    seen: set[int] = set()
    stack: list[tuple[Any, int, Any]] = [(root, 1, root.start_mark)]
    while stack:
        node, depth, where = stack.pop()
        if id(node) in seen:
            raise yaml.composer.ComposerError(None, None, "anchors and aliases are not allowed", where)
        seen.add(id(node))
        if depth > MAX_DEPTH:
            raise yaml.composer.ComposerError(None, None, f"nested deeper than {MAX_DEPTH} levels", node.start_mark)
        children: list[tuple[Any, int, Any]] = []
        if isinstance(node, yaml.MappingNode):
            keys: set[tuple[str, str]] = set()
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if (key.tag, key.value) in keys:
                        raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key.value!r}",
                                                                key.start_mark)
                    keys.add((key.tag, key.value))
                children += [(key, depth + 1, key.start_mark), (value, depth + 1, key.start_mark)]
        elif isinstance(node, yaml.SequenceNode):
            children = [(item, depth + 1, node.start_mark) for item in node.value]
        stack.extend(reversed(children))


def strict_load(text: str, hexes: bool = False) -> Any:
    """Load one YAML document with every strict check (see rsr.yamlio); with ``hexes``, four-digit and
    leading-zero numbers stay text (:data:`HEX_TEXT`)."""
    loader = ((_CHexLoader or _StrictHexLoader) if hexes else (_CLoader or _StrictLoader))(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_nodes(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()
