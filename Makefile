# pla-verify: two commands do everything on a fresh machine.
#   make run   -- set up .venv on first use, run PLA with proof checks on generated data, build the site
#   make test  -- set up .venv on first use, run the whole suite (tests, strict docs build, browser check)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup docs serve bench clean fuzz chromium fonts coq valgrind

# The install's output goes to $(VENV)/install.log and is shown only when the install fails.
$(STAMP): pyproject.toml
	@echo "setting up $(VENV) (pla-verify and its dependencies; log in $(VENV)/install.log)"
	@$(PYTHON) -m venv $(VENV)
	@( $(BIN)/pip install --quiet --upgrade pip && $(BIN)/pip install --quiet -e '.[dev]' ) \
	  > $(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	@mkdir -p build
	$(BIN)/pla make-data --n 100 --d 2 --margin 1/50 --seed 3 build/example.dat
	$(BIN)/pla run build/example.dat --check --steps --trace build/example.jsonl
	$(BIN)/pla certify build/example.dat
	$(BIN)/pla audit build/example.jsonl --data build/example.dat
	$(BIN)/pla proof
	@$(MAKE) --no-print-directory docs
	@echo
	@echo "The site is built in site/. Open site/index.html in a browser, or serve it with"
	@echo "  make serve        (live preview at http://127.0.0.1:8000/)"
	@echo
	@echo "pla is installed in .venv, not on your PATH. Next, either run it by its path:"
	@echo "  .venv/bin/pla run build/example.dat --check"
	@echo "or put .venv/bin on your PATH for this shell, then use pla:"
	@echo "  source .venv/bin/activate"

# The whole suite. tests/test_site_browser.py builds the site with `mkdocs build --strict` and
# opens every page in headless Chromium; `chromium` installs the browser first when missing.
# Two workers (CI has 2 cores); --dist loadfile keeps each file's fixtures (the site build, the
# Coq library) on one worker, and the adoption tests share one venv (tests/conftest.py).
# --no-loadscope-reorder: files are handed out in collection order, which tests/conftest.py
# starts with the files that run for minutes (LONG_FILES_FIRST).
test: $(STAMP) chromium fonts coq
	$(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder

# The documentation site (strict: any warning fails). Scratch files go to build/docs/.
docs: $(STAMP) fonts coq
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

serve: $(STAMP) fonts
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --strict --dev-addr 127.0.0.1:8000

# $(call apt_install,TEST,PACKAGES,WHAT FOR,WITHOUT THEM): when the shell condition TEST fails,
# install the Debian PACKAGES with apt-get, saying what for; when they cannot be installed, a
# WARNING says what then happens (a test that needs them fails and says why: it never skips).
define apt_install
	@if $(1); then :; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  echo "installing $(2) $(3)"; \
	  SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  ( $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(2) >/dev/null ) \
	    || echo "WARNING: could not install $(2); $(4)"; \
	else echo "WARNING: no apt-get to install $(2); $(4)"; fi
endef

# Debian's chromium + chromium-driver for the browser check; installed only when missing.
chromium:
	$(call apt_install,[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ],chromium chromium-driver,for the browser test,the browser test will FAIL)

# The free CJK font (Debian fonts-wqy-microhei) from which the docs build cuts the web font of
# the audit's Chinese quotations (docs/hooks/sitebuild/cjk_font.py); installed only when missing.
fonts:
	$(call apt_install,[ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || [ -f /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc ],fonts-wqy-microhei,for the site's Chinese quotations,the docs build will FAIL)

# Debian's coq (coqc 8.16) for the second checker (tests/test_coq.py); installed only when
# coqc is missing.
coq:
	$(call apt_install,command -v coqc >/dev/null 2>&1,coq,for the second checker,the Coq tests will FAIL)

# Debian's valgrind for benchmarks/instructions.py (instruction counts of whole processes);
# installed only when missing.  Not needed by the tests.
valgrind:
	$(call apt_install,command -v valgrind >/dev/null 2>&1,valgrind,for benchmarks/instructions.py,benchmarks/instructions.py will stop)

# A longer fuzzing run of every parser (hypothesis profile "fuzz"); not part of make test.
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest tests -k fuzz

clean:
	rm -rf build site $(VENV)

# The exact engine against its peers (issue 7) and how it and `pla run --check` scale (issue 17):
# minutes; writes benchmarks/results/{engines,scaling}.json, which the Benchmarks page of the
# docs turns into tables and a figure. scaling.py prints the check/run ratios side by side.
bench: $(STAMP) valgrind
	$(BIN)/python benchmarks/engines.py
	$(BIN)/python benchmarks/check_overhead.py
	OPENBLAS_NUM_THREADS=1 $(BIN)/python benchmarks/scaling.py
	$(BIN)/python benchmarks/standard_facts.py
	$(BIN)/python benchmarks/claim_search.py
	$(BIN)/python benchmarks/coq_check.py
	$(BIN)/python benchmarks/instructions.py

# Pocket speed (issue 6): 2,000 runs x 50 updates on 500 x 4 data, test error on 500 more points.
.PHONY: bench-pocket
bench-pocket: $(STAMP)
	$(BIN)/python benchmarks/pocket_runs.py

# Mutation testing of the checkers (reliability): every mutant of verify/kernel/, the claims
# translation and verify/checks/monitor.py against the tests that execute its line, 2 workers,
# about 7.6 s per mutant (2,759 mutants: hours; --deadline S records a partial run); writes
# benchmarks/results/mutation.json, which the Design page shows.
# MUTATION_ARGS=--reuse reruns only the files changed since; --rerun-survivors also the survivors.
.PHONY: mutation
mutation: $(STAMP)
	nice -n 10 $(BIN)/python -m tests.mutation_testing --workers 2 $(MUTATION_ARGS)
