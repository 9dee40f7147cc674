# The two set-up commands of the README: `make run` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# npm ci runs when node_modules is missing or older than the lock file.
DEPS := node_modules/.package-lock.json

# onnxruntime-node's install script would fetch GPU binaries from outside the npm registry;
# its CPU binaries ship inside the package, which is all Parda uses.
export ONNXRUNTIME_NODE_INSTALL := skip

.PHONY: help run test build lint format bench samples clean

help:
	@echo "make run    install, build, prepare var/parda.db, print a dev key once, serve on :8000"
	@echo "make test   install, build (type-checks everything), lint, run the whole test suite"
	@echo "make samples  build, write synthetic documents to samples/ with a curl command for each"

$(DEPS): package-lock.json
	npm ci
	@touch $@

# tsc compiles only what changed since the last build (its build information is kept in
# dist/); compiled files whose source is gone are removed, so that no stale module or test runs.
build: $(DEPS)
	npx tsc -p tsconfig.json --incremental
	@find dist -name '*.js' | while read -r out; do \
	  source=$${out#dist/}; [ -f "$${source%.js}.ts" ] || rm -f "$$out" "$$out.map"; \
	done

run: build
	bin/parda init
	bin/parda serve

# The layering of src/ (.dependency-cruiser.cjs): no import cycles, no import upwards.
lint: $(DEPS)
	npx eslint --max-warnings 0 .
	npx prettier --check .
	npx depcruise src --config .dependency-cruiser.cjs

# The suite gets a temporary folder of its own, so that the check that the service leaves
# no temporary files behind sees only what the tests' processes wrote.
test: build lint
	@tmp=$$(mktemp -d) && TMPDIR=$$tmp node --test --test-concurrency=1 dist/test/; \
	status=$$?; rm -rf "$$tmp"; exit $$status

# Measured as bin/parda serves: with glibc's malloc arenas limited to two (docs/operations.md).
bench: export MALLOC_ARENA_MAX ?= 2
bench: build
	node dist/bench/run.js
	node dist/bench/mask.js
	node dist/bench/extract.js
	node dist/bench/verify.js
	node dist/bench/redact.js
	node dist/bench/text.js
	node dist/bench/global-redact.js

# Synthetic documents (from the test generators) for trying every endpoint by hand.
samples: build
	node dist/tools/make-samples.js samples

format: $(DEPS)
	npx prettier --write .

clean:
	rm -rf dist node_modules
