# Boot probe: reaching this line is the whole test.
rig_log "probe ok"
