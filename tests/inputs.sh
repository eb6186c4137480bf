#!/usr/bin/env bash
# test: inputs 10 host
# Bad input gets a clear error before anything boots: scenario files, fault
# sets, command-line settings. Each case asserts the exit status (2) and the
# reason printed; the good cases assert what the plan contains.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

TEST_GROUP=inputs
. tests/lib.sh

scn() { # NAME LINES... -> a scenario file in $tmp
	local f="$tmp/$1.scn"
	shift
	printf '%s\n' "$@" >"$f"
	echo "$f"
}
base=("duration = 30" "devices = virtio nullb" "stressor = readers@virtio")
# sc DESCRIPTION EXIT PATTERN check|plan NAME LINE...: NAME.scn of the lines
# ("+" stands for the base lines above), then scenario.sh check (or plan, seed 7)
sc() {
	local d=$1 rc=$2 pat=$3 mode=$4 name=$5 l lines=() seed=()
	shift 5
	for l in "$@"; do if [ "$l" = + ]; then lines+=("${base[@]}"); else lines+=("$l"); fi; done
	[ "$mode" = check ] || seed=(7)
	expect "$d" "$rc" "$pat" host/hunt/scenario.sh "$mode" "$(scn "$name" "${lines[@]}")" "${seed[@]}"
}

sc "faults list form plans both sets" 0 "^PLAN_FAULTS='io-errors timeouts'$" plan good + "faults = io-errors timeouts"
f=$(scn all "${base[@]}" "faults = all")
expect "faults = all plans every set" 0 "^PLAN_FAULTS='$(cd faults && echo *.flt | sed 's/\.flt//g')'$" \
	host/hunt/scenario.sh plan "$f" 7
expect "FAULTS= overrides the scenario's sets" 0 "^PLAN_FAULTS='alloc'$" env FAULTS=alloc host/hunt/scenario.sh plan "$f" 7
expect "seed and duration from the command line" 0 "PLAN_SEED='42'" host/hunt/scenario.sh plan "$f" 42 5m
expect "duration 5m is 300 s" 0 "PLAN_DURATION='300'" host/hunt/scenario.sh plan "$f" 42 5m

# the C stressors check their own options on the host (--check), once built
make -s -C stress >/dev/null 2>&1
f=$(scn badopt "${base[@]}" "stressor = readers@nullb --pattern sequential")
expect "a stressor's bad option value is refused by its own parser" 2 \
	"badopt.scn:4: stressor readers: --pattern must be seq, rand or interleave" host/hunt/scenario.sh check "$f"
f=$(scn badopt2 "${base[@]}" "stressor = switcher --intervall-ms 5")
expect "a stressor's misspelt option is refused at the check" 2 \
	"badopt2.scn:4: stressor switcher: .*unrecognized option '--intervall-ms'" host/hunt/scenario.sh check "$f"
