/* teardown: load cfq, use it, try to unload it while in use, switch away,
 * unload it; optionally with a null_blk device powered on/off meanwhile, and
 * optionally switching away while cfq idles for a reader (idle timer armed). */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *modprobe = "/sbin/modprobe", *rmmod = "/sbin/rmmod";
static const char *module = "cfq-iosched", *sched = "cfq", *away = "mq-deadline";
static const char *nullb_name = "cfqstress", *configfs;
static long io_ms = 200, slice_idle_ms;
static int nullb, no_readback;
static char qsched[4096 + 64], iosched[4096 + 64], active_q[4096 + 64];
static struct stats *st;
static uint64_t busy_elsewhere, init_failed;
/* --slice-idle-ms: cycles with an idle phase; of their samples of the
 * debugfs active_queue just before the switch away, those read and those
 * showing the active queue idling (wait=1); the idler's reads (shared) */
static uint64_t idle_phases, idle_sampled, idle_seen, *idler_reads;

static const char intro[] =
	"Module teardown cycles on --dev's queue: modprobe MODULE, switch to SCHED,\n"
	"O_DIRECT reads for --io-ms, rmmod while in use (must fail), switch to AWAY,\n"
	"rmmod (must succeed; a failure while another queue still uses SCHED is\n"
	"counted apart as busy_elsewhere). ops = full cycles.\n";
static const struct opt_spec options[] = {
	{ "modprobe", OPT_STR, &modprobe, 0, 0, NULL, "PATH", "(default /sbin/modprobe)" },
	{ "rmmod", OPT_STR, &rmmod, 0, 0, NULL, "PATH", "(default /sbin/rmmod)" },
	{ "module", OPT_STR, &module, 0, 0, NULL, "NAME", "(default cfq-iosched)" },
	{ "sched", OPT_STR, &sched, 0, 0, NULL, "NAME", "(default cfq)" },
	{ "away", OPT_STR, &away, 0, 0, NULL, "NAME", "(default mq-deadline)" },
	{ "io-ms", OPT_LONG, &io_ms, 0, 600000, NULL, "N", "I/O time per cycle (default 200)" },
	{ "nullb-configfs", OPT_FLAG, &nullb, 0, 0, NULL, NULL,
	  "each cycle also creates a null_blk device through\n"
	  "configfs, powers it on/off while switching it to SCHED" },
	{ "nullb-name", OPT_STR, &nullb_name, 0, 0, NULL, "NAME", "configfs item name (default cfqstress)" },
	{ "configfs", OPT_STR, &configfs, 0, 0, NULL, "DIR", "configfs mount (default <sysfs-root>/kernel/config)" },
	{ "no-readback", OPT_FLAG, &no_readback, 0, 0, NULL, NULL, "skip the [current] check after switches (fake trees)" },
	{ "slice-idle-ms", OPT_LONG, &slice_idle_ms, 0, 30000, NULL, "MS",
	  "switch away and rmmod while the idle timer is armed\n"
	  "(0 = off, the default). After selecting SCHED,\n"
	  "each cycle sets iosched/slice_sync to max(current, 2*MS),\n"
	  "then slice_idle to MS; after the --io-ms I/O a child does\n"
	  "sync O_DIRECT reads of the region with a pause shorter than\n"
	  "MS after each (1 ms; 0.5 ms for MS=1), so cfq idles for it;\n"
	  "50-300 ms later, while it reads, rmmod (must fail), switch\n"
	  "to AWAY and rmmod as above; then the child is stopped\n"
	  "(SIGTERM, waitpid). Just before the switch, debugfs\n"
	  "block/<disk>/sched/active_queue is sampled (wait=1: the\n"
	  "timer was armed). The final stderr line adds\n"
	  "slice_idle_ms= idle_phases= idle_sampled= idle_seen=\n"
	  "idler_reads=" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL },
};

