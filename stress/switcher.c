/* switcher: switch queues' I/O schedulers at random, valid and invalid names. */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_QUEUES 64
#define MAX_NAMES 16
#define LONG_LEN 5000
#ifndef FAIL_NTH_PATH	/* a host test build may point it at another file */
#define FAIL_NTH_PATH "/proc/thread-self/fail-nth"
#endif

static char *queues[MAX_QUEUES];
static char orig[MAX_QUEUES][64];
static int nqueues;
static char *scheds[MAX_NAMES];
static int nscheds;
static char *must[MAX_NAMES];
static int nmust;
static long interval_ms = 100, invalid_pct = 25, fail_nth;
static const char *hwq_file;	/* --hw-queues: a null_blk configfs submit_queues */
static long ncpus = 1;
static int no_readback;
static char long_name[LONG_LEN + 1];
static struct stats *st;

/* --fail-nth counters, in shared memory (the clients are processes) */
struct fail_counts {
	uint64_t armed;		/* switches to cfq written with fail-nth set */
	uint64_t hit;		/* ... whose K-th check was reached (a fault was injected) */
	uint64_t init_failed;	/* ... that failed (an errno other than EINVAL) */
	uint64_t hwq_changes;	/* --hw-queues writes that took */
	uint64_t hwq_refused;	/* ... refused (EINVAL, EBUSY, ENOMEM) */
};
static struct fail_counts *fc;
static int fail_fd = -1;	/* this client's fail-nth, opened after the fork */

/* Names the kernel must refuse with EINVAL. Not here: "" (a zero-length
 * sysfs write never reaches the store method), names starting with "none"
 * (6.1 matches with strncmp(name, "none", 4)), "cfq\n\n" (whitespace is
 * stripped, so that is a valid name: used as a valid variant below). */
static const char *const invalid_names[] = {
	"nosuch", "\n", "cfq cfq", "[cfq]", "cfqx", "-1", long_name,
};
#define N_INVALID (int)(sizeof(invalid_names) / sizeof(invalid_names[0]))
static const char *const suffixes[] = { "", "\n", "\n\n" };

static const char intro[] =
	"Scheduler switcher: writes random scheduler names into queue/scheduler files.\n"
	"Valid names must succeed (or fail with EINVAL/ENOENT/EBUSY/ENOMEM: counted as\n"
	"unavailable, an error for --must-succeed names) and read back as [name];\n"
	"invalid names must fail with EINVAL. Restores the original schedulers.\n";

static int split_list(char *s, char **out, int max, const char *what)
{
	int n = 0;

	for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
		if (n == max)
			usage_error("too many %s (max %d)", what, max);
		out[n++] = tok;
	}
	if (!n)
		usage_error("empty %s list", what);
	return n;
}

static void set_queues(const char *arg)
{
	nqueues = split_list(strdup(arg), queues, MAX_QUEUES, "queues");
}

static void set_scheds(const char *arg)
{
	nscheds = split_list(strdup(arg), scheds, MAX_NAMES, "scheds");
}

static void set_must(const char *arg)
{
	nmust = split_list(strdup(arg), must, MAX_NAMES, "must-succeed names");
}

