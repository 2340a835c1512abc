"""The case catalogues (docs/<ruleset>/cases.yaml) and the generated coverage tables are sound and current."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "coverage.py"
HEADINGS = ROOT / "tests" / "rulebook"  # <ruleset>-headings.txt: the case numbers each rulebook prints


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("coverage_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


coverage = _load_tool()


def test_coverage_docs_are_current() -> None:
    """`tools/coverage.py --check` passes: the committed coverage.md files match the catalogues and tests."""
    result = subprocess.run(
        [sys.executable, str(TOOL), "--check"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr + result.stdout


@pytest.mark.parametrize("ruleset", sorted(coverage.RULESETS))
def test_catalogue_numbers_unique_and_well_formed(ruleset: str) -> None:
    """Every case number is a quoted N.N string, listed once, in rulebook (case-number) order."""
    data = yaml.safe_load((ROOT / "docs" / ruleset / "cases.yaml").read_text(encoding="utf-8"))
    numbers = [entry["case"] for entry in data["cases"]]
    assert numbers, f"{ruleset}: empty catalogue"
    assert all(isinstance(n, str) and re.fullmatch(r"[1-9][0-9]*\.[0-9]{1,3}", n) for n in numbers), numbers
    duplicates = sorted({n for n in numbers if numbers.count(n) > 1})
    assert not duplicates, f"{ruleset}: listed twice: {duplicates}"
    assert numbers == sorted(numbers, key=coverage.case_sort_key), f"{ruleset}: cases out of order"
    for entry in data["cases"]:
        assert len(entry["title"].split()) <= 8, f"{ruleset} {entry['case']}: title longer than 8 words"
    coverage.load_catalogue(ruleset)  # the generator's own checks (areas, no_test, issue) pass too


def _printed_headings(ruleset: str) -> set[str]:
    lines = (HEADINGS / f"{ruleset}-headings.txt").read_text(encoding="utf-8").splitlines()
    numbers = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert all(re.fullmatch(r"[1-9][0-9]*\.[0-9]{1,3}", n) for n in numbers), numbers
    return set(numbers)


@pytest.mark.parametrize("ruleset", sorted(coverage.RULESETS))
def test_catalogue_lists_every_rulebook_heading(ruleset: str) -> None:
    """Each numbered heading the rulebook prints (tests/rulebook/<ruleset>-headings.txt) is in the catalogue."""
    printed = _printed_headings(ruleset)
    assert len(printed) > 100
    listed = {case.case for case in coverage.load_catalogue(ruleset).cases}
    assert sorted(printed - listed, key=coverage.case_sort_key) == []
    assert sorted(listed - printed, key=coverage.case_sort_key) == []


# The citation prefixes are spliced in at run time so that this file does not itself cite any case.
RSR, STAR = coverage.RULESETS["red-sun-rising"], coverage.RULESETS["red-star"]


def test_citation_needs_exact_number() -> None:
    """A citation of 11.4 does not match 11.43, and the number must be followed by a non-digit."""
    find = coverage.find_citations
    assert find(f"{RSR} 11.43", RSR) == ["11.43"]
    assert "11.4" not in find(f"{RSR} 11.43", RSR)
    assert find(f"{RSR} 11.4", RSR) == ["11.4"]
    assert find(f"see {RSR} 11.4.", RSR) == ["11.4"]
    assert find(f"{RSR} 4.14C", RSR) == ["4.14"]
    assert find(f"{STAR} 6.62 and {RSR} 9.11", STAR) == ["6.62"]
    assert find(f"{STAR} 6.62", RSR) == []
    assert find(f"X{RSR} 11.43", RSR) == []


def test_generator_finds_citing_tests(tmp_path: Path) -> None:
    """Python tests and YAML case files that cite a case are listed for exactly that case."""
    for ruleset in coverage.RULESETS:
        (tmp_path / "docs" / ruleset).mkdir(parents=True)
        (tmp_path / "docs" / ruleset / "cases.yaml").write_text(
            "areas: {land: land}\ncases:\n"
            '  - {case: "11.4", title: Modifiers, area: land, issue: 4}\n'
            '  - {case: "11.43", title: Command units, area: land}\n'
            '  - {case: "1.0", title: Introduction, area: land, no_test: introduction}\n',
            encoding="utf-8",
        )
    cases_dir = tmp_path / "tests" / "cases" / "red-sun-rising"
    cases_dir.mkdir(parents=True)
    (tmp_path / "tests" / "test_x.py").write_text(
        f'def test_a():\n    """{RSR} 11.43"""\n\n\n'
        f'class TestB:\n    def test_c(self):\n        x = "{STAR} 11.4"\n',
        encoding="utf-8",
    )
    (cases_dir / "one.yaml").write_text(
        f'id: cmd-1\ncases: ["{RSR} 11.43", "{RSR} 99.9"]\n', encoding="utf-8"
    )
    (cases_dir / "two.yaml").write_text(f'cases: ["{RSR} 11.4"]\n', encoding="utf-8")
    docs = {path.parent.name: text for path, text in coverage.generate(tmp_path).items()}
    rsr, star = docs["red-sun-rising"], docs["red-star"]
    assert (
        "| 11.43 | Command units | `tests/cases/red-sun-rising/one.yaml#cmd-1`<br>`tests/test_x.py::test_a`"
        in rsr
    )
    assert "| 11.4 | Modifiers | `tests/cases/red-sun-rising/two.yaml` | tested |" in rsr
    assert "| 1.0 | Introduction |  | no test: introduction |" in rsr
    assert f"| {RSR} 99.9 |" in rsr
    assert "| 11.4 | Modifiers | `tests/test_x.py::TestB::test_c` | tested |" in star
    assert "| 11.43 | Command units |  | not yet |" in star
    assert "Cases: 3. With tests: 1. Marked no_test: 1. Not yet tested: 1." in star
