/* switcher: switch queues' I/O schedulers at random, valid and invalid names. */
#include "common.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OPT_QUEUES = 100, OPT_SCHEDS, OPT_MUST, OPT_INTERVAL, OPT_INVALID_PCT,
       OPT_NO_READBACK };

#define MAX_QUEUES 64
#define MAX_NAMES 16
#define LONG_LEN 5000

static char *queues[MAX_QUEUES];
static char orig[MAX_QUEUES][64];
static int nqueues;
static char *scheds[MAX_NAMES];
static int nscheds;
static char *must[MAX_NAMES];
static int nmust;
static long interval_ms = 100, invalid_pct = 25;
static int no_readback;
static char long_name[LONG_LEN + 1];
static struct stats *st;

/* Names the kernel must refuse with EINVAL. Not here: "" (a zero-length
 * sysfs write never reaches the store method), names starting with "none"
 * (6.1 matches with strncmp(name, "none", 4)), "cfq\n\n" (whitespace is
 * stripped, so that is a valid name: used as a valid variant below). */
static const char *const invalid_names[] = {
	"nosuch", "\n", "cfq cfq", "[cfq]", "cfqx", "-1", long_name,
};
#define N_INVALID (int)(sizeof(invalid_names) / sizeof(invalid_names[0]))
static const char *const suffixes[] = { "", "\n", "\n\n" };

static const struct option extra_opts[] = {
	{ "queues", required_argument, NULL, OPT_QUEUES },
	{ "scheds", required_argument, NULL, OPT_SCHEDS },
	{ "must-succeed", required_argument, NULL, OPT_MUST },
	{ "interval-ms", required_argument, NULL, OPT_INTERVAL },
	{ "invalid-pct", required_argument, NULL, OPT_INVALID_PCT },
	{ "no-readback", no_argument, NULL, OPT_NO_READBACK },
	{ NULL, 0, NULL, 0 },
};

static const char help[] =
	"Scheduler switcher: writes random scheduler names into queue/scheduler files.\n"
	"Valid names must succeed (or fail with EINVAL/ENOENT/EBUSY/ENOMEM: counted as\n"
	"unavailable, an error for --must-succeed names) and read back as [name];\n"
	"invalid names must fail with EINVAL. Restores the original schedulers.\n"
	"  --queues LIST        comma-separated scheduler files\n"
	"                       (default: <sysfs-root>/block/*/queue/scheduler)\n"
	"  --scheds LIST        valid names (default cfq,none,mq-deadline,kyber,bfq)\n"
	"  --must-succeed LIST  valid names that may not fail (default none)\n"
	"  --interval-ms N      pause between writes (default 100)\n"
	"  --invalid-pct N      percentage of invalid names (default 25)\n"
	"  --no-readback        skip the [current] check (fake trees); the check is\n"
	"                       also skipped with --clients > 1 (clients race)\n";

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

static int handle(int id, const char *arg)
{
	switch (id) {
	case OPT_QUEUES:
		nqueues = split_list(strdup(arg), queues, MAX_QUEUES, "queues");
		return 0;
	case OPT_SCHEDS:
		nscheds = split_list(strdup(arg), scheds, MAX_NAMES, "scheds");
		return 0;
	case OPT_MUST:
		nmust = split_list(strdup(arg), must, MAX_NAMES, "must-succeed names");
		return 0;
	case OPT_INTERVAL:
		return parse_int_arg("interval-ms", arg, 0, 3600000, &interval_ms);
	case OPT_INVALID_PCT:
		return parse_int_arg("invalid-pct", arg, 0, 100, &invalid_pct);
	case OPT_NO_READBACK:
		no_readback = 1;
		return 0;
	}
	return -1;
}

struct step {
	int q;
	int invalid;
	const char *name;	/* the scheduler name (valid) or the invalid string */
	const char *suffix;	/* appended to valid names */
	const char *key;	/* key_type set after a switch to cfq */
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

static void do_step(int idx, const struct step *s)
{
	char val[LONG_LEN + 8], cur[4096], br[64], sh[96];
	const char *path = queues[s->q];

	snprintf(val, sizeof(val), "%s%s", s->name, s->suffix);
	uint64_t t0 = now_us();
	int err = sysfs_write(path, val);
	uint64_t lat = now_us() - t0;

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
		if (!acceptable || is_must(s->name)) {
			stats_error(&st[idx]);
			fprintf(stderr, "switcher: switching %s to '%s' failed: %s\n", path,
				s->name, strerror(err));
		} else if (opt.verbose) {
			fprintf(stderr, "switcher: %s unavailable on %s: %s\n", s->name, path,
				strerror(err));
		}
		return;
	}
	stats_op(&st[idx], 0, lat);
	if (no_readback || opt.clients > 1)
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

int main(int argc, char **argv)
{
	static char defscheds[] = "cfq,none,mq-deadline,kyber,bfq", defmust[] = "none";
	glob_t g;

	memset(long_name, 'z', LONG_LEN);
	parse_options(argc, argv, "switcher", extra_opts, handle, help);
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
			printf("plan client=0 i=%d queue=%s write='%s' expect=%s\n", i,
			       queues[s.q], show(val, sh, sizeof(sh)),
			       s.invalid ? "EINVAL" : "success");
		}
		return 0;
	}

	st = stats_alloc(opt.clients);
	run_clients(opt.clients, client, NULL, st);
	for (int i = 0; i < nqueues; i++) {
		int err = sysfs_write(queues[i], orig[i]);
		if (err) {
			fprintf(stderr, "switcher: cannot restore %s to %s: %s\n", queues[i],
				orig[i], strerror(err));
			stats_error(&st[0]);
		}
	}
	return report_results(st, opt.clients, 1);
}
