# Makefile: the two commands a newcomer needs (`make start`, `make test`) and a few helpers.
SHELL := /bin/bash
.DEFAULT_GOAL := help

NODE_MODULES_STAMP := node_modules/.install-stamp

.PHONY: help install start test lint typecheck build

help:
	@echo "make start   run the whole product on embedded defaults and print its URL"
	@echo "make test    run every test (installs what it needs)"
	@echo "make lint    format and lint check (Biome)"

# npm dependencies, installed when missing or when the lockfile changed.
$(NODE_MODULES_STAMP): package-lock.json package.json
	npm ci --no-audit --no-fund
	@touch $(NODE_MODULES_STAMP)

install: $(NODE_MODULES_STAMP)

lint: install
	npx biome check .

typecheck: install
	npx turbo run typecheck --output-logs=errors-only

build: install
	npm run build -w web
