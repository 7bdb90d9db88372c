# GNU make. `make run` serves the site on http://127.0.0.1:$(PORT) (8000) with its two workers;
# `make test` runs the tests.
SHELL := /bin/bash
PYTHON ?= python3
PORT ?= 8000
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# A websocket message is at most 4 KB (docs/PROTOCOL.md: bigger ones are refused with too_large);
# frames or messages over 64 KB are closed with 1009 by the protocol layer (backgammon_site/serve.py:
# Daphne with autobahn's failByDrop off, so the client gets the close code and a reason).
DAPHNE_FLAGS := --websocket-max-message-size 65536 --websocket-max-frame-size 65536

.PHONY: install run test bench clean catalogues messages

install: $(STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall only when requirements.txt changes.
$(STAMP): requirements.txt | $(PY)
	$(PY) -m pip install -r requirements.txt
	touch $(STAMP)

# The site (Daphne) and its two workers, in one command: the quick worker (Huey's run_huey:
# house bots, clocks, chouette deadlines, the periodic tick) and the long worker
# (run_long_worker: analysis jobs), so a long job never holds up a bot's reply. Ctrl-C stops
# all three, and if any dies the others are stopped too.
run: install catalogues
	$(PY) manage.py migrate --noinput
	@echo "Serving http://127.0.0.1:$(PORT)/ with a quick and a long worker (Ctrl-C stops all)"
	@trap 'trap - INT TERM EXIT; kill 0 2>/dev/null' INT TERM EXIT; \
	$(PY) manage.py run_huey & \
	$(PY) manage.py run_long_worker & \
	$(PY) -m backgammon_site.serve -b 127.0.0.1 -p $(PORT) $(DAPHNE_FLAGS) backgammon_site.asgi:application & \
	wait -n

# The tests run in TEST_WORKERS processes (pytest-xdist, one a core; each has its own test
# database and Redis database, tests/support.py); TEST_WORKERS=0 runs them in one process.
TEST_WORKERS ?= 2
test: install catalogues
	$(PY) -m pytest -m "not postgres" -n $(TEST_WORKERS) --dist loadscope --durations=30
	$(PY) -m tests.pg_pass -n $(TEST_WORKERS) --dist loadscope
	@if command -v node >/dev/null 2>&1 && ls tests/js/*.test.mjs >/dev/null 2>&1; then \
		node --test tests/js/*.test.mjs; \
	fi

# The translations (docs/TRANSLATING.md): catalogues compiled when their .po changed (no GNU
# gettext needed); `make messages` collects the marked strings of the Python code, the templates
# and the browser's modules into every language's .po (needs GNU gettext: apt-get install gettext).
LOCALES := tr el ar he ru es it fr de

catalogues: install
	@$(PY) manage.py compile_catalogs

messages: install
	$(PY) manage.py makemessages $(addprefix -l ,$(LOCALES)) --no-obsolete --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench
	$(PY) manage.py makemessages -d djangojs -e mjs $(addprefix -l ,$(LOCALES)) --no-obsolete --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench --ignore=node_modules

bench: install
	$(PY) bench/engine_bench.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .hypothesis artifacts
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
