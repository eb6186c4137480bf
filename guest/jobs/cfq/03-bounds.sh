# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 3. bounds: accepted values read back, rejected ones fail with EINVAL and change nothing
accept() { # file value
	if echo "$2" >"$I/$1" 2>/dev/null && grep -q "$2" "$I/$1"; then ok "accepts $1=$2"
	else bad "accepts $1=$2 (reads '$(cat "$I/$1")')"; fi
}
reject() { # file value
	before=$(cat "$I/$1")
	# one write(2) of exactly these bytes; dd reports the errno text
	if printf '%s' "$2" | dd of="$I/$1" bs=4096 2>/tmp/err; then bad "rejects $1='$2' (write succeeded)"
	elif ! grep -q 'Invalid argument' /tmp/err; then bad "rejects $1='$2' with EINVAL (got: $(cat /tmp/err))"
	elif [ "$(cat "$I/$1")" != "$before" ]; then bad "rejects $1='$2' and keeps '$before' (now '$(cat "$I/$1")')"
	else ok "rejects $1='$2' with EINVAL"; fi
}
accept slice_idle 0; accept slice_idle 50; reject slice_idle 51; accept slice_idle 4
accept max_depth 2; reject max_depth 1; reject max_depth 0; accept max_depth 4
accept back_seek_penalty 1; reject back_seek_penalty 0; accept back_seek_penalty 2
accept quantum 1; reject quantum 0; accept quantum 4
accept find_best_request 0; reject find_best_request 2; accept find_best_request 1
reject slice_sync 0; reject slice_async 0; reject slice_async_rq 0
for k in pgid tgid uid gid pid; do accept key_type $k; done
reject key_type nosuch
for v in abc -1 99999999999999999999 " " 4x "1 2"; do reject slice_sync "$v"; done
reject slice_sync 7 # slice_idle 4 is fine, but 7/2 < 4
# the state is in debugfs, not among the tunables
[ ! -e "$I/show_status" ] && ok "no state file among the tunables" || bad "no state file among the tunables (show_status)"
st=$(sched_state vdb)
q=$(state_num "$st" queues)
[ -n "$q" ] && [ -n "$(state_num "$st" max_in_driver)" ] && ok "debugfs sched/queues readable ($q queues)" ||
	bad "debugfs sched/queues readable (got '$(printf '%s\n' "$st" | head -n1)')"
printf '%s\n' "$st" | sed 's/^/#   /' | head -8 >&3
