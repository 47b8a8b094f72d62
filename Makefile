# The README's commands. `make demo` runs the main job on an example project with the offline
# agents; `make test` runs every test. Both install the Debian packages they need first.
GO ?= go
BIN := bin/advertest

.PHONY: deps build test demo bench vet

deps:
	.ci/install-deps

build:
	$(GO) build -o $(BIN) ./cmd/advertest

vet:
	$(GO) vet ./...

test: deps
	$(GO) test -count=1 -timeout 45m ./...

demo: deps build
	$(BIN) run examples/maven-calculator/src/main/java/org/acme/PriceCalculator.java --method clamp --agents offline

bench: deps build
	$(GO) run ./cmd/mutation-bench
