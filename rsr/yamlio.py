"""YAML as people write it (orders, scenario data), loaded safely.

Safe loader only (libyaml's C parser when PyYAML has it); anchors and aliases are refused (no YAML
bombs), and so is a key given twice in one mapping; only ``true``/``false`` are booleans
(YAML 1.1 would read ``no``, ``on``, ``yes`` as booleans, turning a Norwegian side or an order to
"move on" into ``False``); size and nesting are bounded. Errors name the file and the line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rsr.errors import BadInput, printable

MAX_YAML_BYTES = 4 * 1024 * 1024


def load_yaml_text(text: str, where: str, hexes: bool = False) -> Any:
    """One YAML document; with ``hexes`` (orders), ``2007`` and ``0414`` are the hexes they look like,
    text, not numbers (rsr.yamlstrict.HEX_TEXT)."""
    if len(text) > MAX_YAML_BYTES:
        raise BadInput(f"{where}: {len(text)} characters; at most {MAX_YAML_BYTES}")
    import yaml

    from rsr.yamlstrict import strict_load

    try:
        return strict_load(text, hexes)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        # (libyaml puts an error at the end of the input one line past the last; name the last line)
        line = f" line {min(mark.line + 1, text.count(chr(10)) + 1)}" if mark else ""
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
    """YAML for people to read and edit; text made of digits (a hex: '0414', '2007') is always quoted, so
    every hex is written one way and reads back as text whatever loader reads it."""
    import yaml

    return yaml.dump(value, Dumper=_dumper(), sort_keys=False, allow_unicode=True, width=100)


_DUMPER: Any = None


def _dumper() -> Any:
    global _DUMPER
    if _DUMPER is None:
        import yaml

        class Dumper(yaml.SafeDumper):
            pass

        def text(dumper: Any, data: str) -> Any:
            style = "'" if data.isascii() and data.isdigit() else None
            return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)

        Dumper.add_representer(str, text)
        _DUMPER = Dumper
    return _DUMPER
