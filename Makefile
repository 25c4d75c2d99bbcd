# The two commands: `make demo` designs the bundled sample apps, `make test` runs the tests.
# Both set everything up first (system packages, .venv) and are safe to re-run.
.PHONY: setup demo test test-fast lint format typecheck samples bench

setup:
	@bash scripts/setup.sh

demo: setup
	@.venv/bin/python scripts/demo.py

test: setup
	@.venv/bin/python -m pytest -q

# The quick loop while editing (no browser, no live server, no notebooks, nothing slow: under a
# minute). Files it deselects whole are not imported (tests/conftest.py), nor the plugins
# only they use.
test-fast: setup
	@.venv/bin/python -m pytest -q -m "not slow and not browser and not live_server and not notebook" \
		-p no:nb_regression -p no:schemathesis -p no:hypothesispytest

# ruff, the import layers (pyproject's [tool.importlinter] contracts), no import
# circle (scripts/import_graph.py draws the package's imports and lists any circle) and
# no function over 80 lines (scripts/long_functions.py lists them).
lint: setup
	@.venv/bin/ruff check src tests benchmarks scripts
	@.venv/bin/ruff format --check src tests benchmarks scripts
	@.venv/bin/lint-imports --no-cache
	@.venv/bin/python scripts/import_graph.py --check
	@.venv/bin/python scripts/long_functions.py --check

format: setup
	@.venv/bin/ruff format src tests benchmarks scripts

typecheck: setup
	@.venv/bin/python -m mypy

samples: setup
	@.venv/bin/python scripts/make_samples.py

bench: setup
	@.venv/bin/python benchmarks/render.py
	@.venv/bin/python benchmarks/pipeline.py
	@.venv/bin/python benchmarks/capture.py
