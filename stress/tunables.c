/* tunables: random valid and invalid writes into the iosched tunables of cfq or bfq. */
#include "common.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { K_INT, K_KEYTYPE, K_SLICE_IDLE, K_SLICE_SYNC };

struct tunable {
	const char *name;
	int kind;
	long lo, hi, step;
	int lo_strict, hi_strict;	/* lo-1 / hi+1 must be refused */
	/* runtime */
	int present;
	char path[4096];
	char start[128];	/* value at start, restored at exit */
	char cur[128];		/* last value known to be in the file */
};

/* Valid ranges of the cfq tunables (times in ms, step 4 so that jiffy
 * rounding cannot change the value read back). Override with
 * --range NAME=MIN:MAX[:STEP]. nr_requests: values below 4 are clamped by
 * the block layer, so only garbage is invalid there. Ranges are kept modest
 * (the kernel accepts up to 60 s slices and depth 1024) so a random value
 * cannot stall I/O long enough to trip the hung task detector. */
static struct tunable cfq_tun[] = {
	{ .name = "quantum", .kind = K_INT, .lo = 1, .hi = 64, .step = 1, .lo_strict = 1 },
	{ .name = "queued", .kind = K_INT, .lo = 1, .hi = 128, .step = 1, .lo_strict = 1 },
	{ .name = "fifo_expire_sync", .kind = K_INT, .lo = 4, .hi = 1000, .step = 4 },
	{ .name = "fifo_expire_async", .kind = K_INT, .lo = 4, .hi = 1000, .step = 4 },
	{ .name = "fifo_batch_expire", .kind = K_INT, .lo = 4, .hi = 1000, .step = 4 },
	{ .name = "back_seek_max", .kind = K_INT, .hi = 65536, .step = 1 },
	{ .name = "back_seek_penalty", .kind = K_INT, .lo = 1, .hi = 16, .step = 1, .lo_strict = 1 },
	{ .name = "find_best_request", .kind = K_INT, .hi = 1, .step = 1, .hi_strict = 1 },
	{ .name = "key_type", .kind = K_KEYTYPE },
	{ .name = "slice_sync", .kind = K_SLICE_SYNC, .lo = 8, .hi = 1000, .step = 4 },
	{ .name = "slice_async", .kind = K_INT, .lo = 4, .hi = 1000, .step = 4 },
	{ .name = "slice_async_rq", .kind = K_INT, .lo = 1, .hi = 64, .step = 1, .lo_strict = 1 },
	{ .name = "slice_idle", .kind = K_SLICE_IDLE, .step = 4, .hi_strict = 1 },	/* 0..slice_sync/2 */
	{ .name = "max_depth", .kind = K_INT, .lo = 2, .hi = 64, .step = 1, .lo_strict = 1 },
	{ .name = "nr_requests", .kind = K_INT, .lo = 4, .hi = 128, .step = 1 },	/* in queue/, not iosched/ */
	{ .name = NULL },
};

/* bfq's (block/bfq-iosched.c): numbers out of range are clamped, not
 * refused, so only garbage is invalid. slice_idle and slice_idle_us are one
 * value, strict_guarantees raises slice_idle: a valid write re-reads them
 * all. timeout_sync down to 4 ms: a queue's budget times out within one
 * idle window, so dispatch, not the idle timer, expires an idling queue. */