static const struct opt_spec options[] = {
	{ "queues", OPT_FN, NULL, 0, 0, set_queues, "LIST",
	  "comma-separated scheduler files\n"
	  "(default: <sysfs-root>/block/*/queue/scheduler)" },
	{ "scheds", OPT_FN, NULL, 0, 0, set_scheds, "LIST", "valid names (default cfq,none,mq-deadline,kyber,bfq)" },
	{ "must-succeed", OPT_FN, NULL, 0, 0, set_must, "LIST", "valid names that may not fail (default none)" },
	{ "interval-ms", OPT_LONG, &interval_ms, 0, 3600000, NULL, "N", "pause between writes (default 100)" },
	{ "invalid-pct", OPT_LONG, &invalid_pct, 0, 100, NULL, "N", "percentage of invalid names (default 25)" },
	{ "no-readback", OPT_FLAG, &no_readback, 0, 0, NULL, NULL,
	  "skip the [current] check (fake trees); the check is\n"
	  "also skipped with --clients > 1 (clients race)" },
	{ "fail-nth", OPT_LONG, &fail_nth, 0, 1000000, NULL, "N",
	  "elevator init failure (0 = off, the default): before\n"
	  "half the switches to cfq (drawn), write a random K\n"
	  "in 1..N to " FAIL_NTH_PATH " (the K-th fault-injection check\n"
	  "of the scheduler write fails: failslab, fail_page_alloc,\n"
	  "fail_function sites), write 0 after it. A failed switch\n"
	  "(any errno but EINVAL) counts as init_failed, not as an\n"
	  "error, and must leave [previous] or [none] (read back).\n"
	  "A task's fail-nth overrides every probability-based\n"
	  "fault set, so the other half stays open to those\n"
	  "(e.g. fail_function on the scheduler's own init).\n"
	  "Needs CONFIG_FAULT_INJECTION (exit 2 without; --print-plan\n"
	  "works anyway). Prints on stderr at the end:\n"
	  "switcher: fail_nth=N fail_nth_armed=N fail_nth_hit=N\n"
	  "init_failed=N (hit: the K-th check was reached)" },
	{ "hw-queues", OPT_STR, &hwq_file, 0, 0, NULL, "FILE", "a null_blk configfs submit_queues file: after every\n"
	  "switch, write a count drawn from 1..CPUs to it\n"
	  "(blk_mq_update_nr_hw_queues takes the elevator off and\n"
	  "puts it back); a refusal (EINVAL, EBUSY, ENOMEM) is\n"
	  "counted, not an error; prints on stderr at the end:\n"
	  "switcher: hw_queues changes=N refused=N" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL },
};

/* After a switch, read the disk's inflight and stat files, as iostat and
 * monitoring tools do: both walk the tags' requests (blk_mq_in_flight), the
 * walk that must not meet a request a scheduler switch just freed. */
static void read_disk_stats(const char *path)
{
	static const char *const files[] = { "inflight", "stat" };
	size_t l = strlen(path);
	char p[4200], buf[512];

	if (l < 15 || strcmp(path + l - 15, "queue/scheduler"))
		return;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%.*s%s", (int)(l - 15), path, files[i]);
		sysfs_read(p, buf, sizeof(buf));
	}
}

struct step {
	int q;
	int invalid;
	const char *name;	/* the scheduler name (valid) or the invalid string */
	const char *suffix;	/* appended to valid names */
	const char *key;	/* key_type set after a switch to cfq */
	int nth;		/* --fail-nth: K for this switch, 0 = not armed */
	int hwq;		/* --hw-queues: the count written after it, 0 = none */
};

/* A fresh cfq starts with key_type pid; varying it exercises queues shared by
 * several io_contexts (tgid, pgid, uid, gid keys) across switches. */
static const char *const key_types[] = { "pid", "tgid", "pgid", "uid", "gid" };

static struct step next_step(struct rng *r)
{
	struct step s;

	s.q = (int)rng_below(r, (uint64_t)nqueues);
	s.invalid = rng_below(r, 100) < (uint64_t)invalid_pct;
	if (s.invalid) {
		s.name = invalid_names[rng_below(r, N_INVALID)];
		s.suffix = "";
	} else {
		s.name = scheds[rng_below(r, (uint64_t)nscheds)];
		s.suffix = suffixes[rng_below(r, 3)];
	}
	s.key = key_types[rng_below(r, 5)];
	/* drawn last and only when armed: without --fail-nth the plan of a
	 * seed is what it was before the option existed. Half the switches
	 * to cfq stay unarmed: while a task's fail-nth counts down, no
	 * probability-based fault set can fail its checks (should_fail_ex),
	 * and fail_function on the scheduler's init must get its turn. */
	s.nth = 0;
	if (fail_nth && !s.invalid && !strcmp(s.name, "cfq") && rng_below(r, 2))
		s.nth = 1 + (int)rng_below(r, (uint64_t)fail_nth);
	/* drawn last, and only with --hw-queues, for the same reason */
	s.hwq = hwq_file ? 1 + (int)rng_below(r, (uint64_t)ncpus) : 0;
	return s;
}

