/* Command-line options, the run's deadline and stop signal; see options.h. */
#include "common.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct common_opts opt = {
	.duration = 10,
	.clients = 1,
	.bs = 4096,
	.qd = 8,
	.sysfs_root = "/sys",
	.stall_s = 60,
	.cpu = -1,
};
const char *stressor_name = "?";
volatile sig_atomic_t stop_requested;
static uint64_t deadline_us;
static int seed_given;

static int check_only;

static void set_duration(const char *arg)
{
	char *end;

	errno = 0;
	opt.duration = strtod(arg, &end);
	if (errno || end == arg || *end || opt.duration < 0 || opt.duration > 1e7)
		usage_error("--duration: bad value '%s'", arg);
}

static void set_seed(const char *arg)
{
	if (parse_u64(arg, &opt.seed))
		usage_error("--seed: bad value '%s'", arg);
	seed_given = 1;
}

static void set_size(const char *arg)
{
	if (parse_u64(arg, &opt.size) || opt.size == 0)
		usage_error("--size: bad value '%s'", arg);
}

static void set_offset(const char *arg)
{
	if (parse_u64(arg, &opt.offset) || opt.offset % 512)
		usage_error("--offset: '%s' must be a multiple of 512", arg);
}

static void set_bs(const char *arg)
{
	uint64_t v;

	if (parse_u64(arg, &v) || v < 512 || v % 512 || v > (64 << 20))
		usage_error("--bs: '%s' must be a multiple of 512 up to 64M", arg);
	opt.bs = (uint32_t)v;
}

static void set_ioprio(const char *arg)
{
	opt.ioprio_mix = parse_choice("ioprio", arg, "inherit", "mix");
}

static const struct opt_spec common[] = {
	{ "duration", OPT_FN, NULL, 0, 0, set_duration, "SEC", "run time (default 10)" },
	{ "seed", OPT_FN, NULL, 0, 0, set_seed, "N", "64-bit seed (default: time based, printed in summary)" },
	{ "clients", OPT_INT, &opt.clients, 1, 4096, NULL, "N", "number of clients (default 1)" },
	{ "dev", OPT_STR, &opt.dev, 0, 0, NULL, "PATH", "file or block device" },
	{ "size", OPT_FN, NULL, 0, 0, set_size, "BYTES",
	  "region size, K/M/G suffixes (default: whole dev/file)" },
	{ "offset", OPT_FN, NULL, 0, 0, set_offset, "BYTES",
	  "where the region starts (multiple of --bs; default 0)" },
	{ "bs", OPT_FN, NULL, 0, 0, set_bs, "BYTES", "block size, multiple of 512 (default 4096)" },
	{ "qd", OPT_INT, &opt.qd, 1, 1024, NULL, "N", "I/Os in flight for aio engines (default 8)" },
	{ "allow-errors", OPT_FLAG, &opt.allow_errors, 0, 0, NULL, NULL,
	  "I/O errors count in errors= but do not fail the run" },
	{ "print-plan", OPT_INT, &opt.print_plan, 1, 1000000, NULL, "N",
	  "print the first N random choices and exit" },
	{ "dry-run", OPT_FLAG, &opt.dry_run, 0, 0, NULL, NULL,
	  "privileged stressors: show targets and plan, change nothing" },
	{ "sysfs-root", OPT_STR, &opt.sysfs_root, 0, 0, NULL, "DIR",
	  "directory standing in for /sys (default /sys)" },
	{ "stall-s", OPT_INT, &opt.stall_s, 0, 86400, NULL, "SEC",
	  "report a client without progress this long (default 60, 0 off)" },
	{ "ioprio", OPT_FN, NULL, 0, 0, set_ioprio, "inherit|mix",
	  "mix: a seeded shuffler moves the clients between the RT\n"
	  "and BE classes and their levels while they run (default inherit)" },
	{ "cpu", OPT_INT, &opt.cpu, 0, 1023, NULL, "N",
	  "run the stressor and its clients on CPU N only (modulo the\n"
	  "online CPUs): their requests start from that CPU's hardware\n"
	  "queue (default: wherever the kernel puts them)" },
	{ "migrate-us", OPT_LONG, &opt.migrate_us, 0, 1000000, NULL, "N",
	  "every N us a seeded mover binds one client to one\n"
	  "CPU: a running client is stopped wherever it is and\n"
	  "resumes there (default 0: off; not with --cpu)" },
	{ "check", OPT_FLAG, &check_only, 0, 0, NULL, NULL,
	  "check the options and exit 0 (else 2), touch nothing\n"
	  "(host/hunt/scenario.sh check runs it on a scenario's lines)" },
	{ "verbose", OPT_COUNT, &opt.verbose, 0, 0, NULL, NULL, "more output (repeatable)" },
	{ "help", OPT_HELP, NULL, 0, 0, NULL, NULL, "this text" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL },
};

/* one option's --help lines: "  --name ARG" in a 22-column margin, the
 * text beside it, each further line of it aligned; a range at the end */