static void fail(const char *fmt, const char *a, const char *b)
{
	stats_error(&st[0]);
	fprintf(stderr, "teardown: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
}

static int cmd(const char *prog, const char *arg1, const char *arg2)
{
	char *argv[] = { (char *)prog, (char *)arg1, (char *)arg2, NULL };

	if (opt.verbose)
		fprintf(stderr, "teardown: run %s %s %s\n", prog, arg1, arg2 ? arg2 : "");
	return run_cmd(argv);
}

/* Switch a queue; must succeed and read back as [name]. */
static void switch_to(const char *path, const char *name)
{
	char cur[4096], br[64];
	int err = sysfs_write(path, name);

	/* under faults (fail_function on cfq_alloc_cfqd, failslab) setting up
	 * the scheduler may fail with ENOMEM: expected, counted, retried */
	for (int tries = 0; err == ENOMEM && opt.allow_errors && tries < 50; tries++) {
		init_failed++;
		sleep_us(10000);
		err = sysfs_write(path, name);
	}
	if (err) {
		fail("switching to %s failed: %s", name, strerror(err));
		return;
	}
	if (no_readback)
		return;
	int n = sysfs_read(path, cur, sizeof(cur));
	if (n < 0 || bracketed(cur, br, sizeof(br)) || strcmp(br, name)) {
		if (n >= 0)
			trim(cur);
		fail("switched to %s but scheduler reads '%s'", name, n < 0 ? "?" : cur);
	}
}

static int sched_in_use_elsewhere(void)
{
	char pat[4096], cur[4096], br[64];
	glob_t g;
	int found = 0;

	snprintf(pat, sizeof(pat), "%s/block/*/queue/scheduler", opt.sysfs_root);
	if (glob(pat, 0, NULL, &g))
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++)
		if (strcmp(g.gl_pathv[i], qsched) &&
		    sysfs_read(g.gl_pathv[i], cur, sizeof(cur)) > 0 &&
		    !bracketed(cur, br, sizeof(br)) && !strcmp(br, sched)) {
			fprintf(stderr, "teardown: %s still uses %s\n", g.gl_pathv[i], sched);
			found = 1;
		}
	globfree(&g);
	return found;
}

/* Child: O_DIRECT reads of --dev until ms have passed. */
static pid_t start_io(struct rng *r, long ms)
{
	uint64_t seed = rng_next(r);

	fflush(NULL);
	pid_t p = fork();
	if (p != 0)
		return p;
	struct rng cr;
	rng_init(&cr, seed, 0);
	int fd = open(opt.dev, O_RDONLY | O_DIRECT);
	if (fd < 0) {
		perror("teardown: open --dev");
		_exit(3);
	}
	uint64_t nb = total_blocks(fd), end = now_us() + (uint64_t)ms * 1000;
	char *buf = alloc_aligned(opt.bs);
	while (nb && now_us() < end && !stop_requested) {
		uint64_t off = opt.offset + rng_below(&cr, nb) * opt.bs, t0 = now_us();
		if (pread(fd, buf, opt.bs, (off_t)off) != (ssize_t)opt.bs) {
			if (!opt.allow_errors)	/* I/O errors are not this check's business */
				stats_error(&st[0]);
		}
		else
			stats_io(&st[0], opt.bs, now_us() - t0);
	}
	_exit(0);
}

static void wait_child(pid_t p, const char *what)
{
	int status;

	while (waitpid(p, &status, 0) < 0)
		if (errno != EINTR)
			return;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("%s child failed%s", what, "");
}

/* --slice-idle-ms: slice_sync to at least 2 * MS first (the kernel keeps
 * slice_idle <= slice_sync / 2 and refuses a change that breaks it), then
 * slice_idle to MS. A fresh cfq (module load or switch) starts from the
 * defaults: every cycle sets them. */