sc "good stressor options pass the check" 0 "" check goodopt + "stressor = churn@nullb --clients 3 --near"
sc "unknown fault set: file, line, name" 2 "nofault.scn:4: no fault set faults/bogus.flt" check nofault + "faults = io-errors bogus"
sc "fault set named twice" 2 "twice.scn:4: fault set 'alloc' named twice" check twice + "faults = alloc alloc"
sc "none combined with a set" 2 "nonemix.scn:4: none cannot be combined" check nonemix + "faults = none alloc"
sc "unknown scheduler" 2 "sched.scn:4: unknown scheduler 'cfq2'" check sched + "scheduler = cfq2"
sc "unknown stressor" 2 "stressor.scn:2: unknown stressor 'readrs'" check stressor "duration = 30" "stressor = readrs@virtio"
sc "stressor on a device not set up" 2 "dev.scn:3: stressor uses @nullb but devices = virtio" check dev "duration = 30" "devices = virtio" "stressor = readers@nullb"
sc "bad duration" 2 "dur.scn:1: duration 'soon' is not a time" check dur "duration = soon" "stressor = readers"
sc "missing duration" 2 "nodur.scn:0: missing 'duration'" check nodur "stressor = readers"
sc "unknown key" 2 "key.scn:4: unknown key 'colour'" check key + "colour = blue"
sc "vcpus: the plan asks for them" 0 "^PLAN_VCPUS='3'$" plan vcpus + "vcpus = 3"
sc "vcpus beyond the kernels' NR_CPUS" 2 "vcpus9.scn:4: vcpus must be 1 to 8" check vcpus9 + "vcpus = 9"
sc "migrate mover with --cpu" 2 "migcpu.scn:4: stressor readers: .*--migrate-us moves the clients off --cpu 1" check migcpu + "stressor = readers@nullb --cpu 1 --migrate-us 100"
sc "quotes in stressor options" 2 "quote.scn:2: quotes are not allowed" check quote "duration = 30" "stressor = readers --x 'a'"
sc "iosched tunables reach the plan" 0 "^PLAN_IOSCHED='slice_idle=20 quantum=8'$" plan tun + "iosched = slice_idle=20 quantum=8"
sc "iosched without a value" 2 "tunbad.scn:4: iosched must be tunable=value words" check tunbad + "iosched = slice_idle"
sc "iosched with scheduler none" 2 "tunnone.scn:0: iosched is set but scheduler = none" check tunnone "duration = 30" "scheduler = none" "iosched = slice_idle=20" "stressor = readers@virtio"
sc "queue attributes reach the plan" 0 "^PLAN_QUEUE='io_timeout=1000 nr_requests=16'$" plan q + "queue = io_timeout=1000 nr_requests=16"
sc "queue attribute without a value" 2 "qbad.scn:4: queue must be attribute=value words" check qbad + "queue = io_timeout"
sc "sdebug2 without a second LUN" 2 "lun.scn:0: sdebug2 needs sdebug among the devices with max_luns=2" check lun "duration = 30" "devices = sdebug sdebug2" "sdebug = max_queue=2" "stressor = readers@sdebug2"
sc "sdebug2 with max_luns=2" 0 "" check lun2 "duration = 30" "devices = sdebug sdebug2" "sdebug = max_luns=2" "stressor = readers@sdebug2"
sc "kmemleak = on reaches the plan" 0 "^PLAN_KMEMLEAK='on'$" plan leak + "kmemleak = on"
sc "kmemleak neither on nor off" 2 "leakbad.scn:4: kmemleak must be on or off" check leakbad + "kmemleak = yes"
expect "missing scenario file" 2 "no such scenario" host/hunt/scenario.sh check "$tmp/none.scn"
expect "FAULTS= with an unknown set" 2 "FAULTS: no fault set faults/nope.flt" env FAULTS="alloc nope" host/hunt/scenario.sh plan "$tmp/good.scn" 1
expect "bad DURATION on the command line" 2 "DURATION 'x1' is not a time" host/hunt/scenario.sh plan "$tmp/good.scn" 1 x1

flt() { printf '%s\n' "$2" >"$tmp/$1.flt"; echo "$tmp/$1.flt"; }
expect "fault: unknown fault" 2 "f1.flt:1: unknown fault 'fail_everything'" host/hunt/faults.sh check "$(flt f1 'fail_everything probability=1')"
expect "fault: probability out of range" 2 "f2.flt:1: probability must be 0..100" host/hunt/faults.sh check "$(flt f2 'failslab probability=101')"
expect "fault: unknown knob" 2 "f3.flt:1: unknown knob 'speed' for failslab" host/hunt/faults.sh check "$(flt f3 'failslab speed=3')"
expect "fault: target missing" 2 "f4.flt:1: fail_make_request needs target=DEV" host/hunt/faults.sh check "$(flt f4 'fail_make_request probability=1')"
expect "fault: bad target" 2 "f5.flt:1: target must be virtio, nullb or sdebug" host/hunt/faults.sh check "$(flt f5 'fail_io_timeout target=sda')"
expect "fault: not knob=value" 2 "f6.flt:1: expected knob=value, got 'oops'" host/hunt/faults.sh check "$(flt f6 'failslab oops')"
expect "fault: null_blk knob format" 2 "f7.flt:1: timeout must be interval,probability,space,times" host/hunt/faults.sh check "$(flt f7 'nullb timeout=1,2')"
expect "fault: same fault in two armed sets" 2 "f8.flt:1: fail_make_request is already set by faults/io-errors.flt" \
	host/hunt/faults.sh check faults/io-errors.flt "$(flt f8 'fail_make_request target=nullb probability=1')"
