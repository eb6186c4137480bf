# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 1. module and selection
modprobe cfq-iosched && ok "modprobe cfq-iosched" || bad "modprobe cfq-iosched"
grep -qw cfq /sys/block/vdb/queue/scheduler && ok "cfq listed for vdb" || bad "cfq listed for vdb"
sw vdb cfq && ok "switch vdb to cfq" || bad "switch vdb to cfq"
I=/sys/block/vdb/queue/iosched