static void set_idle_tunables(void)
{
	char path[sizeof(iosched) + 16], v[32], cur[32];
	int n, err;

	snprintf(path, sizeof(path), "%s/slice_sync", iosched);
	n = sysfs_read(path, cur, sizeof(cur));
	if (n < 0) {
		fail("cannot read %s: %s", path, strerror(-n));
		return;
	}
	if (strtol(cur, NULL, 10) < 2 * slice_idle_ms) {
		snprintf(v, sizeof(v), "%ld", 2 * slice_idle_ms);
		if ((err = sysfs_write(path, v))) {
			fail("raising %s failed: %s", path, strerror(err));
			return;
		}
	}
	snprintf(path, sizeof(path), "%s/slice_idle", iosched);
	snprintf(v, sizeof(v), "%ld", slice_idle_ms);
	if ((err = sysfs_write(path, v))) {
		fail("setting %s failed: %s", path, strerror(err));
		return;
	}
	if (no_readback)
		return;
	n = sysfs_read(path, cur, sizeof(cur));
	if (n >= 0)
		trim(cur);
	if (n < 0 || strcmp(cur, v))
		fail("%s reads '%s' after the write", path, n < 0 ? strerror(-n) : cur);
}

/* Child for --slice-idle-ms: sync O_DIRECT reads of --dev's region, each
 * followed by a pause shorter than slice_idle, until SIGTERM. Its queue
 * stays the busy one and cfq idles for it (the idle hrtimer pending)
 * between its reads. */
static pid_t start_idler(struct rng *r)
{
	uint64_t seed = rng_next(r), pause_us = slice_idle_ms > 1 ? 1000 : 500;
	pid_t parent = getpid();

	fflush(NULL);
	pid_t p = fork();
	if (p != 0)
		return p;
	prctl(PR_SET_PDEATHSIG, SIGTERM);	/* no reader left behind if teardown dies */
	if (getppid() != parent)
		_exit(0);
	struct rng cr;
	rng_init(&cr, seed, 0);
	int fd = open(opt.dev, O_RDONLY | O_DIRECT);
	if (fd < 0) {
		perror("teardown: idler: open --dev");
		_exit(3);
	}
	uint64_t nb = total_blocks(fd);
	char *buf = alloc_aligned(opt.bs);
	while (nb && !stop_requested) {
		uint64_t off = opt.offset + rng_below(&cr, nb) * opt.bs, t0 = now_us();
		if (pread(fd, buf, opt.bs, (off_t)off) != (ssize_t)opt.bs) {
			if (!opt.allow_errors && !(stop_requested && errno == EINTR))
				stats_error(&st[0]);
		} else {
			stats_io(&st[0], opt.bs, now_us() - t0);
			__atomic_add_fetch(idler_reads, 1, __ATOMIC_RELAXED);
		}
		sleep_us(pause_us);
	}
	_exit(0);
}

/* The active queue idling, as the debugfs file shows it: "... wait=1". */
static void sample_idling(void)
{
	char buf[4096];

	if (!active_q[0] || sysfs_read(active_q, buf, sizeof(buf)) < 0)
		return;
	idle_sampled++;
	if (strstr(buf, " wait=1"))
		idle_seen++;
}

/* null_blk through configfs: create, power on/off a few times while a child
 * keeps switching the device's scheduler, remove. */