static struct tunable bfq_tun[] = {
	{ .name = "timeout_sync", .kind = K_INT, .lo = 4, .hi = 500, .step = 4 },
	{ .name = "slice_idle", .kind = K_INT, .hi = 16, .step = 1 },
	{ .name = "slice_idle_us", .kind = K_INT, .hi = 16000, .step = 1 },
	{ .name = "fifo_expire_sync", .kind = K_INT, .lo = 4, .hi = 1000, .step = 4 },
	{ .name = "fifo_expire_async", .kind = K_INT, .lo = 4, .hi = 1000, .step = 4 },
	{ .name = "back_seek_max", .kind = K_INT, .hi = 65536, .step = 1 },
	{ .name = "back_seek_penalty", .kind = K_INT, .lo = 1, .hi = 16, .step = 1 },
	{ .name = "max_budget", .kind = K_INT, .lo = 64, .hi = 16384, .step = 1 },
	{ .name = "strict_guarantees", .kind = K_INT, .hi = 1, .step = 1 },
	{ .name = "low_latency", .kind = K_INT, .hi = 1, .step = 1 },
	{ .name = "nr_requests", .kind = K_INT, .lo = 4, .hi = 128, .step = 1 },
	{ .name = NULL },
};

/* The scheduler's table is the one whose marker file is in iosched/ */
static const struct table {
	const char *sched, *marker;
	struct tunable *tun;
} tables[] = {
	{ "cfq", "slice_sync", cfq_tun },
	{ "bfq", "timeout_sync", bfq_tun },
};
#define NTABLES (int)(sizeof(tables) / sizeof(tables[0]))
#define MAX_TUN 32

static const struct table *table;	/* the one in use */
static struct tunable *tun;
static int ntun;
static char marker_path[4096];

static const char *const key_types[] = { "pgid", "tgid", "pid", "uid", "gid" };
static const char *const garbage[] = { "-1", "abc", "12abc", "99999999999999999999", "\n" };
static const char *const bad_keys[] = { "nosuch", "\n", "pgidx", "pid tgid" };

static long interval_ms = 10, invalid_pct = 40;
static char status_path[4096];
static struct stats *st;
static volatile int reader_stop;

static const char intro[] =
	"Tunable churn on --dev's <sysfs-root>/block/<disk>/queue/iosched/ (and\n"
	"queue/nr_requests), for the scheduler whose tunables are there (cfq or\n"
	"bfq): valid writes must succeed and read back equal; invalid ones\n"
	"(garbage, negative, huge, empty; cfq: out of range) must fail with EINVAL\n"
	"(ERANGE accepted for the huge number) and leave the value unchanged. With\n"
	"cfq a thread reads the scheduler's state meanwhile (<sysfs-root>/kernel/\n"
	"debug/block/<disk>/sched/queues: a header of queues=N, then a line a\n"
	"queue). The values found at start are restored at exit. ops = writes.\n"
	"Another scheduler's files or none (switched away) are counted apart,\n"
	"not as errors.\n";

static struct tunable *find_in(struct tunable *t, const char *name)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static struct tunable *find_tun(const char *name)
{
	return find_in(tun, name);
}

/* File content -> comparable value: "[pid] tgid" -> "pid", "8\n" -> "8". */
static void normalize(char *buf, size_t len)
{
	char br[128];

	trim(buf);
	if (bracketed(buf, br, sizeof(br)) == 0)
		snprintf(buf, len, "%s", br);
}

static int read_value(struct tunable *t, char *out, size_t len)
{
	int n = sysfs_read(t->path, out, len);

	if (n < 0)
		return n;
	normalize(out, len);
	return 0;
}

static long round_up(long v, long step)
{
	return (v + step - 1) / step * step;
}

/* a valid value: one in four is an end of the range (the shortest
 * timeout, the deepest queue), where the rare paths are */
static long pick(struct rng *r, long lo, long hi, long step)
{
	long n, k = (long)rng_below(r, 8);

	lo = round_up(lo, step);
	if (hi < lo)
		return lo;
	n = (hi - lo) / step;
	if (k < 2)
		return lo + (k ? n * step : 0);
	return lo + step * (long)rng_below(r, (uint64_t)n + 1);
}

struct step {
	struct tunable *t;
	int invalid;
	char val[64];
};

/* One random write; valid values respect slice_idle <= slice_sync / 2 as
 * known from the cached current values. */
