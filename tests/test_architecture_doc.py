"""docs/architecture.md lists every module of rsr/ (made from the code by tools/architecture.py), and its two
walkthroughs, adding a decision and adding a ruleset, are each tried by a test that adds a small one."""

from __future__ import annotations

import re
from pathlib import Path

from tools import architecture

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"


def listed_modules(text: str) -> set[str]:
    return set(re.findall(r"^\| `(rsr/[\w/]+\.py)` \|", text, flags=re.M))


def test_every_module_of_rsr_is_in_the_architecture_doc_and_nothing_else() -> None:
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "rsr").rglob("*.py")}
    listed = listed_modules(DOC.read_text(encoding="utf-8"))
    assert sorted(modules - listed) == [], "run python tools/architecture.py"
    assert sorted(listed - modules) == [], "modules listed that no longer exist: run python tools/architecture.py"
    for folder in ("rsr/draw/", "rsr/rulesets/red_star/", "rsr/rulesets/red_sun_rising/naval/"):
        assert any(m.startswith(folder) for m in listed), folder
    assert "rsr/odds.py" in listed


def test_the_list_is_the_first_sentence_of_each_docstring(tmp_path: Path) -> None:
    package = tmp_path / "rsr" / "sub"
    package.mkdir(parents=True)
    (tmp_path / "rsr" / "__init__.py").write_text('"""The top. More words."""\n')
    (package / "__init__.py").write_text("")
    (package / "thing.py").write_text('"""A thing (page 3): see :class:`~rsr.x.Scene` and ``code``.\n\nMore."""\n')
    text = architecture.regenerate(f"head\n{architecture.BEGIN}\nold\n{architecture.END}\ntail\n", tmp_path)
    assert listed_modules(text) == {"rsr/__init__.py", "rsr/sub/__init__.py", "rsr/sub/thing.py"}
    assert "| `rsr/__init__.py` | The top. |" in text
    assert "| `rsr/sub/thing.py` | A thing (page 3): see `Scene` and `code`. |" in text
    assert "| `rsr/sub/__init__.py` | (no docstring" in text
    assert text.startswith("head\n") and text.endswith("tail\n") and "old" not in text


def test_the_walkthroughs_name_the_tests_that_try_them() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "### Adding a decision" in text and "### Adding a ruleset" in text
    named = re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", text)
    assert len(named) >= 2
    for path, test in named:
        assert re.search(rf"^def {test}\(", (ROOT / path).read_text(encoding="utf-8"), flags=re.M), (path, test)
