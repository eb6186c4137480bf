/* Command-line options, the run's deadline and stop signal; see options.h. */
#include "common.h"

#include <errno.h>
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
};
const char *stressor_name = "?";
volatile sig_atomic_t stop_requested;
static uint64_t deadline_us;
static int seed_given;

enum {
	O_DURATION = 1, O_SEED, O_CLIENTS, O_DEV, O_SIZE, O_OFFSET, O_BS, O_QD, O_VERBOSE,
	O_HELP, O_ALLOW_ERRORS, O_PRINT_PLAN, O_DRY_RUN, O_SYSFS_ROOT, O_STALL, O_IOPRIO,
	O_CHECK,
};

static const struct option common_long[] = {
	{ "duration", required_argument, NULL, O_DURATION },
	{ "seed", required_argument, NULL, O_SEED },
	{ "clients", required_argument, NULL, O_CLIENTS },
	{ "dev", required_argument, NULL, O_DEV },
	{ "size", required_argument, NULL, O_SIZE },
	{ "offset", required_argument, NULL, O_OFFSET },
	{ "bs", required_argument, NULL, O_BS },
	{ "qd", required_argument, NULL, O_QD },
	{ "verbose", no_argument, NULL, O_VERBOSE },
	{ "help", no_argument, NULL, O_HELP },
	{ "allow-errors", no_argument, NULL, O_ALLOW_ERRORS },
	{ "print-plan", required_argument, NULL, O_PRINT_PLAN },
	{ "dry-run", no_argument, NULL, O_DRY_RUN },
	{ "sysfs-root", required_argument, NULL, O_SYSFS_ROOT },
	{ "stall-s", required_argument, NULL, O_STALL },
	{ "ioprio", required_argument, NULL, O_IOPRIO },
	{ "check", no_argument, NULL, O_CHECK },
};

static const char common_help[] =
	"common options:\n"
	"  --duration SEC      run time (default 10)\n"
	"  --seed N            64-bit seed (default: time based, printed in summary)\n"
	"  --clients N         number of clients (default 1)\n"
	"  --dev PATH          file or block device\n"
	"  --size BYTES        region size, K/M/G suffixes (default: whole dev/file)\n"
	"  --offset BYTES      where the region starts (multiple of --bs; default 0)\n"
	"  --bs BYTES          block size, multiple of 512 (default 4096)\n"
	"  --qd N              I/Os in flight for aio engines (default 8)\n"
	"  --allow-errors      I/O errors count in errors= but do not fail the run\n"
	"  --print-plan N      print the first N random choices and exit\n"
	"  --dry-run           privileged stressors: show targets and plan, change nothing\n"
	"  --sysfs-root DIR    directory standing in for /sys (default /sys)\n"
	"  --stall-s SEC       report a client without progress this long (default 60, 0 off)\n"
	"  --ioprio inherit|mix  mix: a seeded shuffler moves the clients between the RT\n"
	"                      and BE classes and their levels while they run (default inherit)\n"
	"  --check             check the options and exit 0 (else 2), touch nothing\n"
	"                      (host/hunt/scenario.sh check runs it on a scenario's lines)\n"
	"  --verbose, --help\n";

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

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

void parse_options(int argc, char **argv, const char *name,
		   const struct option *extra, extra_handler handler,
		   const char *extra_help)
{
	size_t nc = sizeof(common_long) / sizeof(common_long[0]), ne = 0;
	struct option *all;
	uint64_t v;
	long l;
	int c;

	stressor_name = name;
	while (extra && extra[ne].name)
		ne++;
	all = calloc(nc + ne + 1, sizeof(*all));
	if (!all)
		exit(2);
	memcpy(all, common_long, sizeof(common_long));
	if (ne)
		memcpy(all + nc, extra, ne * sizeof(*all));

	int check_only = 0;

	opterr = 1;
	while ((c = getopt_long(argc, argv, "", all, NULL)) != -1) {
		switch (c) {
		case O_DURATION: {
			char *end;
			errno = 0;
			opt.duration = strtod(optarg, &end);
			if (errno || end == optarg || *end || opt.duration < 0 ||
			    opt.duration > 1e7)
				usage_error("--duration: bad value '%s'", optarg);
			break;
		}
		case O_SEED:
			if (parse_u64(optarg, &v))
				usage_error("--seed: bad value '%s'", optarg);
			opt.seed = v;
			seed_given = 1;
			break;
		case O_CLIENTS:
			if (parse_int_arg("clients", optarg, 1, 4096, &l))
				exit(2);
			opt.clients = (int)l;
			break;
		case O_DEV:
			opt.dev = optarg;
			break;
		case O_SIZE:
			if (parse_u64(optarg, &v) || v == 0)
				usage_error("--size: bad value '%s'", optarg);
			opt.size = v;
			break;
		case O_OFFSET:
			if (parse_u64(optarg, &v) || v % 512)
				usage_error("--offset: '%s' must be a multiple of 512", optarg);
			opt.offset = v;
			break;
		case O_BS:
			if (parse_u64(optarg, &v) || v < 512 || v % 512 || v > (64 << 20))
				usage_error("--bs: '%s' must be a multiple of 512 up to 64M", optarg);
			opt.bs = (uint32_t)v;
			break;
		case O_QD:
			if (parse_int_arg("qd", optarg, 1, 1024, &l))
				exit(2);
			opt.qd = (int)l;
			break;
		case O_VERBOSE:
			opt.verbose++;
			break;
		case O_HELP:
			printf("usage: %s [options]\n%s%s", name, extra_help ? extra_help : "",
			       common_help);
			exit(0);
		case O_ALLOW_ERRORS:
			opt.allow_errors = 1;
			break;
		case O_PRINT_PLAN:
			if (parse_int_arg("print-plan", optarg, 1, 1000000, &l))
				exit(2);
			opt.print_plan = (int)l;
			break;
		case O_DRY_RUN:
			opt.dry_run = 1;
			break;
		case O_SYSFS_ROOT:
			opt.sysfs_root = optarg;
			break;
		case O_STALL:
			if (parse_int_arg("stall-s", optarg, 0, 86400, &l))
				exit(2);
			opt.stall_s = (int)l;
			break;
		case O_IOPRIO:
			opt.ioprio_mix = parse_choice("ioprio", optarg, "inherit", "mix");
			break;
		case O_CHECK:
			check_only = 1;
			break;
		case '?':
			/* getopt_long already printed what is wrong */
			usage_error("bad option");
		default:
			if (c < 100 || !handler || handler(c, optarg))
				exit(2);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (opt.offset % opt.bs)
		usage_error("--offset %llu is not a multiple of --bs %u",
			    (unsigned long long)opt.offset, opt.bs);
	free(all);
	if (check_only)
		exit(0);
	if (!seed_given) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t s = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
		s ^= (uint64_t)getpid() << 32;
		opt.seed = splitmix64(&s);
	}

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