static struct step next_step(struct rng *r, struct tunable **live, int nlive)
{
	struct step s;
	struct tunable *t = live[rng_below(r, (uint64_t)nlive)];
	struct tunable *sync = find_tun("slice_sync"), *idle = find_tun("slice_idle");
	long sync_v = sync && sync->present == 1 ? atol(sync->cur) : 1000;
	long idle_v = idle && idle->present == 1 ? atol(idle->cur) : 0;
	long lo = t->lo, hi = t->hi;

	s.t = t;
	s.invalid = rng_below(r, 100) < (uint64_t)invalid_pct;
	if (t->kind == K_SLICE_IDLE)
		hi = sync_v / 2;
	if (t->kind == K_SLICE_SYNC && lo < 2 * idle_v)
		lo = 2 * idle_v;

	if (t->kind == K_KEYTYPE) {
		const char *v = s.invalid ? bad_keys[rng_below(r, 4)] : key_types[rng_below(r, 5)];
		snprintf(s.val, sizeof(s.val), "%s", v);
		return s;
	}
	if (!s.invalid) {
		snprintf(s.val, sizeof(s.val), "%ld", pick(r, lo, hi, t->step));
		return s;
	}
	/* invalid: garbage, or just outside a strict bound */
	int choice = (int)rng_below(r, 7);
	if (choice == 5 && t->lo_strict && lo > 0)
		snprintf(s.val, sizeof(s.val), "%ld", lo - 1 - (long)rng_below(r, (uint64_t)lo));
	else if (choice == 6 && t->hi_strict)
		snprintf(s.val, sizeof(s.val), "%ld", hi + 1 + (long)rng_below(r, 100));
	else
		snprintf(s.val, sizeof(s.val), "%s", garbage[choice % 5]);
	return s;
}

/* The elevator was switched away (another stressor): the files are gone, and
 * come back with default values when cfq is attached again. */
static int resync;
static uint64_t detach_count;

static int gone(int err)
{
	return err == ENOENT || err == ENODEV;
}

static void do_step(struct step *s, struct tunable **live, int nlive)
{
	struct tunable *t = s->t;
	char now[128], val[80];

	if (access(marker_path, F_OK)) {	/* another scheduler's files, or none */
		detach_count++;
		resync = 1;
		return;
	}
	snprintf(val, sizeof(val), "%s\n", s->val);
	uint64_t t0 = now_us();
	int err = sysfs_write(t->path, val);
	stats_op(&st[0], 0, now_us() - t0);
	int rerr = read_value(t, now, sizeof(now));
	if (gone(err) || gone(-rerr)) {
		detach_count++;
		resync = 1;
		return;
	}
	char shown[64];
	snprintf(shown, sizeof(shown), "%s", s->val);
	trim(shown);

	if (s->invalid) {
		int huge = !strcmp(s->val, "99999999999999999999");
		if (err != EINVAL && !(huge && err == ERANGE)) {
			stats_error(&st[0]);
			fprintf(stderr, "tunables: invalid %s='%s': %s (expected EINVAL)\n",
				t->name, shown, err ? strerror(err) : "accepted");
		}
		if (rerr || strcmp(now, t->cur)) {
			stats_error(&st[0]);
			fprintf(stderr, "tunables: invalid %s='%s' changed the value: '%s' -> '%s'\n",
				t->name, shown, t->cur, rerr ? strerror(-rerr) : now);
		}
	} else {
		if (err) {
			stats_error(&st[0]);
			fprintf(stderr, "tunables: valid %s='%s' refused: %s\n", t->name, shown,
				strerror(err));
		} else if (rerr || strcmp(now, s->val)) {
			stats_error(&st[0]);
			fprintf(stderr, "tunables: %s: wrote '%s', read back '%s'\n", t->name,
				shown, rerr ? strerror(-rerr) : now);
		}
	}
	if (!rerr)
		snprintf(t->cur, sizeof(t->cur), "%s", now);
	/* a valid write may move another tunable (bfq: slice_idle_us) */
	for (int i = 0; !s->invalid && !err && i < nlive; i++)
		if (live[i] != t && read_value(live[i], live[i]->cur, sizeof(live[i]->cur)))
			resync = 1;
}

