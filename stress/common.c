/* Shared code of the stressors, see common.h. */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

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
	O_HELP, O_ALLOW_ERRORS, O_PRINT_PLAN, O_DRY_RUN, O_SYSFS_ROOT, O_STALL,
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

/* ---- PRNG ------------------------------------------------------------- */

uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_init(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t sm = seed ^ (stream * 0xd1342543de82ef95ULL + stream);

	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&sm);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	/* the tiny modulo bias is irrelevant here */
	return rng_next(r) % n;
}

/* ---- stats ------------------------------------------------------------ */

/* The progress watchdog, a process of its own (the stressors fork, so a
 * thread would not survive in the clients' view). A request stuck in the
 * scheduler does not trip the kernel's hung-task detector: blk_io_schedule()
 * wakes up every half hung-task period. The guest's runner turns the line
 * into a finding at once instead of at the deadline. */
static void stall_watchdog(struct stats *st, int n)
{
	pid_t parent = getpid(), p;
	uint64_t *seen, *since;
	char *told;

	fflush(NULL);
	p = fork();
	if (p < 0)
		perror("fork stall watchdog");
	if (p)
		return;
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	seen = calloc((size_t)n, sizeof(*seen));
	since = calloc((size_t)n, sizeof(*since));
	told = calloc((size_t)n, 1);
	if (!seen || !since || !told)
		_exit(0);
	while (getppid() == parent && now_us() < deadline_us) {
		uint64_t now = now_us();

		for (int i = 0; i < n; i++) {
			uint64_t v = __atomic_load_n(&st[i].ops, __ATOMIC_RELAXED) +
				     __atomic_load_n(&st[i].bytes, __ATOMIC_RELAXED) +
				     __atomic_load_n(&st[i].errors, __ATOMIC_RELAXED);

			if (__atomic_load_n(&st[i].done, __ATOMIC_RELAXED))
				continue;
			if (!since[i] || v != seen[i]) {
				seen[i] = v;
				since[i] = now;
				told[i] = 0;
			} else if (!told[i] && now - since[i] >= (uint64_t)opt.stall_s * 1000000) {
				fprintf(stderr, "stall: %s client %d made no progress for %d s\n",
					stressor_name, i, opt.stall_s);
				told[i] = 1;
			}
		}
		struct timespec ts = { .tv_sec = 1 };
		nanosleep(&ts, NULL);
	}
	_exit(0);
}

struct stats *stats_alloc(int n)
{
	void *p = mmap(NULL, sizeof(struct stats) * (size_t)n, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap stats");
		exit(2);
	}
	if (opt.stall_s > 0 && !opt.dry_run && !opt.print_plan)
		stall_watchdog(p, n);
	return p;
}

/* log2-linear histogram: exact below 16 us, then 8 buckets per power of 2 */
static int hist_bucket(uint64_t v)
{
	if (v < 16)
		return (int)v;
	int msb = 63 - __builtin_clzll(v);
	int sub = (int)((v >> (msb - 3)) & 7);
	return 16 + (msb - 4) * 8 + sub;
}

static uint64_t hist_upper(int b)
{
	if (b < 16)
		return (uint64_t)b;
	int msb = (b - 16) / 8 + 4, sub = (b - 16) % 8;
	uint64_t low = (uint64_t)(8 + sub) << (msb - 3);
	return low + (1ULL << (msb - 3)) - 1;
}

void stats_op(struct stats *st, uint64_t bytes, uint64_t lat_us)
{
	__atomic_add_fetch(&st->ops, 1, __ATOMIC_RELAXED);
	stats_io(st, bytes, lat_us);
}