static void print_opt(const struct opt_spec *o)
{
	char head[64];
	const char *t = o->help;

	snprintf(head, sizeof(head), "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	printf(strlen(head) <= 19 ? "  %-19s " : "  %s  ", head);
	for (; *t; t++) {
		putchar(*t);
		if (*t == '\n')
			printf("%22s", "");
	}
	if (o->kind == OPT_INT || o->kind == OPT_LONG)
		printf(" [%ld..%ld]", o->lo, o->hi);
	putchar('\n');
}

static void print_help(const char *name, const struct opt_spec *extra,
		       const char *intro, const char *outro)
{
	printf("usage: %s [options]\n%s", name, intro ? intro : "");
	for (; extra && extra->name; extra++)
		print_opt(extra);
	printf("%scommon options:\n", outro ? outro : "");
	for (const struct opt_spec *o = common; o->name; o++)
		print_opt(o);
}

/* the option's value from ARG (NULL for the kinds without one) */
static void set_opt(const struct opt_spec *o, const char *arg)
{
	long l;

	switch (o->kind) {
	case OPT_FLAG:
		*(int *)o->val = 1;
		break;
	case OPT_COUNT:
		++*(int *)o->val;
		break;
	case OPT_INT:
	case OPT_LONG:
		if (parse_int_arg(o->name, arg, o->lo, o->hi, &l))
			exit(2);
		if (o->kind == OPT_INT)
			*(int *)o->val = (int)l;
		else
			*(long *)o->val = l;
		break;
	case OPT_STR:
		*(const char **)o->val = arg;
		break;
	case OPT_FN:
		o->fn(arg);
		break;
	case OPT_HELP:
		break;
	}
}

int parse_choice(const char *name, const char *arg, const char *a, const char *b)
{
	if (!strcmp(arg, a))
		return 0;
	if (!strcmp(arg, b))
		return 1;
	usage_error("--%s must be %s or %s, not '%s'", name, a, b, arg);
}

void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", stressor_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see --help)\n");
	exit(2);
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	uint64_t mult = 1;
	switch (*end) {
	case 'k': case 'K': mult = 1ULL << 10; end++; break;
	case 'm': case 'M': mult = 1ULL << 20; end++; break;
	case 'g': case 'G': mult = 1ULL << 30; end++; break;
	case 't': case 'T': mult = 1ULL << 40; end++; break;
	default: break;
	}
	if (*end)
		return -1;
	if (v && mult > UINT64_MAX / v)
		return -1;
	*out = v * mult;
	return 0;
}

int parse_int_arg(const char *name, const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "%s: --%s: '%s' is not an integer in %ld..%ld\n",
			stressor_name, name, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* --cpu: children inherit the mask, so every client runs there too */
static void pin_cpu(int cpu)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(n > 0 ? cpu % (int)n : 0, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "%s: --cpu %d: %s\n", stressor_name, cpu, strerror(errno));
		exit(2);
	}
}

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

void parse_options(int argc, char **argv, const char *name,
		   const struct opt_spec *extra, const char *intro,
		   const char *outro)
{
	size_t nc = sizeof(common) / sizeof(common[0]) - 1, ne = 0;
	const struct opt_spec **spec;
	struct option *all;
	int c;

	stressor_name = name;
	while (extra && extra[ne].name)
		ne++;
	all = calloc(nc + ne + 1, sizeof(*all));
	spec = calloc(nc + ne, sizeof(*spec));
	if (!all || !spec)
		exit(2);
	/* getopt_long's value is the option's index + 1 in common, then extra */
	for (size_t k = 0; k < nc + ne; k++) {
		spec[k] = k < nc ? &common[k] : &extra[k - nc];
		all[k].name = spec[k]->name;
		all[k].has_arg = spec[k]->arg ? required_argument : no_argument;
		all[k].val = (int)k + 1;
	}
	opterr = 1;
	while ((c = getopt_long(argc, argv, "", all, NULL)) != -1) {
		if (c < 1 || c > (int)(nc + ne))
			usage_error("bad option");	/* getopt_long said what */
		if (spec[c - 1]->kind == OPT_HELP) {
			print_help(name, extra, intro, outro);
			exit(0);
		}
		set_opt(spec[c - 1], optarg);
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (opt.offset % opt.bs)
		usage_error("--offset %llu is not a multiple of --bs %u",
			    (unsigned long long)opt.offset, opt.bs);
	if (opt.migrate_us && opt.cpu >= 0)
		usage_error("--migrate-us moves the clients off --cpu %d: choose one", opt.cpu);
	free(all);
	free(spec);
	if (check_only)
		exit(0);
	if (!seed_given) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t s = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
		s ^= (uint64_t)getpid() << 32;
		opt.seed = splitmix64(&s);
	}

	if (opt.cpu >= 0 && !opt.dry_run)
		pin_cpu(opt.cpu);

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	set_deadline();
}

/* ---- time ------------------------------------------------------------- */

uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000;
}

void set_deadline(void)
{
	deadline_us = now_us() + (uint64_t)(opt.duration * 1e6);
}

int time_up(void)
{
	return stop_requested || now_us() >= deadline_us;
}

void sleep_us(uint64_t us)
{
	struct timespec ts = { .tv_sec = (time_t)(us / 1000000),
			       .tv_nsec = (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR && !stop_requested)
		;
}