/* The disk's scheduler state in debugfs, from its queue directory (.../DISK/queue) */
static void status_path_for(const char *qdir)
{
	char real[PATH_MAX], *slash;
	const char *disk;

	if (!realpath(qdir, real))
		snprintf(real, sizeof(real), "%s", qdir);
	slash = strrchr(real, '/');
	if (slash)
		*slash = 0;	/* drop "/queue" */
	slash = strrchr(real, '/');
	disk = slash ? slash + 1 : real;
	if (snprintf(status_path, sizeof(status_path), "%s/kernel/debug/block/%s/sched/queues",
		     opt.sysfs_root, disk) >= (int)sizeof(status_path))
		usage_error("--sysfs-root: path too long");
}

static void *status_reader(void *arg)
{
	char *buf = malloc(3 * 4096);
	int shown = 0;

	(void)arg;
	while (buf && !reader_stop) {
		int n = sysfs_read(status_path, buf, 3 * 4096);
		if (gone(-n))
			;	/* scheduler switched away, see do_step */
		else if (n <= 0 || strncmp(buf, "queues=", 7)) {
			stats_error(&st[0]);
			if (shown++ < 5)
				fprintf(stderr, "tunables: %s %s\n", status_path,
					n < 0 ? strerror(-n) : n == 0 ? "is empty" : "has no queues= header");
		}
		sleep_us(1000);
	}
	free(buf);
	return NULL;
}

static void restore(void)
{
	char now[128];

	/* two passes: slice_idle and slice_sync constrain each other */
	for (int pass = 0; pass < 2 && !access(marker_path, F_OK); pass++)
		for (int i = 0; i < ntun; i++) {
			struct tunable *t = &tun[i];
			if (t->present != 1)
				continue;
			if (read_value(t, now, sizeof(now)) == 0 && !strcmp(now, t->start))
				continue;
			int err = sysfs_write(t->path, t->start);
			if (gone(err))
				continue;	/* cfq not attached any more */
			if (pass == 1 && (err || read_value(t, now, sizeof(now)) ||
					  strcmp(now, t->start))) {
				stats_error(&st[0]);
				fprintf(stderr, "tunables: cannot restore %s to '%s'\n", t->name,
					t->start);
			}
		}
}

static void set_range(const char *arg)
{
	char name[64];
	long lo, hi, step = 0;
	int n = sscanf(arg, "%63[^=]=%ld:%ld:%ld", name, &lo, &hi, &step), found = 0;

	if (n < 3 || lo > hi || lo < 0 || step < 0 || !strcmp(name, "key_type"))
		usage_error("--range: bad value '%s' (NAME=MIN:MAX[:STEP])", arg);
	for (int k = 0; k < NTABLES; k++) {	/* in every scheduler that has it */
		struct tunable *t = find_in(tables[k].tun, name);

		if (!t)
			continue;
		found = 1;
		t->lo = lo;
		t->hi = hi;
		if (step)
			t->step = step;
	}
	if (!found)
		usage_error("--range: bad value '%s' (NAME=MIN:MAX[:STEP])", arg);
}

static void set_skip(const char *arg)
{
	int found = 0;

	for (int k = 0; k < NTABLES; k++) {
		struct tunable *t = find_in(tables[k].tun, arg);

		if (t) {
			t->present = -1;
			found = 1;
		}
	}
	if (!found)
		usage_error("--skip: unknown tunable '%s'", arg);
}

