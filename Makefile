# The README's commands. `make demo` runs the main job on an example project with the offline
# agents; `make test` runs every test. Both install the Debian packages they need first.
GO ?= go
BIN := bin/advertest

.PHONY: deps build test test-race soak demo bench fault-bench real-bench vet test-editors test-vscode test-nvim

deps:
	.ci/install-deps

build:
	$(GO) build -o $(BIN) ./cmd/advertest

vet:
	$(GO) vet ./...

# Every test: the Go packages (the Neovim plugin's headless tests among them) and the VS Code
# extension's type-check, lint, unit tests and packaging.
test: deps
	$(GO) test -count=1 -timeout 45m ./...
	editors/vscode/scripts/check.sh

# The race detector over every package (go test -race needs cgo and gcc, as tree-sitter does),
# with the tests that start a JVM, Maven, Gradle or javac skipped: -short, which they check
# (internal/testenv.NeedsJVM in the helpers that open a project or run javac): under -race they
# take many minutes, and their other side runs in the JVM, out of the detector's sight.
# The reproducers of races found before then run in full, JVM and all (RACE_REPRODUCERS: a
# package and a -run pattern each). .ci/run calls it after make test. 9.6 min on 2 cores at load
# 15-18 (other tests beside it), 193 s of CPU time.
# At load under 4: about 4 minutes (loop/offline's non-JVM tests among them: 2 s).
RACE_REPRODUCERS := ./loop:TestJudgeOnTheSurvivorsTCouldNotKill ./cmd/advertest:TestRunSaysWhyNoTest \
	./buildtools/harness:TestDroppingTheAgentKeepsAllowRead
test-race: deps
	$(GO) test -race -short -count=1 -timeout 20m ./...
	@for r in $(RACE_REPRODUCERS); do \
		echo "$(GO) test -race -count=1 -run ^$${r#*:}\$$ $${r%%:*}"; \
		$(GO) test -race -count=1 -timeout 20m -run "^$${r#*:}\$$" "$${r%%:*}" || exit 1; \
	done

demo: deps build
	$(BIN) run examples/maven-calculator/src/main/java/org/acme/PriceCalculator.java --method clamp --agents offline

bench: deps build
	$(GO) run ./cmd/mutation-bench

# The fault benchmark (docs/fault-bench.md): the offline agents' fault detection rate and time
# per method on examples/fault-bench. Long (a minute or more per method), so not in `make test`.
# Flags through FAULT_BENCH_FLAGS, e.g. make fault-bench FAULT_BENCH_FLAGS='-half dev -json fb.json'.
fault-bench: deps
	$(GO) run ./cmd/fault-bench $(FAULT_BENCH_FLAGS)

# The shards soak (docs/reports.md, "Deterministic verdicts"): `advertest mutate` over the fault
# benchmark's project with its witnesses as tests, unsharded and as two shards merged, each in
# its own process, SOAK_ITERATIONS times in a row with SOAK_BUSY busy loops (goroutines of the
# test, gone when it ends) beside them; it fails on any verdict that differs. Minutes per
# iteration on 2 loaded cores, so not in `make test`, which runs one iteration without the loops.
SOAK_ITERATIONS ?= 5
SOAK_BUSY ?= 2
soak: deps
	ADVERTEST_SOAK_ITERATIONS=$(SOAK_ITERATIONS) ADVERTEST_SOAK_BUSY=$(SOAK_BUSY) \
		$(GO) test -count=1 -timeout 120m -v -run '^TestShardsMergedEqualTheUnshardedRun$$' ./cmd/advertest/

# The real-code workbench (docs/real-bench.md): real libraries from Debian's source packages,
# fetched into a cache folder at run time, a fixed sample of their methods in a dev and a
# holdout half, the offline agents' suites checked against seeded faults, and `advertest
# mutate` with the libraries' own suites against a plain `mvn test`. Hours from an empty cache
# on 2 cores; a second run reuses the cache and every method measured at the same commit.
# Flags through REAL_BENCH_FLAGS, e.g. make real-bench REAL_BENCH_FLAGS='-half dev -json rb.json'.
real-bench: deps
	$(GO) run ./cmd/real-bench $(REAL_BENCH_FLAGS)

# The editor clients. test-vscode: clean npm install from the lock file, type-check, lint, unit
# tests (the vscode module stubbed) and the .vsix (editors/vscode/advertest.vsix); needs Node.js
# 20+ and npm. test-nvim: the plugin in headless Neovim against the real server on a copy of an
# example project.
test-editors: test-vscode test-nvim

test-vscode:
	editors/vscode/scripts/check.sh

test-nvim: deps
	$(GO) test -count=1 -timeout 20m ./editors/nvim/
