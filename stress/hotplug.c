/* hotplug: toggle CPUs 1..N offline/online; never cpu0; all online at exit. */
#include "common.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_CPUS 256

static char *online[MAX_CPUS];	/* .../cpuN/online paths */
static int cpu_num[MAX_CPUS];
static int ncpus;
static const char *cpus_arg;
static long interval_ms = 200;
static struct stats *st;

static const char intro[] =
	"CPU hotplug toggler: every --interval-ms flips a random CPU's\n"
	"<sysfs-root>/devices/system/cpu/cpuN/online (never cpu0), checks it reads\n"
	"back, and puts every CPU back online at exit. EBUSY/EAGAIN refusals are\n"
	"counted, not errors. ops = toggles.\n";
static const struct opt_spec options[] = {
	{ "cpus", OPT_STR, &cpus_arg, 0, 0, NULL, "LIST", "comma-separated CPU numbers (default: all but cpu0)" },
	{ "interval-ms", OPT_LONG, &interval_ms, 0, 3600000, NULL, "N", "pause between toggles (default 200)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL },
};

static void add_cpu(int n)
{
	char path[4096];

	if (n == 0)
		usage_error("cpu0 is never toggled");
	if (ncpus == MAX_CPUS)
		usage_error("too many CPUs");
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/online", opt.sysfs_root, n);
	online[ncpus] = strdup(path);
	cpu_num[ncpus++] = n;
}

static void find_cpus(void)
{
	if (cpus_arg) {
		char *s = strdup(cpus_arg);
		for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
			long n;
			if (parse_int_arg("cpus", tok, 0, 1 << 20, &n))
				exit(2);
			add_cpu((int)n);
		}
		return;
	}
	char pat[4096];
	glob_t g;
	snprintf(pat, sizeof(pat), "%s/devices/system/cpu/cpu[0-9]*/online", opt.sysfs_root);
	if (glob(pat, 0, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++) {
			const char *p = strstr(g.gl_pathv[i], "/cpu/cpu");
			int n = atoi(p + 8);
			if (n)
				add_cpu(n);
		}
}

static int read_state(int i)
{
	char buf[64];
	int n = sysfs_read(online[i], buf, sizeof(buf));

	if (n < 0)
		return -1;
	trim(buf);
	if (!strcmp(buf, "0"))
		return 0;
	if (!strcmp(buf, "1"))
		return 1;
	return -1;
}

/* Write state; 0 on success (read back equal), 1 refused, -1 error. */
static int set_state(int i, int want)
{
	uint64_t t0 = now_us();
	int err = sysfs_write(online[i], want ? "1\n" : "0\n");
	uint64_t lat = now_us() - t0;

	if (err == EBUSY || err == EAGAIN) {
		if (opt.verbose)
			fprintf(stderr, "hotplug: cpu%d %s refused: %s\n", cpu_num[i],
				want ? "online" : "offline", strerror(err));
		return 1;
	}
	if (err) {
		fprintf(stderr, "hotplug: writing %d to %s: %s\n", want, online[i], strerror(err));
		return -1;
	}
	int got = read_state(i);
	if (got != want) {
		fprintf(stderr, "hotplug: wrote %d to %s, read back %d\n", want, online[i], got);
		return -1;
	}
	stats_op(&st[0], 0, lat);
	return 0;
}

int main(int argc, char **argv)
{
	parse_options(argc, argv, "hotplug", options, intro, NULL);
	if (opt.clients != 1)
		usage_error("hotplug runs one client");
	find_cpus();
	if (!ncpus) {
		char cpu0[4096];

		snprintf(cpu0, sizeof(cpu0), "%s/devices/system/cpu/cpu0", opt.sysfs_root);
		if (access(cpu0, F_OK))
			usage_error("no CPUs found under %s", opt.sysfs_root);
		/* a guest with one vCPU (VCPUS=1): cpu0 is never toggled */
		fprintf(stderr, "hotplug: only cpu0 under %s: nothing to toggle\n",
			opt.sysfs_root);
		opt.stall_s = 0;
		st = stats_alloc(1);
		return report_results(st, 1, 1);
	}

	if (opt.dry_run || opt.print_plan) {
		struct rng r;
		rng_init(&r, opt.seed, 0);
		for (int i = 0; i < ncpus; i++)
			printf("cpu %d %s state=%d\n", cpu_num[i], online[i], read_state(i));
		for (int i = 0; i < (opt.print_plan ? opt.print_plan : 10); i++)
			printf("plan client=0 i=%d toggle=cpu%d\n", i,
			       cpu_num[rng_below(&r, (uint64_t)ncpus)]);
		return 0;
	}

	st = stats_alloc(1);
	struct rng r;
	rng_init(&r, opt.seed, 0);
	while (!time_up()) {
		int i = (int)rng_below(&r, (uint64_t)ncpus);
		int cur = read_state(i);
		if (cur < 0) {
			fprintf(stderr, "hotplug: cannot read %s\n", online[i]);
			stats_error(&st[0]);
		} else if (set_state(i, !cur) < 0) {
			stats_error(&st[0]);
		}
		if (interval_ms)
			sleep_us((uint64_t)interval_ms * 1000);
	}
	for (int i = 0; i < ncpus; i++) {
		int res = read_state(i) == 1 ? 0 : set_state(i, 1);
		for (int tries = 0; res == 1 && tries < 50; tries++) {	/* refused: retry 5 s */
			sleep_us(100 * 1000);
			res = set_state(i, 1);
		}
		if (res != 0) {
			fprintf(stderr, "hotplug: could not put cpu%d back online\n", cpu_num[i]);
			stats_error(&st[0]);
		}
	}
	return report_results(st, 1, 1);
}
