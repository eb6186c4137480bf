# The classifier's program (host/report/classify runs it; POSIX awk: mawk, busybox).
# Reads a console log (and the rig's results file), prints one line per
# distinct finding with a title in syzkaller's format. Which lines start a
# report, their kinds and title formats are the rules of host/report/report-patterns
# (-v patterns=FILE); this file holds how a title is made from a report.
#
#  1. Each line loses its printk prefix "[   12.345678][  T123] ". The caller tag
#     (T123 = a task, C1 = CPU 1 in interrupt) is kept: a report is followed only
#     through lines of the caller that printed its header, so two CPUs printing
#     at once do not mix.
#  2. A line that matches a rule's HEADER opens a report with the rule's kind and
#     title. "@X@" in a title stands for the guilty function: the first one that
#     is not generic (section GENERIC, and the rule's skip=) of, in order, the
#     rule's hint (x=rest, x=lock), the "RIP: 0010:" line and the "Call Trace:"
#     frames ("? " frames ignored), offsets, module names and
#     .cold/.isra.N/.constprop.N/.part.N removed. None: the RIP function, else
#     "corrupted". A line that continues a report (absorb=) is absorbed; a panic
#     that follows a report (kind consequence) is not a finding of its own.
#  3. RIG-FINDING:/RIG-HANG: lines (console or results file) are the rig's own
#     findings. At the end duplicates (same title) are merged and printed.
# With -v re=splat or -v re=report it prints the rules' headers as one ERE
# (host/lib.sh SPLAT_RE, REPORT_RE) and exits.
# To add a report type: a rule in host/report/report-patterns, and a
# tests/classifier/NAME.log with its NAME.expected.

