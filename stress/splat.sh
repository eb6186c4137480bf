#!/bin/sh
# splat: the positive-control stressor (busybox sh in the guest, installed as
# bin/splat next to the C stressors). After --after seconds it makes the
# kernel print one real report of the kind asked for (guest/modules/rig_splat:
# lockdep, kasan, odebug, atomic_sleep, hung, race, leak; or wedge: every CPU
# spins with IRQs off and the guest prints nothing more), so the rig's own
# path from report (or silence) to finding to repro and minimizing can be
# checked end to end.
# It takes the options every stressor gets from the runner and ignores those
# it has no use for. Exit: 0, or 2 on a usage error or when the module fails.
kind=lockdep after=5
while [ $# -gt 0 ]; do
	case "$1" in
	--kind) kind=${2:?--kind needs a value}; shift ;;
	--after) after=${2:?--after needs a value}; shift ;;
	--duration | --seed | --stall-s | --dev | --offset | --size) shift ;;
	--allow-errors) ;;
	*) echo "splat: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
case "$kind" in
lockdep | kasan | odebug | atomic_sleep | hung | race | leak | wedge) ;;
*) echo "splat: --kind must be lockdep, kasan, odebug, atomic_sleep, hung, race, leak or wedge (got '$kind')" >&2; exit 2 ;;
esac
case "$after" in
'' | *[!0-9]*) echo "splat: --after must be seconds (got '$after')" >&2; exit 2 ;;
esac
sleep "$after"
[ -e /sys/kernel/debug/rig_splat ] || insmod /rig/modules/rig_splat.ko || exit 2
echo "$kind" >/sys/kernel/debug/rig_splat || exit 2
echo "result stressor=splat client=0 ops=1 bytes=0 errors=0 verify_fail=0 lat_max_us=0 lat_p99_us=0"
echo "summary stressor=splat seed=0 clients=1 ops=1 errors=0 verify_fail=0 status=ok"
