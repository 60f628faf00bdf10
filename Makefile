# The two commands a newcomer needs (`make start`, `make test`) and a few helpers.
# Needs only Node 20+ and npm; everything else is installed on demand.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

NODE_MODULES_STAMP := node_modules/.install-stamp
# Browser end-to-end tests drive Debian's Chromium; label tests render PDFs with poppler;
# the Kafka bus tests run on librdkafka's mock cluster, started through kcat; zbarimg scans the label barcodes.
SYSTEM_PACKAGES := chromium poppler-utils fonts-dejavu-core kcat librdkafka1 zbar-tools

.PHONY: help install start runtime-deps test test-fast test-distributed lint typecheck build build-stale docs system-deps bench bench-rankings bench-files bench-web bench-api bench-totals bench-footprint bench-carrier

help:
	@echo "make start   run the whole product on embedded defaults and print its URL (Ctrl-C stops it)"
	@echo "make test    run every test: lint, typecheck, web build, unit, integration and browser tests"
	@echo "make test-fast   the inner loop: unit and component tests of every service, the gateway, proto and the web app (no build, no launcher, no browser); not a substitute for make test"
	@echo "make test-distributed   the production topology on this machine: Kafka (mock cluster), one database role per service, two workers and two gateways (part of make test)"
	@echo "make lint    format and lint check (Biome)"
	@echo "make build   build every workspace to JavaScript (services to <workspace>/dist, the web app to web/dist)"
	@echo "make docs    render docs/configuration.md from the configuration schemas (make test fails while it is out of date)"
	@echo "make bench   bulk-order benchmark on the embedded stack (RUNS=3 ROWS=1000); prints figures, not part of make test"
	@echo "make bench-carrier   1,000 labels bought from a fake EasyPost (300 ms, 50 buys/s, 429 above) through the stack (RUNS=3, EXTRA_WORKERS=1 for two label workers); prints time, busiest second, 429s"
	@echo "make bench-rankings   user volume rankings over 1,000,000 labels; prints the month and year query times"
	@echo "make bench-files   reads and validates 10,000-package Amazon, Walmart, eBay, TikTok Shop, Shopify, Etsy and CSV files; prints ms per format against 250 ms"
	@echo "make bench-web   in Chromium: gzip JS/CSS the landing and each route load (against 100 KB), landing paint vs app JS on Fast 3G"
	@echo "make bench-totals   one user's money read (what verify shows) and one ledger append with 10,000 entries (BASELINE=<checkout> measures it too)"
	@echo "make bench-api   gateway overhead, quotes and mixed traffic at concurrency 50 (BASELINE=<checkout> measures it too); prints req/s, p50/p99, CPU per 1,000 requests"
	@echo "make bench-footprint   start time and idle memory of the embedded stack (RUNS=3; BASELINE=<other checkout> to compare)"

# npm dependencies, installed when missing or when the lockfile changed: exactly
# the locked versions (`npm ci`), never a fresh resolution. The lockfile has every
# platform's optional binaries, so npm ci accepts it anywhere, and --engine-strict
# stops at once on a Node outside the range package.json declares (infra/test/dependencies.test.ts).
$(NODE_MODULES_STAMP): package-lock.json package.json
	npm ci --no-audit --no-fund --engine-strict
	@touch $(NODE_MODULES_STAMP)

install: $(NODE_MODULES_STAMP)

# The gateway, the services, the launcher and the simulator run as JavaScript bundles (<workspace>/dist/*.js);
# those missing or older than their sources are rebuilt first (about a second), as the launcher does for the web app.
build-stale: install
	@node infra/build/build.mjs --stale

start: build-stale runtime-deps
	node infra/dist/launcher.js

# The product itself needs one program beyond Node: poppler's pdftoppm, which turns a carrier's PDF label into ZPL
# for thermal printers. Installed when missing and this user may; otherwise `make start` says what to install.
runtime-deps:
	@if command -v pdftoppm >/dev/null 2>&1; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	  echo "Installing poppler-utils (pdftoppm converts PDF labels to ZPL)"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get -o DPkg::Lock::Timeout=600 update -qq; \
	  apt-get -o DPkg::Lock::Timeout=600 install -y -qq poppler-utils >/dev/null; \
	else \
	  echo "pdftoppm is missing: ZPL downloads of labels a carrier gave only as PDF will fail until poppler-utils is installed (sudo apt-get install -y poppler-utils)" >&2; \
	fi