/* printable form of a written string */
static const char *show(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (strlen(s) > 64) {
		snprintf(buf, len, "<%zu x '%c'>", strlen(s), s[0]);
		return buf;
	}
	for (; *s && o + 3 < len; s++) {
		if (*s == '\n') {
			buf[o++] = '\\';
			buf[o++] = 'n';
		} else {
			buf[o++] = *s;
		}
	}
	buf[o] = 0;
	return buf;
}

static int is_must(const char *name)
{
	for (int i = 0; i < nmust; i++)
		if (!strcmp(must[i], name))
			return 1;
	return 0;
}

/* Write n to this task's fail-nth. Returns 0 or an errno value. The file is
 * opened on first use, in the client: /proc/thread-self names the opener. */
static int set_fail_nth(int n)
{
	char v[16];
	int len = snprintf(v, sizeof(v), "%d", n);

	if (fail_fd < 0 && (fail_fd = open(FAIL_NTH_PATH, O_RDWR | O_CLOEXEC)) < 0)
		return errno;
	ssize_t w = write(fail_fd, v, (size_t)len);
	return w < 0 ? errno : w == len ? 0 : EIO;
}

/* The write of a switch to cfq under --fail-nth: the scheduler file is opened
 * first, then fail-nth is armed, so the K-th check falls in the switch
 * itself (kernfs buffer, elevator and cfq allocations), not in open(). Sets
 * *lat to the write's latency and *armed when fail-nth was set; returns 0 or
 * an errno value (of open() when that failed, unarmed). */
static int armed_write(int idx, const char *path, const char *val, int nth, uint64_t *lat,
		       int *armed)
{
	char left[32];
	int fd = open(path, O_WRONLY | O_TRUNC), err, aerr;

	*lat = 0;
	*armed = 0;
	if (fd < 0)
		return errno;
	aerr = set_fail_nth(nth);
	*armed = !aerr;
	if (aerr) {
		stats_error(&st[idx]);
		fprintf(stderr, "switcher: cannot arm %s with %d: %s\n", FAIL_NTH_PATH, nth,
			strerror(aerr));
	}
	uint64_t t0 = now_us();
	ssize_t n = write(fd, val, strlen(val));
	err = n < 0 ? errno : 0;
	*lat = now_us() - t0;
	if (!aerr) {
		__atomic_add_fetch(&fc->armed, 1, __ATOMIC_RELAXED);
		/* what is left of the count: 0 when the K-th check was reached */
		ssize_t l = pread(fail_fd, left, sizeof(left) - 1, 0);
		if (l > 0) {
			left[l] = 0;
			if (strtoul(left, NULL, 10) == 0)
				__atomic_add_fetch(&fc->hit, 1, __ATOMIC_RELAXED);
		}
		/* disarm; a second try if the first write was itself the
		 * K-th check (a usercopy site): the count is 0 by then */
		if ((aerr = set_fail_nth(0)) && (aerr = set_fail_nth(0))) {
			stats_error(&st[idx]);
			fprintf(stderr, "switcher: cannot disarm %s: %s\n", FAIL_NTH_PATH,
				strerror(aerr));
		}
	}
	close(fd);
	return err;
}

/* After a failed switch under --fail-nth: the queue must still have a
 * scheduler, the one before (the failure came before the switch) or none
 * (the old one was torn down and the new one's init failed). */
static void check_fallback(int idx, const char *path, const struct step *s, int err,
			   const char *prev)
{
	char cur[4096], br[64];
	int n = sysfs_read(path, cur, sizeof(cur));

	if (n >= 0 && !bracketed(cur, br, sizeof(br)) &&
	    (!strcmp(br, prev) || !strcmp(br, "none")))
		return;
	stats_error(&st[idx]);
	if (n >= 0)
		trim(cur);
	fprintf(stderr, "switcher: %s: switch to '%s' failed (%s, fail-nth %d), read back "
		"'%s', expected [%s] or [none]\n", path, s->name, strerror(err), s->nth,
		n < 0 ? strerror(-n) : cur, prev);
}

/* --hw-queues: change the hardware queue count of the device. A refusal
 * (EINVAL: a shared tag set, EBUSY, ENOMEM) is counted, not an error. */
