#!/usr/bin/env bash
# `make check-vars`: checks the make variables before anything is built, so
# `make cosim DOMAINS=3` fails in a second with one line naming the valid
# values instead of after a build. The lists come from the sources the
# binary is built from (sim/build.rs, tests/faults/, the script module,
# src/pcnt/config.rs, sim/src/cli.rs), not from a copy kept here.
# Variables arrive through the environment; an empty one is not checked.
# Exit status 2 (bad input), as `pcnt` gives for the same values.
set -u
cd "$(dirname "$0")/.." || exit 2

fail() {
	echo "make: $1" >&2
	exit 2
}

# Comma-joined words of $*.
join() {
	local IFS=,
	echo "$*" | sed 's/,/, /g'
}

# Domain counts with a Verilated build: the second field of sim/build.rs's CONFIGS rows.
domain_counts=$(sed -nE 's/^ *\("[a-z0-9_]+", ([0-9]+), (true|false),.*/\1/p' sim/build.rs | sort -nu | tr '\n' ' ')
# Generations of the harness: script::GENS.
gens=$(sed -nE 's/^pub const GENS: &\[&str\] = &\[(.*)\];/\1/p' sim/src/pcnt/script/mod.rs | tr -d '"' | tr ',' ' ')
# Signal layouts: pcounter::Layout::NAMES.
layouts=$(sed -nE 's/.*pub const NAMES: \[&.static str; [0-9]+\] = \[(.*)\];/\1/p' src/pcnt/config.rs | tr -d '"' | tr ',' ' ')
# GF100 (GEN=gf100): its own top, presets as LAYOUT (pcounter::gf100::config::PRESETS).
gf_presets=$(sed -nE 's/^pub const PRESETS: &\[&str\] = &\[(.*)\];/\1/p' src/pcnt/gf100/config.rs | tr -d '"' | tr ',' ' ')
# Injected faults: one build per tests/faults/*.fault and per device
# folder's tests/*/faults/*.fault (sim/build.rs); fault_file NAME is its file.
faults=$(for f in tests/faults/*.fault tests/*/faults/*.fault; do basename "$f" .fault; done | tr '\n' ' ')
fault_file() {
	for f in "tests/faults/$1.fault" tests/*/faults/"$1".fault; do
		[ -f "$f" ] && { echo "$f"; return; }
	done
}
# Devices: the registry's names (sim/src/devices.rs `DEVICES`: each
# device's module, named as the device, a unit test there checks).
devices=$(sed -nE 's/^pub static DEVICES: .* = &\[(.*)\];/\1/p' sim/src/devices.rs | grep -oE '[a-z0-9_]+::DEVICE' | sed 's/::DEVICE//' | tr '\n' ' ')
max_seeds=$(sed -nE 's/^pub const MAX_SEEDS: u64 = ([0-9_]+);/\1/p' sim/src/cli.rs | tr -d _)
window_max=$(sed -nE 's/^pub const WINDOW_MAX: u64 = ([0-9_]+);/\1/p' sim/src/engine/artifacts.rs | tr -d _)
[ -n "$domain_counts" ] && [ -n "$devices" ] && [ -n "$gens" ] && [ -n "$layouts" ] && [ -n "$gf_presets" ] && [ -n "$max_seeds" ] && [ -n "$window_max" ] ||
	fail "check-vars: cannot read the valid values from the sources (tools/check_vars.sh is stale)"

