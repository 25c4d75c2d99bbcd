# The two commands: `make demo` designs the bundled sample apps, `make test` runs the tests.
# Both set everything up first (system packages, .venv) and are safe to re-run.
.PHONY: setup demo test lint samples bench

setup:
	@bash scripts/setup.sh

demo: setup
	@.venv/bin/python scripts/demo.py

test: setup
	@.venv/bin/python -m pytest -q

lint: setup
	@.venv/bin/ruff check src tests benchmarks scripts

samples: setup
	@.venv/bin/python scripts/make_samples.py

bench: setup
	@.venv/bin/python benchmarks/render.py
	@.venv/bin/python benchmarks/pipeline.py
	@.venv/bin/python benchmarks/capture.py