static void set_hw_queues(int idx, int n)
{
	char v[16];
	uint64_t t0 = now_us();
	int err;

	snprintf(v, sizeof(v), "%d", n);
	err = sysfs_write(hwq_file, v);
	if (!err) {
		__atomic_add_fetch(&fc->hwq_changes, 1, __ATOMIC_RELAXED);
		stats_op(&st[idx], 0, now_us() - t0);
	} else if (err == EINVAL || err == EBUSY || err == ENOMEM) {
		__atomic_add_fetch(&fc->hwq_refused, 1, __ATOMIC_RELAXED);
	} else {
		stats_error(&st[idx]);
		fprintf(stderr, "switcher: writing %s to %s failed: %s\n", v, hwq_file,
			strerror(err));
	}
}

static void do_step(int idx, const struct step *s)
{
	char val[LONG_LEN + 8], cur[4096], br[64], prev[64] = "", sh[96];
	const char *path = queues[s->q];
	int readback = !no_readback && opt.clients == 1, armed = 0;
	uint64_t lat;
	int err;

	snprintf(val, sizeof(val), "%s%s", s->name, s->suffix);
	if (s->nth) {
		/* what a failed switch may fall back to: the scheduler before it */
		if (readback) {
			int n = sysfs_read(path, cur, sizeof(cur));
			if (n < 0 || bracketed(cur, prev, sizeof(prev))) {
				stats_error(&st[idx]);
				if (n >= 0)
					trim(cur);
				fprintf(stderr, "switcher: %s: no [current] before the switch: '%s'\n",
					path, n < 0 ? strerror(-n) : cur);
				return;
			}
		}
		err = armed_write(idx, path, val, s->nth, &lat, &armed);
	} else {
		uint64_t t0 = now_us();
		err = sysfs_write(path, val);
		lat = now_us() - t0;
	}

	if (s->invalid) {
		if (err == EINVAL) {
			stats_io(&st[idx], 0, lat);
		} else {
			stats_error(&st[idx]);
			fprintf(stderr, "switcher: invalid name '%s' written to %s: %s "
				"(expected EINVAL)\n", show(val, sh, sizeof(sh)), path,
				err ? strerror(err) : "accepted");
		}
		return;
	}
	if (err) {
		int acceptable = err == EINVAL || err == ENOENT || err == EBUSY || err == ENOMEM;
		if (armed && err != EINVAL) {
			/* an injected failure: expected, not an error */
			__atomic_add_fetch(&fc->init_failed, 1, __ATOMIC_RELAXED);
			stats_io(&st[idx], 0, lat);
			if (opt.verbose)
				fprintf(stderr, "switcher: init_failed: %s to '%s' with fail-nth "
					"%d: %s\n", path, s->name, s->nth, strerror(err));
		} else if (!acceptable || is_must(s->name)) {
			stats_error(&st[idx]);
			fprintf(stderr, "switcher: switching %s to '%s' failed: %s\n", path,
				s->name, strerror(err));
		} else if (opt.verbose) {
			fprintf(stderr, "switcher: %s unavailable on %s: %s\n", s->name, path,
				strerror(err));
		}
		if (armed && readback)
			check_fallback(idx, path, s, err, prev);
		return;
	}
	stats_op(&st[idx], 0, lat);
	read_disk_stats(path);
	if (!readback)
		return;
	int n = sysfs_read(path, cur, sizeof(cur));
	if (n < 0 || bracketed(cur, br, sizeof(br)) || strcmp(br, s->name)) {
		stats_error(&st[idx]);
		if (n >= 0)
			trim(cur);
		fprintf(stderr, "switcher: %s: wrote '%s', read back '%s'\n", path, s->name,
			n < 0 ? strerror(-n) : cur);
		return;
	}
	if (!strcmp(s->name, "cfq")) {
		/* .../queue/scheduler -> .../queue/iosched/key_type; a concurrent
		 * switch may have removed it already: not an error */
		char kpath[4200];
		size_t l = strlen(path);

		if (l > 9 && !strcmp(path + l - 9, "scheduler")) {
			snprintf(kpath, sizeof(kpath), "%.*siosched/key_type", (int)(l - 9), path);
			sysfs_write(kpath, s->key);
		}
	}
}