static void nullb_stage(struct rng *r)
{
	char dir[4096], path[4096 + 64], val[64], idx[32];

	snprintf(dir, sizeof(dir), "%s/nullb/%s", configfs, nullb_name);
	rmdir(dir);	/* leftover of an interrupted run */
	if (mkdir(dir, 0755)) {
		fail("mkdir %s: %s", dir, strerror(errno));
		return;
	}
	static const char *const attrs[] = { "size", "queue_mode", "irqmode", "completion_nsec" };
	long vals[] = { 16 + (long)rng_below(r, 241), 2, 2, (long)rng_below(r, 100001) };
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, attrs[i]);
		snprintf(val, sizeof(val), "%ld", vals[i]);
		int err = sysfs_write(path, val);
		if (err)
			fail("%s: %s", path, strerror(err));
	}
	snprintf(path, sizeof(path), "%s/power", dir);
	int err = sysfs_write(path, "1");
	if (err) {
		fail("%s=1: %s", path, strerror(err));
		rmdir(dir);
		return;
	}
	uint64_t seed = rng_next(r);
	fflush(NULL);
	pid_t sw = fork();
	if (sw == 0) {	/* switcher: errors are expected while power toggles */
		struct rng cr;
		char ipath[4096 + 64], spath[4096 + 64];
		rng_init(&cr, seed, 0);
		snprintf(ipath, sizeof(ipath), "%s/index", dir);
		uint64_t end = now_us() + (uint64_t)io_ms * 1000;
		while (now_us() < end && !stop_requested) {
			if (sysfs_read(ipath, idx, sizeof(idx)) > 0) {
				trim(idx);
				snprintf(spath, sizeof(spath), "%s/block/nullb%s/queue/scheduler",
					 opt.sysfs_root, idx);
				sysfs_write(spath, rng_below(&cr, 2) ? sched : away);
			}
			sleep_us(rng_below(&cr, 2000));
		}
		_exit(0);
	}
	int on = 1, toggles = 2 + (int)rng_below(r, 4);
	for (int i = 0; i < toggles; i++) {
		sleep_us((uint64_t)io_ms * 1000 / (uint64_t)(toggles + 1));
		on = !on;
		err = sysfs_write(path, on ? "1" : "0");
		if (err)
			fail("%s: power toggle: %s", dir, strerror(err));
	}
	if (sw > 0)
		wait_child(sw, "nullb switcher");
	if (on && (err = sysfs_write(path, "0")))
		fail("%s: power off: %s", dir, strerror(err));
	if (rmdir(dir))
		fail("rmdir %s: %s", dir, strerror(errno));
}

static void cycle(struct rng *r)
{
	uint64_t t0 = now_us();
	int rc;

	if ((rc = cmd(modprobe, module, NULL)))
		fail("modprobe %s failed (status %s)", module, rc == 127 ? "127: not run" : "non-zero");
	switch_to(qsched, sched);
	if (slice_idle_ms)
		set_idle_tunables();
	pid_t io = start_io(r, io_ms);
	sleep_us(rng_below(r, (uint64_t)io_ms * 500 + 1));
	if (cmd(rmmod, module, NULL) == 0)
		fail("rmmod %s succeeded while %s was in use", module, sched);
	if (nullb)
		nullb_stage(r);
	if (io > 0)
		wait_child(io, "I/O");
	pid_t idler = -1;
	if (slice_idle_ms) {
		/* the reader alone for 50-300 ms, then the unload attempt and
		 * the switch away while cfq idles for it */
		idler = start_idler(r);
		sleep_us(50000 + rng_below(r, 250001));
		if (cmd(rmmod, module, NULL) == 0)
			fail("rmmod %s succeeded while %s was in use (idling)", module, sched);
		sample_idling();
		idle_phases++;
	}
	switch_to(qsched, away);
	if ((rc = cmd(rmmod, module, NULL))) {
		/* Another queue may use the module, or a concurrent switch may
		 * hold a reference while it runs (elevator_get): retry for
		 * 10 s, and fail only if no other queue used it meanwhile. A
		 * switch under TCG with kmemleak on, beside other guests, has
		 * taken more than the 1 s this loop once allowed. */
		int seen = 0;

		for (int i = 0; i < 200 && rc && rc != 127; i++) {
			seen |= sched_in_use_elsewhere();
			sleep_us(50000);
			rc = cmd(rmmod, module, NULL);
		}
		if (rc && seen)
			busy_elsewhere++;
		else if (rc)
			fail("rmmod %s failed (status %s) with no queue using it", module,
			     rc == 127 ? "127: not run" : "non-zero");
	}
	if (idler > 0) {
		kill(idler, SIGTERM);
		wait_child(idler, "idle reader");
	} else if (slice_idle_ms) {
		fail("fork of the idle reader failed%s%s", "", "");
	}
	stats_op(&st[0], 0, now_us() - t0);
}

