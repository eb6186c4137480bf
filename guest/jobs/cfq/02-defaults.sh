# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 2. defaults
for kv in quantum=4 queued=8 fifo_expire_sync=500 fifo_expire_async=5000 fifo_batch_expire=125 \
	back_seek_max=16384 back_seek_penalty=2 find_best_request=1 slice_sync=100 slice_async=40 \
	slice_async_rq=8 slice_idle=4 max_depth=4; do
	k=${kv%=*} v=${kv#*=}
	expect "$(cat $I/$k 2>&1)" "$v" "default $k=$v"
done
case "$(cat $I/key_type)" in *pid*) ok "default key_type pid" ;; *) bad "default key_type pid (got '$(cat $I/key_type)')" ;; esac
