# ttr-desktop — the commands a player or developer types.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test sim bench clean play

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m pytest

play: $(STAMP)
	$(PY) -m ttr_desktop

sim: $(STAMP)
	$(PY) -m ttr_desktop.sim --variant usa --players 4 --bots greedy,greedy,random,random --games 200 --seed 1

bench: $(STAMP)
	$(PY) -m ttr_desktop.bench

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