static const struct opt_spec options[] = {
	{ "range", OPT_FN, NULL, 0, 0, set_range, "NAME=MIN:MAX[:STEP]", "override a valid range" },
	{ "skip", OPT_FN, NULL, 0, 0, set_skip, "NAME", "leave this tunable alone (repeatable)" },
	{ "interval-ms", OPT_LONG, &interval_ms, 0, 3600000, NULL, "N", "pause between writes (default 10)" },
	{ "invalid-pct", OPT_LONG, &invalid_pct, 0, 100, NULL, "N", "percentage of invalid writes (default 40)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
	char qdir[3072];
	struct tunable *live[MAX_TUN];
	int nlive = 0;

	parse_options(argc, argv, "tunables", options, intro, NULL);
	if (opt.clients != 1)
		usage_error("tunables runs one writer client (plus a reader of the state)");
	if (queue_dir_for_dev(opt.dev, qdir, sizeof(qdir)))
		usage_error("--dev is required");
	for (int k = 0; k < NTABLES && !table; k++) {
		snprintf(marker_path, sizeof(marker_path), "%s/iosched/%s", qdir, tables[k].marker);
		if (!access(marker_path, F_OK))
			table = &tables[k];
	}
	if (!table)
		usage_error("%s/iosched has the tunables of none of: cfq bfq", qdir);
	tun = table->tun;
	while (tun[ntun].name)
		ntun++;
	status_path_for(qdir);
	for (int i = 0; i < ntun; i++) {
		struct tunable *t = &tun[i];
		if (t->present < 0)
			continue;
		snprintf(t->path, sizeof(t->path), "%s/%s%s", qdir,
			 strcmp(t->name, "nr_requests") ? "iosched/" : "", t->name);
		if (read_value(t, t->start, sizeof(t->start))) {
			fprintf(stderr, "tunables: %s missing, skipped\n", t->path);
			continue;
		}
		t->present = 1;
		snprintf(t->cur, sizeof(t->cur), "%s", t->start);
		live[nlive++] = t;
	}
	if (!nlive)
		usage_error("no tunables found under %s", qdir);

	struct rng r;
	rng_init(&r, opt.seed, 0);
	if (opt.dry_run || opt.print_plan) {
		for (int i = 0; i < nlive; i++)
			printf("tunable %s start='%s'\n", live[i]->path, live[i]->start);
		for (int i = 0; i < (opt.print_plan ? opt.print_plan : 10); i++) {
			struct step s = next_step(&r, live, nlive);
			trim(s.val);
			printf("plan client=0 i=%d %s='%s' expect=%s\n", i, s.t->name, s.val,
			       s.invalid ? "EINVAL" : "success");
			if (!s.invalid)	/* assume it worked, as the real run would */
				snprintf(s.t->cur, sizeof(s.t->cur), "%s", s.val);
		}
		return 0;
	}

	st = stats_alloc(1);
	pthread_t th;
	int reading = 0;
	if (strcmp(table->sched, "cfq"))
		;	/* only cfq's state is in debugfs */
	else if (access(status_path, F_OK)) {
		fprintf(stderr, "tunables: %s missing\n", status_path);
		stats_error(&st[0]);
	} else if (pthread_create(&th, NULL, status_reader, NULL)) {
		return 2;
	} else {
		reading = 1;
	}
	while (!time_up()) {
		if (resync && !access(marker_path, F_OK)) {	/* files back after a re-attach: fresh values */
			resync = 0;
			for (int i = 0; i < nlive; i++)
				if (read_value(live[i], live[i]->cur, sizeof(live[i]->cur)))
					resync = 1;
		}
		struct step s = next_step(&r, live, nlive);
		do_step(&s, live, nlive);
		if (interval_ms)
			sleep_us((uint64_t)interval_ms * 1000);
	}
	if (reading) {
		reader_stop = 1;
		pthread_join(th, NULL);
	}
	restore();
	if (detach_count)
		fprintf(stderr, "tunables: %llu writes found the files gone (scheduler "
			"switched away), not counted as errors\n",
			(unsigned long long)detach_count);
	return report_results(st, 1, 1);
}