void stats_io(struct stats *st, uint64_t bytes, uint64_t lat_us)
{
	uint64_t old;

	__atomic_add_fetch(&st->bytes, bytes, __ATOMIC_RELAXED);
	__atomic_add_fetch(&st->hist[hist_bucket(lat_us)], 1, __ATOMIC_RELAXED);
	old = __atomic_load_n(&st->lat_max_us, __ATOMIC_RELAXED);
	while (lat_us > old &&
	       !__atomic_compare_exchange_n(&st->lat_max_us, &old, lat_us, 0,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

void stats_error(struct stats *st)
{
	__atomic_add_fetch(&st->errors, 1, __ATOMIC_RELAXED);
}

void stats_verify_fail(struct stats *st)
{
	__atomic_add_fetch(&st->verify_fail, 1, __ATOMIC_RELAXED);
}

static uint64_t stats_p99(const struct stats *st)
{
	uint64_t n = 0, acc = 0;

	for (int b = 0; b < HIST_BUCKETS; b++)
		n += st->hist[b];
	if (!n)
		return 0;
	uint64_t want = n - n / 100;	/* ceil(0.99 n) for the sizes we see */
	for (int b = 0; b < HIST_BUCKETS; b++) {
		acc += st->hist[b];
		if (acc >= want) {
			uint64_t u = hist_upper(b);
			return u < st->lat_max_us ? u : st->lat_max_us;
		}
	}
	return st->lat_max_us;
}

int report_results(struct stats *st, int n, int errors_fatal)
{
	uint64_t ops = 0, errors = 0, vfail = 0;

	for (int i = 0; i < n; i++) {
		printf("result stressor=%s client=%d ops=%llu bytes=%llu errors=%llu "
		       "verify_fail=%llu lat_max_us=%llu lat_p99_us=%llu\n",
		       stressor_name, i, (unsigned long long)st[i].ops,
		       (unsigned long long)st[i].bytes, (unsigned long long)st[i].errors,
		       (unsigned long long)st[i].verify_fail,
		       (unsigned long long)st[i].lat_max_us,
		       (unsigned long long)stats_p99(&st[i]));
		ops += st[i].ops;
		errors += st[i].errors;
		vfail += st[i].verify_fail;
	}
	int fail = vfail > 0 || (errors > 0 && (errors_fatal || !opt.allow_errors));
	printf("summary stressor=%s seed=%llu clients=%d ops=%llu errors=%llu "
	       "verify_fail=%llu status=%s\n",
	       stressor_name, (unsigned long long)opt.seed, n, (unsigned long long)ops,
	       (unsigned long long)errors, (unsigned long long)vfail, fail ? "fail" : "ok");
	fflush(stdout);
	return fail ? 1 : 0;
}

static volatile sig_atomic_t alarm_fired;

static void on_alarm(int sig)
{
	(void)sig;
	alarm_fired = 1;
}

void run_clients(int n, client_fn fn, void *arg, struct stats *st)
{
	pid_t *pids = calloc((size_t)n, sizeof(*pids));
	int alive = 0, killed = 0, forwarded = 0;

	if (!pids)
		exit(2);
	fflush(NULL);
	for (int i = 0; i < n; i++) {
		pid_t p = fork();
		if (p < 0) {
			perror("fork");
			stats_error(&st[i]);
			continue;
		}
		if (p == 0) {
			fn(i, arg);
			fflush(NULL);
			__atomic_store_n(&st[i].done, 1, __ATOMIC_RELAXED);
			_exit(0);
		}
		pids[i] = p;
		alive++;
	}

	/* watchdog: a client still running 300 s after the deadline (final
	 * verification included) is stuck */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm((unsigned)opt.duration + 300);

	while (alive > 0) {
		int status;
		pid_t p = waitpid(-1, &status, 0);
		if (p < 0) {
			if (errno != EINTR)
				break;
			if (stop_requested && !forwarded) {
				for (int i = 0; i < n; i++)
					if (pids[i])
						kill(pids[i], SIGTERM);
				forwarded = 1;
			}
			if (alarm_fired && !killed) {
				for (int i = 0; i < n; i++) {
					if (!pids[i])
						continue;
					fprintf(stderr, "%s: client %d (pid %d) stuck 300 s after "
						"deadline, killing it\n", stressor_name, i, pids[i]);
					stats_error(&st[i]);
					kill(pids[i], SIGKILL);
				}
				killed = 1;
			}
			continue;
		}
		for (int i = 0; i < n; i++) {
			if (pids[i] != p)
				continue;
			pids[i] = 0;
			alive--;
			__atomic_store_n(&st[i].done, 1, __ATOMIC_RELAXED);
			if (WIFSIGNALED(status) && !killed) {
				fprintf(stderr, "%s: client %d killed by signal %d\n",
					stressor_name, i, WTERMSIG(status));
				stats_error(&st[i]);
			} else if (WIFEXITED(status) && WEXITSTATUS(status)) {
				fprintf(stderr, "%s: client %d exited with status %d\n",
					stressor_name, i, WEXITSTATUS(status));
				stats_error(&st[i]);
			}
		}
	}
	alarm(0);
	free(pids);
}

/* ---- device ----------------------------------------------------------- */

int open_dev(const char *path, int flags)
{
	int fd;

	if (!path)
		usage_error("--dev is required");
	fd = open(path, flags, 0644);
	if (fd < 0) {
		fprintf(stderr, "%s: cannot open %s: %s\n", stressor_name, path,
			strerror(errno));
		exit(2);
	}
	return fd;
}

uint64_t dev_size(int fd)
{
	struct stat st;
	uint64_t sz = 0;

	if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &sz))
			sz = 0;
		return sz;
	}
	return fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
}