int main(int argc, char **argv)
{
	char qdir[4096], cfs[4096];

	parse_options(argc, argv, "teardown", options, intro, NULL);
	if (opt.clients != 1)
		usage_error("teardown runs one client");
	if (!opt.dev)
		usage_error("--dev is required");
	queue_dir_for_dev(opt.dev, qdir, sizeof(qdir));
	snprintf(qsched, sizeof(qsched), "%s/scheduler", qdir);
	if (!configfs) {
		snprintf(cfs, sizeof(cfs), "%s/kernel/config", opt.sysfs_root);
		configfs = cfs;
	}
	if (access(qsched, F_OK))
		usage_error("%s does not exist", qsched);
	if (slice_idle_ms) {
		/* debugfs names the disk: <sysfs-root>/kernel/debug/block/<disk> */
		char real[PATH_MAX];

		snprintf(iosched, sizeof(iosched), "%s/iosched", qdir);
		if (realpath(qdir, real))
			snprintf(active_q, sizeof(active_q), "%s/kernel/debug/block/%s/sched/active_queue",
				 opt.sysfs_root, basename(dirname(real)));
	}

	if (opt.dry_run || opt.print_plan) {
		struct rng r;
		rng_init(&r, opt.seed, 0);
		printf("queue %s\n", qsched);
		printf("plan step=1 run='%s %s'\n", modprobe, module);
		printf("plan step=2 write %s=%s\n", qsched, sched);
		if (slice_idle_ms)
			printf("plan step=2.1 write %s/slice_sync=max(current,%ld) then "
			       "%s/slice_idle=%ld\n", iosched, 2 * slice_idle_ms, iosched,
			       slice_idle_ms);
		printf("plan step=3 io dev=%s ms=%ld\n", opt.dev, io_ms);
		printf("plan step=4 run='%s %s' expect=fail\n", rmmod, module);
		if (nullb)
			printf("plan step=5 nullb %s/nullb/%s power on/off, switching to %s\n",
			       configfs, nullb_name, sched);
		if (slice_idle_ms) {
			printf("plan step=5.1 idler dev=%s sync reads with %d us pauses, "
			       "alone for 50-300 ms\n", opt.dev, slice_idle_ms > 1 ? 1000 : 500);
			printf("plan step=5.2 run='%s %s' expect=fail\n", rmmod, module);
			printf("plan step=5.3 read %s (wait=1: idling)\n",
			       active_q[0] ? active_q : "?");
		}
		printf("plan step=6 write %s=%s\n", qsched, away);
		printf("plan step=7 run='%s %s' expect=success\n", rmmod, module);
		if (slice_idle_ms)
			printf("plan step=8 stop the idler (SIGTERM, waitpid)\n");
		return 0;
	}

	idler_reads = mmap(NULL, sizeof(*idler_reads), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (idler_reads == MAP_FAILED) {
		perror("teardown: mmap");
		exit(2);
	}
	st = stats_alloc(1);
	if (nullb && cmd(modprobe, "null_blk", "nr_devices=0"))
		fail("modprobe null_blk nr_devices=0 failed%s%s", "", "");
	struct rng r;
	rng_init(&r, opt.seed, 0);
	while (!time_up())
		cycle(&r);
	char idle[200] = "";
	if (slice_idle_ms)
		snprintf(idle, sizeof(idle), " slice_idle_ms=%ld idle_phases=%llu idle_sampled=%llu "
			 "idle_seen=%llu idler_reads=%llu", slice_idle_ms,
			 (unsigned long long)idle_phases, (unsigned long long)idle_sampled,
			 (unsigned long long)idle_seen, (unsigned long long)*idler_reads);
	fprintf(stderr, "teardown: cycles=%llu busy_elsewhere=%llu init_failed=%llu%s\n",
		(unsigned long long)st[0].ops, (unsigned long long)busy_elsewhere,
		(unsigned long long)init_failed, idle);
	return report_results(st, 1, 1);
}