# Installs Chromium, poppler and kcat when they are missing and this user may install them;
# otherwise says exactly what to install rather than letting browser or Kafka tests fail obscurely.
system-deps:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/pdftoppm ] && [ -x /usr/bin/kcat ] && [ -x /usr/bin/zbarimg ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	  echo "Installing $(SYSTEM_PACKAGES) for browser, PDF, barcode and Kafka tests"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get -o DPkg::Lock::Timeout=600 update -qq; \
	  apt-get -o DPkg::Lock::Timeout=600 install -y -qq $(SYSTEM_PACKAGES) >/dev/null; \
	elif [ ! -x /usr/bin/chromium ]; then \
	  echo "Chromium is missing (/usr/bin/chromium). Install it first: sudo apt-get install -y $(SYSTEM_PACKAGES)" >&2; \
	  exit 1; \
	elif [ ! -x /usr/bin/kcat ]; then \
	  echo "kcat is missing (/usr/bin/kcat): the Kafka bus tests run on librdkafka's mock cluster. Install it first: sudo apt-get install -y kcat librdkafka1" >&2; \
	  exit 1; \
	fi

# The configuration reference, rendered from each process's configuration schema (infra/docs/config-reference.ts);
# infra/test/config-reference.test.ts fails while the committed document differs from what this writes.
docs: install
	node --import tsx infra/docs/config-reference.ts

lint: install
	npx biome check .

# Two programs side by side: every workspace but the web app as one (tsconfig.json; they share their options, so
# kit and proto are checked once, not once per workspace) and the web app (web/tsconfig.json: DOM, JSX).
typecheck: install
	@status=0; node_modules/.bin/tsc -p tsconfig.json & server=$$!; \
	node_modules/.bin/tsc -p web || status=$$?; \
	wait $$server || status=$$?; \
	exit $$status

# A measurement, not a test: it prints figures and exits 0 even when a target is missed.
RUNS ?= 3
ROWS ?= 1000
EXTRA_WORKERS ?= 0
bench: install
	node --import tsx infra/bench/bulk/run.ts --runs $(RUNS) --rows $(ROWS)

# Real postage: a bulk order bought from the loopback fake EasyPost with 300 ms latency that allows 50 buys a
# second and answers 429 above, through the stack with CARRIER_RATE_LIMIT=easypost=50; the carrier alone beside it.
bench-carrier: install
	node --import tsx infra/bench/carrier/run.ts --runs $(RUNS) --rows $(ROWS) --extra-workers $(EXTRA_WORKERS)

# User volume rankings over 1,000,000 labels in the admin read model; prints the month and year query times.
bench-rankings: install
	node --import tsx infra/bench/rankings.ts

# 10,000-package order files read and validated as the product does; median ms per format and file sizes.
# BASELINE=<another checkout> reads the same files with that checkout's reader too, alternating, for a before/after.
bench-files: install
	node --import tsx infra/bench/files/run.ts $(if $(BASELINE),--baseline $(BASELINE))

# In Chromium: what the landing page and each route download (gzip), and on a throttled network when the
# landing is painted against when the app's JavaScript has loaded (rebuilds web/dist when stale).
bench-web: install system-deps
	node --import tsx infra/bench/web/run.ts

# One user's money read and one ledger append with 10,000 ledger entries; BASELINE=<checkout> measures that checkout too.
bench-totals: install
	node --import tsx infra/bench/money-totals.ts $(if $(BASELINE),--baseline $(BASELINE))

# Every workspace to JavaScript: runnables and libraries to their dist/, the web app to web/dist.
build: install
	TURBO_TELEMETRY_DISABLED=1 npx turbo run build --output-logs=errors-only

# Every service its own process on the Kafka bus (librdkafka's mock cluster via kcat), each on its own
# database role, two label-worker and two gateway replicas: a bulk order watched from the other gateway,
# a worker killed mid-order, a rolling restart of every process. `make test` runs it with the rest.
test-distributed: install system-deps
	npx vitest run --project infra infra/distributed

# The inner loop: unit and component tests. Left to make test: the launcher and deployment tests (infra), the
# browser end-to-end suite (e2e), the web production build, and the tests that start a service as its own process
# or take its database or bus away. No lint, typecheck or build first; services still use the real PostgreSQL.
FAST_PROJECTS := proto gateway web admin auth carriers kit label-worker order-files orders payments services-pricing
FAST_EXCLUDE := **/test/main.test.ts **/main-kafka.test.ts **/process.test.ts **/shutdown.test.ts **/kafka-bus.test.ts **/*outage.test.ts
test-fast: install system-deps
	npx vitest run $(FAST_PROJECTS:%=--project %) $(foreach g,$(FAST_EXCLUDE),--exclude '$(g)')

test: install system-deps
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory typecheck
	$(MAKE) --no-print-directory build
	npx vitest run

# Gateway overhead against the services, quotes and mixed traffic at concurrency 50; BASELINE=/path/to/checkout
# measures that checkout's built stack first, in the same sitting.
BASELINE ?=
bench-api: build-stale
	node --import tsx infra/bench/api/run.ts --runs $(RUNS) $(if $(BASELINE),--baseline $(BASELINE))

# Start time (fresh and set-up data directory) and idle memory per process of the embedded stack, as make start runs it.
bench-footprint: build-stale
	node --import tsx infra/bench/footprint/run.ts --runs $(RUNS) $(if $(BASELINE),--baseline $(BASELINE))