expect "fault: all sets together generate guest code" 0 "^faults_arm\(\) \{" host/hunt/faults.sh guest faults/*.flt

expect "run: unknown job" 2 "unknown job 'nojob'" host/vm/run.sh nojob
expect "run: bad guest setting" 2 "guest setting must look like RIG_NAME=value" host/vm/run.sh probe seed=3
expect "run: bad TIMEOUT" 2 "TIMEOUT must be a positive number" env TIMEOUT=-5 host/vm/run.sh probe
expect "soak: unknown scenario" 2 "unknown scenario 'nosuch'" host/hunt/soak.sh nosuch 1m
rot() { local f="$tmp/$1.rot"; shift; printf '%s\n' "$@" >"$f"; echo "$f"; }
expect "soak: rotation names no scenario" 2 "r1.rot:2: no scenario stress/scenarios/nosuch.scn" host/hunt/soak.sh "$(rot r1 'smoke 60' 'nosuch 60')" 1m
expect "soak: rotation duration too short" 2 "r2.rot:1: duration '5' must be at least 30" host/hunt/soak.sh "$(rot r2 'smoke 5')" 1m
expect "soak: rotation with a bad fault set" 2 "r3.rot:1: bad fault sets 'nope'" host/hunt/soak.sh "$(rot r3 'smoke 60 nope')" 1m
expect "soak: rotation with a stray word" 2 "r4.rot:1: expected 'SCENARIO \[DURATION\] \[FAULTS\|-\] \[FLAVOR\|-\]'" host/hunt/soak.sh "$(rot r4 'smoke 60 - - x')" 1m
expect "soak: rotation with an unknown flavor" 2 "r5.rot:2: unknown flavor 'turbo'" host/hunt/soak.sh "$(rot r5 'smoke 60' 'smoke 60 - turbo')" 1m
expect "soak: a rotation round without gcov under COVER=1" 2 "COVER=1 needs a kernel with gcov; FLAVOR=perf has none" \
	env COVER=1 host/hunt/soak.sh "$(rot r6 'smoke 60 - perf')" 1m
expect "soak: bad ROUNDS" 2 "ROUNDS must look like 3 or 2-5" env ROUNDS=5-x host/hunt/soak.sh smoke 1m
expect "soak: ROUNDS backwards" 2 "ROUNDS: 2 is before 5" env ROUNDS=5-2 host/hunt/soak.sh smoke 1m
expect "soak: bad FLAVOR before any build" 2 "unknown FLAVOR 'turbo'" env FLAVOR=turbo host/hunt/soak.sh smoke 1m
expect "cover: a flavor without gcov" 2 "COVER=1 needs a kernel with gcov; FLAVOR=perf has none" env FLAVOR=perf COVER=1 host/hunt/soak.sh smoke 1m
expect "cover: COVER not 0 or 1" 2 "COVER must be 0 or 1" env COVER=yes host/hunt/soak.sh smoke 1m
expect "cover: run.sh on a flavor without gcov" 2 "COVER=1 needs a kernel with gcov" env FLAVOR=perf COVER=1 host/vm/run.sh probe
expect "test: unknown ONLY group" 2 "unknown test group 'nosuch'" env ONLY=static,nosuch tests/run.sh
expect "fault: fail_function names" 2 "fn must be function names, comma-separated" host/hunt/faults.sh check "$(flt f9 'fail_function fn=a,,b retval=0')"
expect "repro: N must be a number" 2 "N must be a positive number" host/hunt/repro.sh smoke 1 x
expect "flavor: unknown FLAVOR" 2 "unknown FLAVOR 'turbo'" env FLAVOR=turbo host/build/kernel.sh
expect "repro: TITLE with no such finding in logs/index" 2 "no run in .* has a finding with 'no such title'" \
	env LOGS="$tmp" TITLE="no such title" host/hunt/repro.sh ""
expect "repro: a run directory without a summary" 2 "has no summary" env LOGS="$tmp" host/hunt/repro.sh "$tmp"

# every entry point: usage and input errors exit 2 with a reason, before any
# build, from any working directory (issue 13)
root=$PWD
expect "repro: no argument" 2 "usage: host/hunt/repro.sh" host/hunt/repro.sh
expect "repro: a scenario without SEED" 2 "a scenario needs a SEED" host/hunt/repro.sh smoke
expect "repro: SEED not a number" 2 "SEED 'x1' is not a number" host/hunt/repro.sh smoke x1
expect "repro: a rotation is not a scenario" 2 "'hunt' is a rotation" host/hunt/repro.sh hunt 1
expect "repro: unknown scenario, from another directory" 2 "nosuch.scn: no such scenario" \
	bash -c "cd / && '$root/host/hunt/repro.sh' nosuch 1"
expect "repro: bad DURATION" 2 "DURATION '5q' is not a time" host/hunt/repro.sh smoke 1 1 5q
expect "repro: FAULTS with an unknown set" 2 "FAULTS: no fault set faults/nope.flt" env FAULTS=nope host/hunt/repro.sh smoke 1
expect "repro: MINIMIZE not 0 or 1" 2 "MINIMIZE must be 0 or 1" env MINIMIZE=yes host/hunt/repro.sh smoke 1
expect "repro: TRIES not a positive number" 2 "TRIES must be a positive number" env TRIES=0 host/hunt/repro.sh smoke 1
expect "repro: unknown FLAVOR" 2 "unknown FLAVOR 'turbo'" env FLAVOR=turbo host/hunt/repro.sh smoke 1
expect "repro: unknown KVER" 2 "unknown KVER '9.9'" env KVER=9.9 host/hunt/repro.sh smoke 1
mkdir -p "$tmp/run1/files" && printf 'scenario=smoke\nseed=1\n' >"$tmp/run1/summary" && : >"$tmp/run1/files/plan"
expect "repro: FAULTS with a recorded run" 2 "FAULTS applies to a SCENARIO SEED replay" env FAULTS=alloc host/hunt/repro.sh "$tmp/run1"
expect "repro: too many arguments for a run" 2 "usage: host/hunt/repro.sh" host/hunt/repro.sh "$tmp/run1" 1 2
expect "scenario: no command" 2 "usage: host/hunt/scenario.sh" host/hunt/scenario.sh
expect "scenario: check without a file" 2 "usage: host/hunt/scenario.sh" host/hunt/scenario.sh check
expect "scenario: plan with a bad SEED" 2 "SEED 'abc' is not a number" host/hunt/scenario.sh plan stress/scenarios/smoke.scn abc
expect "scenario: plan from another directory" 0 "^PLAN_SEED='3'$" \
	bash -c "cd / && '$root/host/hunt/scenario.sh' plan '$root/stress/scenarios/smoke.scn' 3"
expect "mutants: MUTANTS names no mutant" 2 "MUTANTS: no mutant 99" env MUTANTS=02,99 host/hunt/mutants.sh
expect "mutants: MUTANTS not numbers" 2 "MUTANTS must be mutant numbers like 02,05" env MUTANTS=2 host/hunt/mutants.sh
expect "mutants: CLEAN not 0 or 1" 2 "CLEAN must be 0 or 1" env CLEAN=yes host/hunt/mutants.sh
expect "mutants: SEEDS not positive" 2 "SEEDS must be a positive number" env SEEDS=0 host/hunt/mutants.sh
expect "mutants: BUDGET too small" 2 "BUDGET must be at least 30 s" env BUDGET=10 host/hunt/mutants.sh
expect "mutants: BLIND not 0 or 1" 2 "BLIND must be 0 or 1" env BLIND=2 host/hunt/mutants.sh
expect "mutants: an argument" 2 "usage: host/hunt/mutants.sh" host/hunt/mutants.sh 02
expect "faults: no argument" 2 "usage: host/hunt/faults.sh" host/hunt/faults.sh
expect "image: no argument" 2 "usage: host/build/image.sh BUILD_DIR" host/build/image.sh
expect "image: not a build directory" 2 "usage: host/build/image.sh BUILD_DIR" host/build/image.sh "$tmp/nodir"
expect "detector-cost: unknown scenario" 2 "unknown scenario 'nosuch'" host/measure/detector-cost.sh nosuch
expect "detector-cost: DURATION too short" 2 "DURATION must be at least 30" host/measure/detector-cost.sh smoke 10
expect "detector-cost: SEED not a number" 2 "SEED must be a number" host/measure/detector-cost.sh smoke 60 x
expect "detector-cost: too many arguments" 2 "usage: host/measure/detector-cost.sh" host/measure/detector-cost.sh smoke 60 1 x
expect "cover-all: unknown scenario" 2 "unknown scenario 'nosuch'" host/measure/cover-all.sh nosuch
expect "cover-all: SEED not a number" 2 "SEED must be a number" env SEED=x host/measure/cover-all.sh smoke
expect "coverage: no command" 2 "usage: host/measure/coverage.sh" host/measure/coverage.sh
expect "coverage: line of a missing tracefile" 2 "usage: host/measure/coverage.sh line INFO" host/measure/coverage.sh line "$tmp/none.info"
expect "classify: --re with an unknown set" 2 "usage: host/report/classify" host/report/classify --re all
expect "make repro: bad SEED, no build" 2 "SEED 'abc' is not a number" make -s repro SCENARIO=smoke SEED=abc
expect "make mutants: unknown mutant, no build" 2 "MUTANTS: no mutant 99" make -s mutants MUTANTS=99
expect "make soak: unknown scenario, no build" 2 "unknown scenario 'typo'" make -s soak SCENARIO=typo
expect "make repro: no RUN, TITLE or SEED" 2 "make repro needs REPORT=FILE, RUN=..., TITLE=... or SCENARIO=... SEED=" make -s repro
expect "repro --check: good input exits 0, nothing built or run" 0 "^$" host/hunt/repro.sh --check smoke 1 1 90s
expect "mutants --check: good settings exit 0" 0 "^$" env MUTANTS=02,14 host/hunt/mutants.sh --check
expect "defects: an unknown defect number" 2 "no defect matches '99'" host/hunt/defects.sh --check 99
expect "defects: a malformed list" 2 "usage: host/hunt/defects.sh" host/hunt/defects.sh --check 1,x
expect "defects --check: good input exits 0" 0 "^$" host/hunt/defects.sh --check 01,05
expect "make kernel: unknown FLAVOR, before deps and the build" 2 "unknown FLAVOR 'turbo'" make -s kernel FLAVOR=turbo
expect "make cover-all: a flavor without gcov, no build" 2 "COVER=1 needs a kernel with gcov" make -s cover-all FLAVOR=perf
expect "cover-all --check: good input exits 0" 0 "^$" host/measure/cover-all.sh --check smoke
expect "detector-cost --check: good input exits 0" 0 "^$" host/measure/detector-cost.sh --check smoke 60 1
expect "scenario: the plan carries the fault code the guest arms (one file)" 0 "^faults_arm\(\) \{" \
	env FAULTS=alloc host/hunt/scenario.sh plan stress/scenarios/smoke.scn 1