BEGIN {
	# ---------------------------------------------------------------- GENERIC
	# Functions never named in a title: awk regexes, one family per comment.
	# printk, dump_stack and the WARN/BUG/oops machinery
	generic("dump_stack|dump_stack_lvl|__dump_stack|show_stack|show_regs|show_trace_log_lvl")
	generic("_printk|printk|vprintk.*|panic|__warn|__warn_printk|warn_slowpath.*|check_panic_on_warn")
	generic("report_bug|handle_bug|exc_.*|asm_exc_.*|do_error_trap|do_trap|die|oops_end")
	generic("refcount_.*|__refcount_.*")
	# KASAN and the string functions it checks
	generic("print_report|print_address_description|kasan_.*|__kasan_.*|____kasan_.*|__asan_.*")
	generic("check_memory_region|check_region_inline|memcpy|memmove|memset|__memcpy|__memmove|__memset")
	generic("memcpy_orig|memmove_orig|memset_orig|memcpy_erms|memset_erms|strlen|strnlen|strcpy|strncpy|strscpy")
	generic("_copy_to_user|_copy_from_user|copy_user_.*")
	# allocators, page freeing, fault injection
	generic("kmalloc|kmalloc_.*|__kmalloc|__kmalloc_.*|kzalloc|krealloc|kfree|kvfree|kvmalloc.*|__do_kmalloc_node")
	generic("kmem_cache_.*|__kmem_cache_.*|slab_.*|__slab_.*|___slab_.*|might_alloc|fs_reclaim_.*")
	generic("alloc_pages|alloc_pages_.*|__alloc_pages|__alloc_pages_.*|get_page_from_freelist")
	generic("bad_page|free_pcp_prepare|free_unref_page|free_unref_page_.*|__free_pages|__free_pages_ok|free_pages")
	generic("__folio_put|put_page|should_fail.*|__should_fail.*")
	# lockdep
	generic("lock_acquire|lock_release|__lock_acquire|__lock_release|lock_acquired|lock_contended|lockdep_.*")
	generic("mark_lock|mark_lock_.*|mark_usage|check_prev_add|check_prevs_add|validate_chain|check_noncircular")
	generic("print_circular_bug|print_.*_bug|debug_check_no_locks_freed")
	# might_sleep and preemption checks
	generic("__might_sleep|__might_resched|__might_fault|might_sleep|__cant_sleep|__schedule_bug")
	generic("check_preemption_disabled|debug_smp_processor_id|__this_cpu_preempt_check")
	# locking primitives
	generic("_raw_spin_.*|_raw_read_.*|_raw_write_.*|do_raw_spin_.*|do_raw_read_.*|do_raw_write_.*|spin_.*|raw_spin_.*")
	generic(".*queued_spin_lock_slowpath|queued_read_lock_slowpath|queued_write_lock_slowpath")
	generic("mutex_lock|mutex_lock_.*|__mutex_lock|__mutex_lock_.*|mutex_unlock|__mutex_unlock_slowpath")
	generic("down|down_.*|__down|__down_.*|up_read|up_write|rwsem_.*|__rwsem_.*|percpu_down_.*|__percpu_down_.*")
	generic("rt_mutex_.*|ww_mutex_.*|__ww_mutex_.*")
	# debugobjects, stack protector, thread and syscall entry
	generic("debug_object_.*|__debug_object_.*|debug_print_object|debug_check_no_obj_freed|__debug_check_no_obj_freed")
	generic("__stack_chk_fail|kthread|ret_from_fork|ret_from_fork_asm|entry_SYSCALL_64.*|do_syscall_64|do_syscall_x64")
	# calls that wait for or run other code: workqueues, timers, kthreads
	generic("__flush_work|flush_work|__cancel_work_timer|cancel_work_sync|cancel_delayed_work_sync|try_to_grab_pending")
	generic("flush_workqueue|__flush_workqueue|drain_workqueue|destroy_workqueue|queue_work|queue_work_on|__queue_work")
	generic("finish_wait|kthread_stop|del_timer|del_timer_sync|try_to_del_timer_sync|__try_to_del_timer_sync")
	# scheduler and waits (hung tasks)
	generic("__schedule|schedule|schedule_.*|io_schedule|io_schedule_.*|preempt_schedule.*")
	generic("__wait_for_common|wait_for_common|wait_for_common_.*|.*wait_for_completion.*")
	generic("bit_wait.*|__wait_on_bit.*|out_of_line_wait_on_bit.*|folio_wait_bit.*|__folio_lock.*|rq_qos_wait")
	# list and tree helpers (CONFIG_DEBUG_LIST checks, rbtree, elevator rb and hash helpers)
	generic("__list_add_valid|__list_del_entry_valid|__list_add|__list_del|list_.*|hlist_.*")
	generic("rb_.*|__rb_.*|elv_rb_.*|elv_rqhash_.*")
	# interrupt, timer and NMI plumbing (stalls and lockups)
	generic("asm_sysvec_.*|sysvec_.*|__sysvec_.*|asm_common_interrupt|common_interrupt")
	generic("irq_exit|irq_exit_rcu|__irq_exit_rcu|__do_softirq|do_softirq|invoke_softirq")
	generic("hrtimer_interrupt|__hrtimer_run_queues|__run_hrtimer|tick_sched_.*|tick_nohz_.*|update_process_times")
	generic("watchdog_timer_fn|trace_hardirqs_.*|rcu_sched_clock_irq|rcu_dump_cpu_stacks|print_cpu_stall|check_cpu_stall")
	generic("rcu_pending|nmi_.*|default_do_nmi|dump_cpu_task|trigger_.*backtrace|arch_trigger_cpumask_backtrace")
	GENERIC = "^(" GENERIC ")$"

	FRAME = "^ (\\? )?[A-Za-z_][A-Za-z0-9_.]*[+]0x[0-9a-f]+/0x[0-9a-f]+"
	HEX12 = "[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+"

	read_rules()
	if (re != "") { print watched(re); exit 0 }
}

function generic(alternatives) { GENERIC = GENERIC (GENERIC == "" ? "" : "|") alternatives }