static void client(int idx, void *arg)
{
	struct rng r;

	(void)arg;
	rng_init(&r, opt.seed, (uint64_t)idx);
	while (!time_up()) {
		struct step s = next_step(&r);
		do_step(idx, &s);
		if (s.hwq)
			set_hw_queues(idx, s.hwq);
		if (interval_ms)
			sleep_us((uint64_t)interval_ms * 1000);
	}
}

/* Keep queues whose file lists alternatives ("[mq-deadline] none ..."). */
static void check_queues(void)
{
	int kept = 0;

	for (int i = 0; i < nqueues; i++) {
		char buf[4096], sh[96];
		int n = sysfs_read(queues[i], buf, sizeof(buf));
		if (n < 0) {
			fprintf(stderr, "switcher: cannot read %s: %s\n", queues[i], strerror(-n));
			exit(2);
		}
		trim(buf);
		if (bracketed(buf, orig[kept], sizeof(orig[0])) || !strchr(buf, ' ')) {
			fprintf(stderr, "switcher: skipping %s (no scheduler choice: '%s')\n",
				queues[i], show(buf, sh, sizeof(sh)));
			continue;
		}
		queues[kept++] = queues[i];
	}
	nqueues = kept;
	if (!nqueues)
		usage_error("no usable scheduler files");
}

/* --fail-nth counts only the checks a fault attribute lets through to
 * should_fail(): by default failslab and fail_page_alloc skip allocations
 * that may sleep (ignore-gfp-wait=Y), which is most of what a switch to cfq
 * allocates (the elevator queue, the scheduler tags, the scheduler's data).
 * Where no fault set uses the attribute (probability 0: nothing fails at
 * random), let the sleeping allocations through for the run, so that the
 * K-th one of a switch fails (one console line each, verbose=1); restore
 * ignore-gfp-wait at exit. Where a fault set
 * arms it, it owns the knob: leave it and say so. */
static const char *const nth_attrs[] = { "failslab", "fail_page_alloc" };
static int nth_changed[2];

static void fail_nth_prepare(void)
{
	char path[4200], prob[4200], v[16], p[16], left[64] = "";

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/kernel/debug/%s/ignore-gfp-wait", opt.sysfs_root,
			 nth_attrs[i]);
		snprintf(prob, sizeof(prob), "%s/kernel/debug/%s/probability", opt.sysfs_root,
			 nth_attrs[i]);
		if (sysfs_read(path, v, sizeof(v)) <= 0 || v[0] != 'Y')
			continue;
		if (sysfs_read(prob, p, sizeof(p)) > 0 && atoi(p) == 0 && !sysfs_write(path, "N")) {
			nth_changed[i] = 1;
			/* one line per injected failure, not a stack trace */
			snprintf(prob, sizeof(prob), "%s/kernel/debug/%s/verbose", opt.sysfs_root,
				 nth_attrs[i]);
			sysfs_write(prob, "1");
			continue;
		}
		snprintf(left + strlen(left), sizeof(left) - strlen(left), "%s%s",
			 left[0] ? "," : "", nth_attrs[i]);
	}
	if (left[0])
		fprintf(stderr, "switcher: note: a fault set arms %s with ignore-gfp-wait=Y: "
			"--fail-nth cannot fail their sleeping allocations\n", left);
}

static void fail_nth_restore(void)
{
	char path[4200];

	for (int i = 0; i < 2; i++) {
		if (!nth_changed[i])
			continue;
		snprintf(path, sizeof(path), "%s/kernel/debug/%s/ignore-gfp-wait", opt.sysfs_root,
			 nth_attrs[i]);
		sysfs_write(path, "Y");
	}
}