# Variables given on make's command line (CMDLINE_VARS, by make's
# `origin`): each must be one that `make help` lists (the names that open
# the Makefile's `#: ` lines; <NAME>_SEEDS / <NAME>_CYCLES for a registered
# device NAME), or one of make's and the C toolchain's own, so that a
# misspelt name (FALT=x, seeds=1), which make would take silently and run
# the default, is refused with the name meant.
user_vars=$(grep -oE '^#: ([A-Z0-9_]+(, )?)+' Makefile | sed 's/^#: //' | tr ',' ' ')
for d in $devices; do user_vars="$user_vars ${d^^}_SEEDS ${d^^}_CYCLES"; done
user_vars=$(echo $user_vars)
[ -n "$user_vars" ] || fail "check-vars: cannot read make help's variables from the Makefile (tools/check_vars.sh is stale)"
for v in ${CMDLINE_VARS:-}; do
	case " $user_vars CC CXX CFLAGS CXXFLAGS CPPFLAGS LDFLAGS AR " in *" $v "*) continue ;; esac
	meant=$(python3 -c 'import difflib, sys; m = difflib.get_close_matches(sys.argv[1].upper(), sys.argv[2:], 1, 0.6); print(m[0] if m else "")' "$v" $user_vars 2>/dev/null)
	# ${!v} only for a name the shell can hold (make allows FOO-BAR=1).
	shown=$v; [[ "$v" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] && shown="$v=${!v-}"
	fail "$shown: not a variable of this Makefile${meant:+ (did you mean $meant?)}; \`make help\` lists them"
done


# $1 in the words $2?
one_of() {
	local w
	for w in $2; do [ "$1" = "$w" ] && return 0; done
	return 1
}

# A number as pcnt reads it: decimal or 0x-hex, `_` separators.
number() {
	[[ "$1" =~ ^([0-9][0-9_]*|0[xX][0-9a-fA-F_]+)$ ]]
}

# NAME VALUE MIN [MAX]: VALUE a number in MIN..=MAX (MAX default 2^64 - 1,
# pcnt's u64). Python compares, as bash's arithmetic wraps past 2^63 - 1.
# pcnt's reading of a number (cli.rs `num`), for python3 -c.
PYNUM='def n(s):
    s = s.replace("_", "")
    return int(s[2:], 16) if s[:2] in ("0x", "0X") else int(s)
'
check_number() {
	number "$2" || fail "$1=$2: expected a decimal or 0x-hex number"
	local v=${2//_/} why
	# Short numbers in bash (no python start-up per variable): decimal of up
	# to 18 digits or hex of up to 15 fits bash's signed 64-bit arithmetic.
	if { [[ "$v" =~ ^[0-9]{1,18}$ ]] && v=$((10#$v)); } || { [[ "$v" =~ ^0[xX][0-9a-fA-F]{1,15}$ ]] && v=$((v)); }; then
		[ "$v" -ge "$3" ] || fail "$1=$2: expected at least $3"
		[ -z "${4:-}" ] || [ "$v" -le "$4" ] || fail "$1=$2: expected at most $4"
		return 0
	fi
	why=$(python3 -c "$PYNUM"'
import sys
v, lo, hi = n(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3] or 2**64 - 1)
print("" if lo <= v <= hi else (f"expected at least {lo}" if v < lo else f"expected at most {hi}"))
' "$2" "$3" "${4:-}") || fail "check-vars: python3 failed on $1=$2"
	[ -z "$why" ] || fail "$1=$2: $why"
}

if [ -n "${NEED_FILE:-}" ] && [ -z "${FILE:-}" ]; then
	fail "$NEED_FILE"
fi
# Variables the Makefile always gives a value: empty means `NAME=` on the
# command line, which would reach pcnt as a missing option value.
for v in SEED SEEDS CYCLES DOMAINS GEN WINDOW JOBS SHARD OUT; do
	[ -n "${!v-x}" ] || fail "$v=: empty; leave it out for its default (make help lists them)"
done
[ -z "${SEED:-}" ] || check_number SEED "$SEED" 0
[ -z "${SEEDS:-}" ] || check_number SEEDS "$SEEDS" 1 "$max_seeds"
# Both short (below 2^60): their sum cannot pass 2^64 - 1.
short() { [[ "${1//_/}" =~ ^[0-9]{1,18}$ ]]; }
if [ -n "${SEED:-}" ] && [ -n "${SEEDS:-}" ] && ! { short "$SEED" && short "$SEEDS"; }; then
	python3 -c "$PYNUM"'
import sys; sys.exit(n(sys.argv[1]) + n(sys.argv[2]) - 1 > 2**64 - 1)' "$SEED" "$SEEDS" ||
		fail "SEED=$SEED SEEDS=$SEEDS: the last seed would pass 2^64 - 1"
fi
[ -z "${CYCLES:-}" ] || check_number CYCLES "$CYCLES" 1
[ -z "${WINDOW:-}" ] || check_number WINDOW "$WINDOW" 1 "$window_max"
[ -z "${JOBS:-}" ] || check_number JOBS "$JOBS" 1 4096
[ -z "${CORRUPT:-}" ] || check_number CORRUPT "$CORRUPT" 0
if [ -n "${CORRUPT:-}" ] && [ -n "${CYCLES:-}" ] && short "$CORRUPT" && short "$CYCLES"; then
	[ "$((10#${CORRUPT//_/}))" -lt "$((10#${CYCLES//_/}))" ] || fail "CORRUPT=$CORRUPT: past the end of every run (CYCLES=$CYCLES)"
elif [ -n "${CORRUPT:-}" ] && [ -n "${CYCLES:-}" ]; then
	python3 -c "$PYNUM"'
import sys; sys.exit(n(sys.argv[1]) >= n(sys.argv[2]))' "$CORRUPT" "$CYCLES" ||
		fail "CORRUPT=$CORRUPT: past the end of every run (CYCLES=$CYCLES)"
fi
# FILE: names separated by spaces; quotes and shell characters are refused
# (the recipes pass FILE to the shell unquoted); each name must exist.
if [ -n "${FILE:-}" ]; then
	[[ "$FILE" != *[\'\"\`\$\\\;\&\|\<\>\(\)]* ]] ||
		fail "FILE=$FILE: quotes and shell characters are not passed through make; run target/release/pcnt script 'FILE' instead"
	for f in $FILE; do
		[ "$f" = - ] || [ -e "$f" ] ||
			fail "FILE=$FILE: no such file: $f (a space separates files; for a name with a space run target/release/pcnt script directly)"
	done
fi
if [ -n "${DOMAINS:-}" ]; then
	IFS=, read -r -a list <<<"$DOMAINS"
	[ "${#list[@]}" -gt 0 ] || fail "DOMAINS=$DOMAINS: valid domain counts are $(join $domain_counts) (a comma list)"
	seen=" "
	for d in "${list[@]}"; do
		one_of "$d" "$domain_counts" ||
			fail "DOMAINS=$DOMAINS: valid domain counts are $(join $domain_counts) (a comma list; the Verilated builds)"
		[[ "$seen" != *" $d "* ]] || fail "DOMAINS=$DOMAINS: $d given twice (each count runs once)"
		seen="$seen$d "
	done
fi
if [ -n "${GEN:-}" ]; then
	IFS=, read -r -a list <<<"$GEN"
	for g in "${list[@]}"; do
		one_of "$g" "all $gens gf100" || fail "GEN=$GEN: valid generations are all, $(join $gens gf100) (a comma list)"
	done
fi
[ -z "${FAULT:-}" ] || one_of "$FAULT" "$faults" ||
	fail "FAULT=$FAULT: unknown fault; valid faults are the stems of tests/faults/*.fault and tests/*/faults/*.fault: $(join $faults)"
[ -z "${FAULTS:-}" ] || [ "$FAULTS" = all ] || fail "FAULTS=$FAULTS: expected all (every fault build; FAULT=name builds one)"
[ -z "${DEVICE:-}" ] || one_of "$DEVICE" "$devices" || fail "DEVICE=$DEVICE: valid devices are $(join $devices)"
if [ -n "${FAULT:-}" ] && [ -n "${DEVICE:-}" ]; then
	fdev=$(sed -n 's/^device: *//p' "$(fault_file "$FAULT")")
	[ "${fdev:-pcnt}" = "$DEVICE" ] || { [ "$fdev" = gf100 ] && [ "$DEVICE" = pcnt ]; } || fail "FAULT=$FAULT DEVICE=$DEVICE: FAULT is a ${fdev:-pcnt} fault; leave DEVICE out or set DEVICE=${fdev:-pcnt}"
fi
# Domain limit of a generation (S24): regmap/pcounter.rdl's pcnt_generation rows.
max_domains() {
	sed -nE "s/.*pcnt_generation'\{ *name: *\"$1\",.*max_domains: *([0-9]+).*/\1/p" regmap/pcounter.rdl
}
# The generations a run rotates over: GEN (all = every one), with FAULT only
# those of the fault's `gens:` line (default nv40,g84,g92,gt215, sim/build.rs).
rot=$gens
if [ -n "${GEN:-}" ] && ! one_of all "${GEN//,/ }"; then
	rot=""
	for g in ${GEN//,/ }; do [ "$g" = gf100 ] || rot="$rot $g"; done
fi
if [ -n "${FAULT:-}" ] && [ -z "$(sed -n 's/^device: *//p' "$(fault_file "$FAULT")")" ]; then
	fgens=$(sed -n 's/^gens: *//p' "$(fault_file "$FAULT")" | tr -d ' ')
	fgens=${fgens:-nv40,g84,g92,gt215}
	both=""
	for g in $rot; do one_of "$g" "${fgens//,/ }" && both="$both $g"; done
	[ -n "$both" ] || fail "FAULT=$FAULT GEN=$GEN: the fault runs on $(join ${fgens//,/ }) only (its gens: line)"
	# Its build has one domain count (`domains:`, default 2): a DOMAINS
	# list without it is refused, not overridden.
	fdoms=$(sed -n 's/^domains: *//p' "$(fault_file "$FAULT")" | tr -d ' ')
	fdoms=${fdoms:-2}
	[ -z "${DOMAINS:-}" ] || one_of "$fdoms" "${DOMAINS//,/ }" ||
		fail "FAULT=$FAULT DOMAINS=$DOMAINS: the fault is built with $fdoms domain(s); leave DOMAINS out"
elif [ -z "${FAULT:-}" ] && [ -n "${DOMAINS:-}" ] && [ "${DEVICE:-pcnt}" = pcnt ]; then
	# A domain count no generation of GEN has is skipped by the run (it says
	# so); refused only when that leaves nothing to run.
	IFS=, read -r -a list <<<"$DOMAINS"
	any=""
	for d in "${list[@]}"; do
		for g in $rot; do
			m=$(max_domains "$g")
			[ -n "$m" ] || fail "check-vars: no max_domains for $g in regmap/pcounter.rdl (tools/check_vars.sh is stale)"
			[ "$d" -le "$m" ] && any=1
		done
	done
	# GEN=gf100 alone: its presets give the domains, DOMAINS does not apply.
	[ -n "$any" ] || [ -z "${rot// /}" ] || fail "GEN=$GEN DOMAINS=$DOMAINS: no generation of GEN has that many domains (nv10/nv15: 1, nv20/nv30: 2, nv40+: 8)"
fi
[ -z "${LAYOUT:-}" ] || one_of "$LAYOUT" "$layouts $gf_presets" ||
	fail "LAYOUT=$LAYOUT: valid layouts are $(join $layouts), and for GEN=gf100 $(join $gf_presets)"
[ -z "${DECODE:-}" ] || one_of "$DECODE" "strict lax" || fail "DECODE=$DECODE: valid decodes are strict, lax"
[ -z "${WAVE:-}" ] || one_of "$WAVE" "vcd fst" || fail "WAVE=$WAVE: valid wave formats are vcd, fst"
if [ -n "${SHARD:-}" ]; then
	[[ "$SHARD" =~ ^([0-9]+)/([0-9]+)$ ]] && [ "${BASH_REMATCH[2]}" -ge 1 ] &&
		[ "${BASH_REMATCH[1]}" -lt "${BASH_REMATCH[2]}" ] ||
		fail "SHARD=$SHARD: expected I/N with 0 <= I < N"
fi
exit 0
