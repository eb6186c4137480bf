# Time-sliced CFQ for blk-mq and its stress rig. See README.md.
# The two commands a newcomer needs:   make soak    make test

SCENARIO ?= hunt
DURATION ?= 30m
SEED     ?=
FLAVOR   ?= debug
export FLAVOR

.PHONY: all settings deps kernel guest boot soak cover cover-all detector-cost repro mutants defects bench test stress clean distclean help

help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)
	@echo
	@echo "settings (environment or make variables; host/knobs, the README's table):"
	@host/rig knobs
	@echo
	@echo "make turns every failure into exit 2: host/rig COMMAND [NAME=VALUE ...] keeps"
	@echo "0 clean, 1 findings, 2 bad input, 3 build failed, 125 cannot test (README)"

# the settings every target shares (FLAVOR, KVER, COVER, KERNEL_SRC,
# EXTRA_CONFIG), checked before deps and any build
settings:
	@bash -c '. host/lib.sh && kver_check && flavor_fragments "$$FLAVOR" >/dev/null && cover_check'

## deps     install missing Debian packages (apt-get)
deps:
	@host/deps.sh

## kernel   build the guest kernel (cached outside the repo, incremental)
kernel: settings deps
	@host/build/kernel.sh >/dev/null

## stress   build the static C stressors
stress: deps
	@$(MAKE) -s -C stress

## guest    build the guest images (initramfs, tools disk)
guest: kernel stress
	@host/build/image.sh "$$(host/build/kernel.sh | tail -n1)" >/dev/null

## boot     boot the guest once and power off (prints boot time)
boot: guest
	@host/vm/run.sh probe

## soak     rounds back to back: SCENARIO=hunt (a rotation) DURATION=30m SEED= [FAULTS=all]
##          [ROUNDS=a-b] [COVER=1] [KEEP_GOING=1]; input is checked before any build
soak:
	@SCENARIO="$(SCENARIO)" DURATION="$(DURATION)" SEED="$(SEED)" host/rig soak

## cover    a soak with coverage of block/cfq-iosched.c: SCENARIO=hunt DURATION=10m
cover:
	@SCENARIO="$(SCENARIO)" DURATION="$(DURATION)" SEED="$(SEED)" host/rig cover

## shard    the rounds of one soak on several hosts (GNU parallel --sshlogin), merged:
##          HOSTS=':,host2,user@host3' SCENARIO=hunt ROUNDS=1-14 SEED=1234 [CHUNK=] [RIG_DIR=]
.PHONY: shard
shard: deps
	@HOSTS="$(HOSTS)" host/hunt/shard.sh "$(SCENARIO)" "$(ROUNDS)" "$(SEED)"

## merge    one soak summary from soak directories (shards of one soak): DIRS="a b" [OUT=dir]
.PHONY: merge
merge:
	@host/report/merge.sh $(if $(OUT),-o "$(OUT)") $(DIRS)

## kcidb    a soak as KCIDB I/O JSON (schema v5.3): SOAK=logs/soak-... [OUT=file]
.PHONY: kcidb
kcidb:
	@host/rig kcidb

## cover-all  one round of every scenario with coverage, and their union (README table)
cover-all:
	@host/measure/cover-all.sh --check
	@$(MAKE) -s deps stress
	@host/measure/cover-all.sh

## repro    from a report: REPORT=FILE (a console log, dmesg or syzbot e-mail; BUDGET=1800)
##          or re-run a round N times: RUN=soak-.../r001 N=3, TITLE="..." (latest run with
##          that finding), or SCENARIO=x SEED=n N=3
##          MINIMIZE=1: then drop stressors and fault sets while it still reproduces
repro:
	@[ -n "$(REPORT)$(RUN)$(TITLE)$(SEED)" ] || { echo "error: make repro needs REPORT=FILE, RUN=..., TITLE=... or SCENARIO=... SEED=..." >&2; exit 2; }
	@SCENARIO="$(SCENARIO)" SEED="$(SEED)" host/rig repro

## verify-fix  the finding comes back without FIX and never with it (the same rounds):
##          FIX=PATCH [TITLE=...|REPORT=FILE|BUG=NAME] SEEDS=3 BUDGET=1800
.PHONY: verify-fix bisect realbugs
verify-fix:
	@host/rig verify-fix

## bisect   the first patch of SERIES=DIR with which the finding comes back:
##          SERIES=DIR TITLE=...|REPORT=FILE|EXPECT=... SEED=1 BUDGET=1800
bisect:
	@host/rig bisect

## realbugs the real-bug corpus (bugs/) through the default soak and their reports:
##          BUGS=a,b SEEDS=3 BUDGET=1800 REPORTS=1 CONTROL=1 (table in logs/realbugs-*/table)
realbugs:
	@host/rig realbugs

## mutants  hunt the planted-bug mutants: MUTANTS=NN[,NN] SEEDS=1 BUDGET=600 (class hunt)
##          BLIND=1 BLIND_BUDGET=600 (the default soak too)
mutants:
	@host/rig mutants

## defects  put the review's defects back one at a time (patch/$KVER/defects): each must fail
##          the scheduler check its Check: line names: MUTANTS=NN[,NN]
defects:
	@host/hunt/defects.sh --check $(MUTANTS)
	@$(MAKE) -s guest
	@host/hunt/defects.sh $(MUTANTS)

## detector-cost  wall time and ops of one round: plain, with coverage, with KCSAN (idle machine)
detector-cost:
	@host/measure/detector-cost.sh --check
	@$(MAKE) -s deps stress
	@host/measure/detector-cost.sh

## bench    scheduler benchmark, emulated disk, perf kernel: BENCH_TIME=5 BENCH_REPS=3 BENCH_DEVS=rotdisk ...
bench: deps
	@FLAVOR=perf host/measure/bench.sh

## test     all tests (host checks, positive controls, scheduler checks, smoke)
test:
	@host/rig test

## clean    remove build output in the repository (the built stressors); results stay
clean:
	rm -rf stress/bin

## clean-logs  remove every run's results (logs/)
.PHONY: clean-logs
clean-logs:
	rm -rf logs/*

## distclean  also remove the kernel cache (RIG_CACHE, default ~/.cache/cfq-rig), only
##          when it carries the rig's marker (.cfq-rig-cache)
distclean: clean
	@c="$${RIG_CACHE:-$$HOME/.cache/cfq-rig}"; \
	if [ -f "$$c/.cfq-rig-cache" ]; then echo "rm -rf $$c"; rm -rf "$$c"; \
	elif [ -e "$$c" ]; then echo "error: $$c has no .cfq-rig-cache marker: not the rig's cache, left alone" >&2; exit 2; fi