uint64_t total_blocks(int fd)
{
	uint64_t dev = dev_size(fd);
	uint64_t sz = opt.size ? opt.size : (dev > opt.offset ? dev - opt.offset : 0);

	return sz / opt.bs;
}

void *alloc_aligned(size_t len)
{
	void *p;

	if (posix_memalign(&p, 4096, len)) {
		fprintf(stderr, "%s: out of memory\n", stressor_name);
		exit(2);
	}
	memset(p, 0, len);
	return p;
}

/* ---- data pattern ----------------------------------------------------- */

static uint64_t fnv1a64(const unsigned char *p, size_t n, uint64_t h)
{
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t block_csum(const unsigned char *buf, uint32_t bs)
{
	static const unsigned char zero[8];
	size_t co = offsetof(struct pat_hdr, csum);
	uint64_t h = 0xcbf29ce484222325ULL;

	h = fnv1a64(buf, co, h);
	h = fnv1a64(zero, 8, h);
	return fnv1a64(buf + co + 8, bs - co - 8, h);
}

static uint64_t payload_state(uint64_t off, uint32_t writer, uint64_t gen, uint64_t seed)
{
	uint64_t s = seed ^ 0x5bd1e9955bd1e995ULL;

	s ^= splitmix64(&s) ^ off;
	s ^= splitmix64(&s) ^ writer;
	s ^= splitmix64(&s) ^ gen;
	return s;
}

void pattern_fill(void *buf, uint32_t bs, uint64_t off, uint32_t writer,
		  uint64_t gen, uint64_t seed)
{
	struct pat_hdr *h = buf;
	uint64_t *w = buf;
	uint64_t st = payload_state(off, writer, gen, seed);

	for (size_t i = sizeof(*h) / 8; i < bs / 8; i++)
		w[i] = splitmix64(&st);
	h->magic = PAT_MAGIC;
	h->offset = off;
	h->gen = gen;
	h->seed = seed;
	h->writer = writer;
	h->bs = bs;
	h->csum = 0;
	h->csum = block_csum(buf, bs);
}

int block_is_zero(const void *buf, uint32_t bs)
{
	const uint64_t *w = buf;

	for (size_t i = 0; i < bs / 8; i++)
		if (w[i])
			return 0;
	return 1;
}

int pattern_check(const void *buf, uint32_t bs, uint64_t off, long want_writer,
		  uint64_t want_gen, char *why, size_t whylen)
{
	const struct pat_hdr *h = buf;
	const uint64_t *w = buf;

	if (h->magic != PAT_MAGIC) {
		snprintf(why, whylen, "bad_magic found=0x%016llx%s",
			 (unsigned long long)h->magic,
			 block_is_zero(buf, bs) ? " (block is all zero)" : "");
		return 1;
	}
	if (h->bs != bs) {
		snprintf(why, whylen, "bad_bs expected=%u found=%u", bs, h->bs);
		return 1;
	}
	if (h->offset != off) {
		snprintf(why, whylen, "misplaced_block found_off=%llu writer=%u gen=%llu",
			 (unsigned long long)h->offset, h->writer,
			 (unsigned long long)h->gen);
		return 1;
	}
	uint64_t c = block_csum(buf, bs);
	if (c != h->csum) {
		snprintf(why, whylen, "bad_checksum expected=0x%016llx found=0x%016llx "
			 "writer=%u gen=%llu", (unsigned long long)h->csum,
			 (unsigned long long)c, h->writer, (unsigned long long)h->gen);
		return 1;
	}
	uint64_t st = payload_state(off, h->writer, h->gen, h->seed);
	for (size_t i = sizeof(*h) / 8; i < bs / 8; i++) {
		if (w[i] != splitmix64(&st)) {
			snprintf(why, whylen, "bad_payload word=%zu writer=%u gen=%llu", i,
				 h->writer, (unsigned long long)h->gen);
			return 1;
		}
	}
	if ((want_writer >= 0 && h->writer != (uint32_t)want_writer) ||
	    (want_gen && h->gen != want_gen)) {
		snprintf(why, whylen, "stale_or_foreign expected_writer=%ld expected_gen=%llu "
			 "found_writer=%u found_gen=%llu", want_writer,
			 (unsigned long long)want_gen, h->writer, (unsigned long long)h->gen);
		return 1;
	}
	return 0;
}

void report_mismatch(const char *dev, uint64_t off, const char *why)
{
	static int reported;

	if (++reported > 20) {
		if (reported == 21)
			fprintf(stderr, "verify: further mismatches of this client not shown\n");
		return;
	}
	fprintf(stderr, "verify: MISMATCH dev=%s off=%llu reason=%s\n", dev,
		(unsigned long long)off, why);
}

/* ---- sysfs / commands ------------------------------------------------- */

int sysfs_write(const char *path, const char *str)
{
	size_t len = strlen(str);
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd < 0)
		return errno;
	ssize_t n = write(fd, str, len);
	int err = n < 0 ? errno : 0;
	if (close(fd) && !err)
		err = errno;
	return err;
}

