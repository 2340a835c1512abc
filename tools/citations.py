"""Every case a ruleset's code cites carries its ruleset's prefix, on every number (issue 21 point 5).

    python tools/citations.py            # list the bare case numbers in comments and docstrings
    python tools/citations.py --fix      # prefix them in place

A case number is ``N.N`` (``6.62``, ``11.43``) in a comment or a docstring of a module under a ruleset
package; it counts as cited when the ruleset's prefix (``RS/RS``, ``RSR``) stands right before it. The end
of a range (``RSR 5.0-5.22``) and numbers with a unit after them (``1.5x``, ``0.5 ms``) are left alone.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PREFIXES = {"rsr/rulesets/red_star": "RS/RS", "rsr/rulesets/red_sun_rising": "RSR"}
NUMBER = re.compile(r"(?<![\w./-])([1-9]\d?\.\d{1,3})(?![\w]|\.\d|\s*[x×%]|\s*(?:ms|s|MB|KB|GB|MiB|km)\b)")


def _spans(source: str) -> list[tuple[int, int]]:
    """Offsets of the comments and docstrings of ``source``."""
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def at(row: int, column: int) -> int:
        return starts[row - 1] + column

    spans = [(at(*token.start), at(*token.end)) for token in tokenize.generate_tokens(io.StringIO(source).readline)
             if token.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str) and first.end_lineno is not None
                    and first.end_col_offset is not None):
                spans.append((at(first.lineno, first.col_offset), at(first.end_lineno, first.end_col_offset)))
    return sorted(spans)


def cite(source: str, prefix: str) -> tuple[str, list[str]]:
    """``source`` with every bare case number prefixed, and the numbers it prefixed."""
    bare: list[str] = []
    pieces: list[str] = []
    last = 0
    for start, end in _spans(source):
        text = source[start:end]

        def prefixed(match: re.Match[str], text: str = text) -> str:
            if text[:match.start()].endswith(prefix + " "):
                return match.group(0)
            bare.append(match.group(1))
            return f"{prefix} {match.group(1)}"

        pieces += [source[last:start], NUMBER.sub(prefixed, text)]
        last = end
    pieces.append(source[last:])
    return "".join(pieces), bare


def uncited(root: Path = REPO) -> dict[Path, list[str]]:
    """The bare case numbers per file of every ruleset package."""
    found: dict[Path, list[str]] = {}
    for folder, prefix in PREFIXES.items():
        for path in sorted((root / folder).rglob("*.py")):
            _, bare = cite(path.read_text(encoding="utf-8"), prefix)
            if bare:
                found[path] = bare
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fix", action="store_true", help="prefix the bare numbers in place")
    args = parser.parse_args()
    found = uncited()
    for path, bare in found.items():
        if args.fix:
            prefix = next(p for folder, p in PREFIXES.items() if str(path.relative_to(REPO)).startswith(folder))
            path.write_text(cite(path.read_text(encoding="utf-8"), prefix)[0], encoding="utf-8")
        print(f"{path.relative_to(REPO)}: {len(bare)} ({', '.join(bare[:6])}{', ...' if len(bare) > 6 else ''})")
    print(f"{sum(len(b) for b in found.values())} bare case numbers{' prefixed' if args.fix else ''}")
    return 1 if found and not args.fix else 0


if __name__ == "__main__":
    sys.exit(main())
