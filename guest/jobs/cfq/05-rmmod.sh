# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 5. rmmod while in use fails, after switching away succeeds, reload works
sw vdb cfq
rmmod cfq-iosched 2>/dev/null && bad "rmmod fails while vdb uses cfq" || ok "rmmod fails while vdb uses cfq"
for d in vdb nullb0; do sw $d mq-deadline; done
rmmod cfq-iosched && ok "rmmod after switching away" || bad "rmmod after switching away"
grep -qw cfq /sys/block/vdb/queue/scheduler && bad "cfq gone after rmmod" || ok "cfq gone after rmmod"
modprobe cfq-iosched && sw nullb0 cfq && ok "reload and switch" || bad "reload and switch"
