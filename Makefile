# ttr-desktop — the commands a player or developer types.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test sim bench clean play exe

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m pytest -n auto

play: $(STAMP)
	$(PY) -m ttr_desktop

sim: $(STAMP)
	$(PY) -m ttr_desktop.sim --variant usa --players 4 --bots greedy,greedy,random,random --games 200 --seed 1

bench: $(STAMP)
	$(PY) -m ttr_desktop.bench

EXE_STAMP := $(VENV)/.installed-exe
$(EXE_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,exe]'
	@touch $(EXE_STAMP)

# A one-folder bundle in dist/ttr-desktop/ (program: dist/ttr-desktop/ttr-desktop),
# then its self-test: a short bot game through the window, saved and reloaded.
exe: $(EXE_STAMP)
	$(PY) -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist \
		--workpath build/pyinstaller packaging/ttr-desktop.spec
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy dist/ttr-desktop/ttr-desktop --selftest
	$(PY) -m ttr_desktop.ui.bench_rows dist/ttr-desktop/ttr-desktop
	@du -sh dist/ttr-desktop | awk '{print "bundle size: " $$1 " in dist/ttr-desktop/"}'

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
