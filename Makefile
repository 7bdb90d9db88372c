# GNU make. `make run` serves the site on http://127.0.0.1:8000; `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test bench clean

install: $(STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall only when requirements.txt changes.
$(STAMP): requirements.txt | $(PY)
	$(PY) -m pip install -r requirements.txt
	touch $(STAMP)

run: install
	$(PY) manage.py migrate --noinput
	$(VENV)/bin/daphne -b 127.0.0.1 -p 8000 backgammon_site.asgi:application

test: install
	$(PY) -m pytest -m "not postgres"
	$(PY) -m tests.pg_pass
	@if command -v node >/dev/null 2>&1 && ls tests/js/*.test.mjs >/dev/null 2>&1; then \
		node --test tests/js/*.test.mjs; \
	fi

bench: install
	$(PY) bench/engine_bench.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .hypothesis artifacts
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