# ------------------------------------------------------------ the rule table
function bad_rule(n, why) {
	printf "%s:%d: %s\n", patterns, n, why > "/dev/stderr"
	BAD = 1
	exit 2
}

# host/report/report-patterns -> NRULES rules: R_KIND R_WATCH R_HEAD R_TITLE R_X R_ABSORB R_SKIP
function read_rules(   line, n, f, k, i, o) {
	if (patterns == "") { print "classify.awk: -v patterns=FILE missing" > "/dev/stderr"; BAD = 1; exit 2 }
	n = 0
	while ((k = (getline line < patterns)) > 0) {
		n++
		if (line ~ /^[ \t]*(#|$)/) continue
		k = split(line, f, /\t+/)
		if (k < 4) bad_rule(n, "expected KIND WATCH HEADER TITLE [OPTIONS], tab-separated")
		if (f[1] !~ /^[a-z][a-z-]*$/) bad_rule(n, "kind '" f[1] "' is not a lower-case word")
		if (f[2] !~ /^(splat|report|-)$/) bad_rule(n, "watch must be splat, report or - (got '" f[2] "')")
		if (f[3] !~ /^\^/) bad_rule(n, "header must start with ^")
		if (index(f[3], "'")) bad_rule(n, "header must not contain a single quote (it travels in run.conf)")
		ALL = ALL (ALL == "" ? "" : "|") f[3]
		i = ++NRULES
		R_KIND[i] = f[1]; R_WATCH[i] = f[2]; R_HEAD[i] = f[3]; R_TITLE[i] = f[4]
		for (o = 5; o <= k; o++) {
			if (f[o] ~ /^x=(rest|lock|bt)$/) R_X[i] = substr(f[o], 3)
			else if (f[o] ~ /^absorb=./) R_ABSORB[i] = substr(f[o], 8)
			else if (f[o] ~ /^skip=./) R_SKIP[i] = substr(f[o], 6)
			else bad_rule(n, "unknown option '" f[o] "' (x=rest, x=lock, x=bt, absorb=ERE, skip=ERE)")
		}
	}
	if (k < 0) { print "classify: cannot read " patterns > "/dev/stderr"; BAD = 1; exit 2 }
	if (!NRULES) bad_rule(n, "no rule")
}

# the headers of the watched rules (splat, or splat and report) as one ERE,
# without their "^" (the callers anchor them after the printk prefix)
function watched(which,   i, out, h) {
	for (i = 1; i <= NRULES; i++) {
		if (R_WATCH[i] != "splat" && !(which == "report" && R_WATCH[i] == "report")) continue
		h = substr(R_HEAD[i], 2)
		out = out (out == "" ? "" : "|") h
	}
	return out
}

# ------------------------------------------------------------ title helpers
# Function name of "func+0x1a/0x30 [mod]", " ? func.isra.0+0x..", "func (file.c:12)".
function sym(s) {
	sub(/^[ \t]*(\? )?/, "", s)
	sub(/[+ (\t].*$/, "", s)
	sub(/[.].*$/, "", s)
	return s
}

# Remove what changes from run to run: addresses, symbol offsets, CPU numbers.
function stable(s) {
	gsub(/[+]0x[0-9a-f]+\/0x[0-9a-f]+/, "", s)
	gsub(HEX12, "ADDR", s)
	gsub(/CPU#?[0-9]+/, "CPU", s)
	gsub(/[ \t]+/, " ", s)
	sub(/^ /, "", s); sub(/[ !.]+$/, "", s)
	return s
}

# The stable words of an unknown "BUG: ..." line: up to " - ", ", ", ": ",
# " in process" or the first word with a number, "=" or an inner ":".
function bug_words(s,   w, n, i, out) {
	sub(/ in process .*$/, "", s); sub(/(: | - |, ).*$/, "", s)
	n = split(stable(s), w, " ")
	out = ""
	for (i = 1; i <= n; i++) {
		if (w[i] ~ /^\[.*\]$/) continue	# "[00000000]"
		if (w[i] ~ /[0-9=]|:./ || w[i] ~ /^[[(]/) break
		out = out (out == "" ? "" : " ") w[i]
		if (w[i] ~ /:$/) break
	}
	sub(/:$/, "", out)
	return out == "" ? "unknown" : out
}

# s with every "tok" replaced by val (literally: no regex, no "&")
function put(s, tok, val,   i, out) {
	out = ""
	while ((i = index(s, tok)) > 0) { out = out substr(s, 1, i - 1) val; s = substr(s, i + length(tok)) }
	return out s
}

# A title template of rule r for the header line text: the words, the
# match and the rest filled in; @X@ and @ACC@ wait for the report's body.
function fill(r, text, m, rest,   t, w, n, i) {
	t = R_TITLE[r]
	if (index(t, "$")) {
		n = split(text, w, " ")
		for (i = n; i >= 1; i--) t = put(t, "$" i, w[i])
	}
	gsub(/ \[[^]]*\]/, "", rest)	# module names
	t = put(t, "@WORDS@", bug_words(rest))
	t = put(t, "@REST@", stable(rest))
	t = put(t, "@MATCH@", stable(m))
	return t
}

# Open a report of rule r for the current caller tag.
function open_report(r, title, hint,   id) {
	id = ++NREP
	R_kind[id] = R_KIND[r]; R_title[id] = title; R_file[id] = FILENUM; R_line[id] = FNR
	R_absorb[id] = R_ABSORB[r]; R_left[id] = 8; R_skip[id] = R_SKIP[r]; R_x[id] = ""
	R_lockat[id] = (R_X[r] == "lock") ? 2 : 0; R_bt[id] = (R_X[r] == "bt")
	if (R_kind[id] != "panic") KERNEL_REPORTS++
	OPEN[tag] = id
	RCU_ID = (R_kind[id] == "rcu") ? id : ""
	candidate(id, hint)
	return id
}

# A finding with a complete title and nothing to follow (rig lines).
function add_finding(kind, title,   id) {
	gsub(/\t/, " ", title); sub(/[ ]+$/, "", title)
	id = ++NREP
	R_kind[id] = kind; R_title[id] = title; R_file[id] = FILENUM; R_line[id] = FNR
}

function candidate(id, f) {
	if (R_x[id] != "" || f == "" || f ~ GENERIC) return
	if (R_skip[id] != "" && f ~ R_skip[id]) return
	R_x[id] = f
	if (id == RCU_ID) RCU_ID = ""
}

function title_of(id,   t, x) {
	t = R_title[id]
	x = R_x[id]
	if (x == "") x = R_rip[id]
	if (x == "") x = "corrupted"
	t = put(t, "@ACC@", R_acc[id])
	return put(t, "@X@", x)
}

function jstr(s,   i, c, out) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\" || c == "\"") out = out "\\" c
		else if (c == "\t") out = out "\\t"
		else out = out c
	}
	return "\"" out "\""
}

FNR == 1 { FILENUM++ }

{
	# ------------------------------------------------- printk prefix and caller
	text = $0
	sub(/\r+$/, "", text)
	tag = ""
	if (match(text, /^\[ *[0-9]+\.[0-9]+\]/)) {
		text = substr(text, RLENGTH + 1)
		if (match(text, /^\[ *[TC][0-9]+\]/)) {
			tag = substr(text, 2, RLENGTH - 2)
			gsub(/ /, "", tag)
			text = substr(text, RLENGTH + 1)
		}
		sub(/^ /, "", text)
	}

	# ---------------------------------------- the rig: console and results file
	if (text ~ /^RIG-FINDING: /) { add_finding("rig", substr(text, 14)); next }
	if (text ~ /^RIG-HANG: /)    { add_finding("rig", "hang: " substr(text, 11)); next }
	if (FILENUM > 1) next

	id = OPEN[tag]
	if (id != "" && R_absorb[id] != "" && R_left[id]-- > 0 && text ~ R_absorb[id]) {
		R_absorb[id] = ""	# e.g. the "invalid opcode" oops after "kernel BUG at"
		next
	}
	# An RCU stall on another CPU is dumped by that CPU (NMI): follow it there.
	if (text ~ /^NMI backtrace for cpu [0-9]+$/ && RCU_ID != "") { OPEN[tag] = RCU_ID; next }

	# ---------------------------------------------- a header: the first rule
	if (text ~ ALL) {
		for (r = 1; r <= NRULES; r++) {
			if (!match(text, R_HEAD[r])) continue
			if (R_KIND[r] == "consequence") {
				if (KERNEL_REPORTS > 0) { OPEN[tag] = ""; next }
				continue
			}
			m = substr(text, RSTART, RLENGTH); rest = substr(text, RSTART + RLENGTH)
			open_report(r, fill(r, text, m, rest), R_X[r] == "rest" ? sym(rest) : "")
			next
		}
	}

	# ------------------------------------------------- body of the open report
	if (id == "") next
	if (text ~ /^RIP: 0010:/) {
		f = sym(substr(text, 11))
		if (R_rip[id] == "") R_rip[id] = f
		candidate(id, f)
	} else if (text ~ /^Call [Tt]race:/) {
		R_trace[id] = 1; R_lockat[id] = 0
	} else if (R_trace[id] && text ~ FRAME) {
		if (text !~ /^ \? /) candidate(id, sym(text))
	} else if (text ~ /^ ?<\/TASK>/ || text ~ /^---\[ end trace/) {
		OPEN[tag] = ""
	} else if (R_kind[id] == "kasan" && R_acc[id] == "" && text ~ /^(Read|Write) (of size [0-9]+ )?at addr /) {
		R_acc[id] = " " substr(text, 1, index(text, " ") - 1)
	} else if (R_bt[id] && text ~ /^ +(\[<[0-9a-f]+>\] )?[A-Za-z_][A-Za-z0-9_.]*[+]0x[0-9a-f]+\/0x[0-9a-f]+/) {
		# kmemleak's backtrace: "    [<ffff..>] f+0x1a/0x30" (6.1), "    f+0x1a/0x30" (6.12)
		f = text; sub(/^ +(\[<[0-9a-f]+>\] )?/, "", f)
		candidate(id, sym(f))
	} else if (R_lockat[id] > 0 && (text ~ /, at: [A-Za-z_]/ || text ~ /^\[<[0-9a-f]+>\] [A-Za-z_]/)) {
		# lockdep: "ffff.. (&q->sysfs_lock){+.+.}-{3:3}, at: f+0x..", "[<ffff..>] f+0x.."
		R_lockat[id]--
		f = text; sub(/^.*, at: /, "", f); sub(/^\[<[0-9a-f]+>\] /, "", f)
		candidate(id, sym(f))
	}
}

END {
	if (BAD || re != "") exit BAD ? 2 : 0
	for (id = 1; id <= NREP; id++) {	# reports are numbered in order of appearance
		t = title_of(id)
		if (!(t in FIRST)) { FIRST[t] = id; ORDER[++NT] = t }
		N[t, R_file[id]]++
	}
	if (json) printf "["
	for (i = 1; i <= NT; i++) {
		t = ORDER[i]; id = FIRST[t]
		# the results file repeats the console: count the larger of the two
		n = N[t, 1] > N[t, 2] ? N[t, 1] : N[t, 2]
		if (json)
			printf "%s\n  {\"kind\": %s, \"title\": %s, \"count\": %d, \"first_line\": %d}", \
				(i > 1 ? "," : ""), jstr(R_kind[id]), jstr(t), n, (R_file[id] == 1 ? R_line[id] : 0)
		else
			printf "finding\t%s\t%s%s\n", R_kind[id], t, (count ? "\tcount=" n : "")
	}
	if (json) printf "%s]\n", (NT ? "\n" : "")
	exit (NT > 0)
}
