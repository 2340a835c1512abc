PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint soak bench packets clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	rm -rf demo
	$(BIN)/rsr demo --out demo
	$(BIN)/rsr verify demo/audit/game-*
	@echo "reports: demo/players/alice/games/game-*/reports/ and demo/players/bob/games/game-*/reports/"

test: $(STAMP)
	$(BIN)/pytest -q -n auto

lint: $(STAMP)
	$(BIN)/ruff check rsr tests tools bench
	$(BIN)/mypy rsr

soak: $(STAMP)
	$(BIN)/pytest -q -m soak

bench: $(STAMP)
	$(BIN)/python bench/run.py

packets: $(STAMP)
	$(BIN)/python bench/packets_per_turn.py --turns 2 --games 3

clean:
	rm -rf $(VENV) demo