int sysfs_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	size_t got = 0;

	if (fd < 0)
		return -errno;
	while (got < len - 1) {
		ssize_t n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			int e = errno;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = 0;
	close(fd);
	return (int)got;
}

void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	memmove(s, s + i, n - i + 1);
}

int bracketed(const char *s, char *out, size_t len)
{
	const char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;

	if (!a || !b || (size_t)(b - a - 1) >= len)
		return -1;
	memcpy(out, a + 1, (size_t)(b - a - 1));
	out[b - a - 1] = 0;
	return 0;
}

int queue_dir_for_dev(const char *dev, char *out, size_t len)
{
	struct stat st;
	char tmp[PATH_MAX + 64], real[PATH_MAX];

	if (!dev)
		return -1;
	if (stat(dev, &st) == 0 && S_ISBLK(st.st_mode)) {
		/* /sys/dev/block/M:m is the disk or a partition of it */
		snprintf(tmp, sizeof(tmp), "%s/dev/block/%u:%u", opt.sysfs_root,
			 major(st.st_rdev), minor(st.st_rdev));
		if (realpath(tmp, real)) {
			snprintf(tmp, sizeof(tmp), "%s/partition", real);
			if (access(tmp, F_OK) == 0)
				snprintf(out, len, "%s/../queue", real);
			else
				snprintf(out, len, "%s/queue", real);
			return 0;
		}
	}
	/* fall back to the basename (fake trees, or names like sda) */
	snprintf(tmp, sizeof(tmp), "%s", dev);
	snprintf(out, len, "%s/block/%s/queue", opt.sysfs_root, basename(tmp));
	return 0;
}

int run_cmd(char *const argv[])
{
	int status;
	pid_t p;

	fflush(NULL);
	p = fork();
	if (p < 0)
		return 127;
	if (p == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	while (waitpid(p, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