int main(int argc, char **argv)
{
	static char defscheds[] = "cfq,none,mq-deadline,kyber,bfq", defmust[] = "none";
	glob_t g;

	memset(long_name, 'z', LONG_LEN);
	parse_options(argc, argv, "switcher", options, intro, NULL);
	if (!nscheds)
		nscheds = split_list(defscheds, scheds, MAX_NAMES, "scheds");
	if (!nmust)
		nmust = split_list(defmust, must, MAX_NAMES, "must-succeed names");
	if (!nqueues) {
		char pat[4096];
		snprintf(pat, sizeof(pat), "%s/block/*/queue/scheduler", opt.sysfs_root);
		if (glob(pat, 0, NULL, &g) == 0)
			for (size_t i = 0; i < g.gl_pathc && nqueues < MAX_QUEUES; i++)
				queues[nqueues++] = g.gl_pathv[i];
	}
	if (!nqueues)
		usage_error("no scheduler files found (--queues / --sysfs-root)");
	check_queues();
	char hwq_orig[16] = "";
	if (hwq_file) {
		ncpus = sysconf(_SC_NPROCESSORS_CONF);
		if (ncpus < 1)
			ncpus = 1;
		int n = opt.print_plan ? 0 : sysfs_read(hwq_file, hwq_orig, sizeof(hwq_orig));
		if (n < 0) {
			fprintf(stderr, "switcher: --hw-queues %s: %s\n", hwq_file, strerror(-n));
			exit(2);
		}
		trim(hwq_orig);
	}
	if (fail_nth && !opt.print_plan) {
		if (access(FAIL_NTH_PATH, F_OK)) {
			fprintf(stderr, "switcher: --fail-nth %ld: %s: %s (a kernel without "
				"CONFIG_FAULT_INJECTION)\n", fail_nth, FAIL_NTH_PATH, strerror(errno));
			exit(2);
		}
		fail_nth_prepare();
	}

	if (opt.dry_run || opt.print_plan) {
		struct rng r;
		char sh[96];
		for (int i = 0; i < nqueues; i++)
			printf("queue %s current=%s\n", queues[i], orig[i]);
		rng_init(&r, opt.seed, 0);
		for (int i = 0; i < (opt.print_plan ? opt.print_plan : 10); i++) {
			struct step s = next_step(&r);
			char val[LONG_LEN + 8];
			snprintf(val, sizeof(val), "%s%s", s.name, s.suffix);
			if (s.nth)
				printf("plan client=0 i=%d queue=%s write='%s' fail_nth=%d "
				       "expect=success|init_failed\n", i, queues[s.q],
				       show(val, sh, sizeof(sh)), s.nth);
			else
				printf("plan client=0 i=%d queue=%s write='%s' expect=%s\n", i,
				       queues[s.q], show(val, sh, sizeof(sh)),
				       s.invalid ? "EINVAL" : "success");
			if (s.hwq)
				printf("plan client=0 i=%d hw_queues=%d\n", i, s.hwq);
		}
		return 0;
	}

	fc = mmap(NULL, sizeof(*fc), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fc == MAP_FAILED) {
		perror("switcher: mmap");
		exit(2);
	}
	st = stats_alloc(opt.clients);
	run_clients(opt.clients, client, NULL, st);
	for (int i = 0; i < nqueues; i++) {
		int err = sysfs_write(queues[i], orig[i]);
		/* A switch back may fail for a while, retried for up to 10 s:
		 * ENOMEM under faults (--allow-errors: cfq-alloc fails 20% of
		 * the scheduler's set-ups), and EINVAL while teardown unloads
		 * the scheduler's module (the elevator is gone and modprobe
		 * still sees the module: seen at the end of a switch-storm
		 * round) */
		for (int tries = 0; (err == EINVAL || (err == ENOMEM && opt.allow_errors)) && tries < 100;
		     tries++) {
			sleep_us(100000);
			err = sysfs_write(queues[i], orig[i]);
		}
		if (err) {
			fprintf(stderr, "switcher: cannot restore %s to %s: %s\n", queues[i],
				orig[i], strerror(err));
			stats_error(&st[0]);
		}
	}
	if (hwq_file) {
		if (hwq_orig[0] && sysfs_write(hwq_file, hwq_orig)) {
			fprintf(stderr, "switcher: cannot restore %s to %s\n", hwq_file, hwq_orig);
			stats_error(&st[0]);
		}
		fprintf(stderr, "switcher: hw_queues changes=%llu refused=%llu\n",
			(unsigned long long)fc->hwq_changes, (unsigned long long)fc->hwq_refused);
	}
	if (fail_nth)
		fprintf(stderr, "switcher: fail_nth=%ld fail_nth_armed=%llu fail_nth_hit=%llu "
			"init_failed=%llu\n", fail_nth, (unsigned long long)fc->armed,
			(unsigned long long)fc->hit, (unsigned long long)fc->init_failed);
	fail_nth_restore();
	return report_results(st, opt.clients, 1);
}
