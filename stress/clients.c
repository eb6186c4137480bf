/* Clients: stats in shared memory, the progress watchdog, the client runner and result lines; see clients.h. */
#include "common.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Fork one of the clients' helpers (watchdog, shuffler, mover): 0 in the
 * helper, with the default actions of SIGTERM and SIGINT back; its pid in
 * the caller; -1 when fork failed (said on stderr as "fork WHAT"). */
static pid_t fork_helper(const char *what)
{
	pid_t p;

	fflush(NULL);
	p = fork();
	if (p < 0)
		fprintf(stderr, "fork %s: %s\n", what, strerror(errno));
	if (p == 0) {
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
	}
	return p;
}

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

	p = fork_helper("stall watchdog");
	if (p)
		return;
	seen = calloc((size_t)n, sizeof(*seen));
	since = calloc((size_t)n, sizeof(*since));
	told = calloc((size_t)n, 1);
	if (!seen || !since || !told)
		_exit(0);
	while (getppid() == parent && !time_up()) {
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

/* ioprio_set(2) has no glibc wrapper; the values of <linux/ioprio.h> */
#define IOPRIO_WHO_PROCESS	1
#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_CLASS_RT		1
#define IOPRIO_CLASS_BE		2

/* --ioprio mix: every 100-400 ms one client, drawn from the seed, gets a
 * new class (RT one time in four, else BE) and level (0-7). Its queue
 * follows from its next request: preemption of the active slice, a queue
 * changing class while it is queued, idling or in flight. No IDLE class:
 * an IDLE request waits for as long as any other class has work, and its
 * client would stall; nor does an RT client keep the disk for long, since
 * it is drawn again within seconds. */
static int clients_done(struct stats *st, int n)
{
	for (int i = 0; i < n; i++)
		if (!__atomic_load_n(&st[i].done, __ATOMIC_RELAXED))
			return 0;
	return 1;
}

/* returns the shuffler's pid (the caller waits for it), or 0 */
static pid_t ioprio_shuffler(const pid_t *pids, int n, struct stats *st)
{
	pid_t parent = getpid(), p;
	uint64_t changes = 0, rt = 0;
	struct rng r;

	p = fork_helper("ioprio shuffler");
	if (p)
		return p > 0 ? p : 0;
	rng_init(&r, opt.seed, 0x10b210);
	while (getppid() == parent && !time_up() && !clients_done(st, n)) {
		uint64_t until = now_us() + 100000 + rng_below(&r, 300000);

		while (now_us() < until && !time_up() && !clients_done(st, n))
			sleep_us(20000);
		int i = (int)rng_below(&r, (uint64_t)n);
		int is_rt = rng_below(&r, 4) == 0;
		int cls = is_rt ? IOPRIO_CLASS_RT : IOPRIO_CLASS_BE;
		int prio = cls << IOPRIO_CLASS_SHIFT | (int)rng_below(&r, 8);

		if (pids[i] && !syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, pids[i], prio)) {
			changes++;
			rt += is_rt;
		}
	}
	printf("ioprio stressor=%s changes=%llu rt=%llu be=%llu\n", stressor_name,
	       (unsigned long long)changes, (unsigned long long)rt,
	       (unsigned long long)(changes - rt));
	fflush(stdout);
	_exit(0);
}

/* --migrate-us N: every N us one client, drawn from the seed, is bound to
 * one CPU drawn from the stressor's own mask (one move in eight gives it
 * the whole mask back, so the kernel's balancer moves it too). A client
 * that is running is stopped by that CPU's stopper thread at whatever
 * instruction it is on, often inside a submission, and resumes on the new
 * CPU: the preemption with migration that code holding a per-CPU pointer
 * across a preemptible window (blk_mq_get_ctx(), a hardware queue mapped
 * from one CPU and used from another) must survive. Returns the mover's
 * pid (the caller waits for it), or 0. */
static pid_t migrator(const pid_t *pids, int n, struct stats *st)
{
	pid_t parent = getpid(), p;
	uint64_t moves = 0, whole = 0;
	static int cpus[CPU_SETSIZE];
	int ncpu = 0;
	cpu_set_t all;
	struct rng r;

	if (sched_getaffinity(0, sizeof(all), &all)) {
		perror("sched_getaffinity");
		return 0;
	}
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &all))
			cpus[ncpu++] = c;
	p = fork_helper("mover");
	if (p)
		return p > 0 ? p : 0;
	rng_init(&r, opt.seed, 0x319a7e);
	while (ncpu > 1 && getppid() == parent && !time_up() && !clients_done(st, n)) {
		int i = (int)rng_below(&r, (uint64_t)n), back = rng_below(&r, 8) == 0;
		cpu_set_t set = all;

		sleep_us((uint64_t)opt.migrate_us);
		if (!back) {
			CPU_ZERO(&set);
			CPU_SET(cpus[rng_below(&r, (uint64_t)ncpu)], &set);
		}
		if (pids[i] && !sched_setaffinity(pids[i], sizeof(set), &set)) {
			moves++;
			whole += back;
		}
	}
	printf("migrate stressor=%s cpus=%d moves=%llu whole=%llu\n", stressor_name, ncpu,
	       (unsigned long long)moves, (unsigned long long)whole);
	fflush(stdout);
	_exit(0);
}

static volatile sig_atomic_t alarm_fired;

static void on_alarm(int sig)
{
	(void)sig;
	alarm_fired = 1;
}

void run_clients(int n, client_fn fn, void *arg, struct stats *st)
{
	pid_t *pids = calloc((size_t)n, sizeof(*pids)), shuffler = 0, mover = 0;
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
	if (opt.ioprio_mix && !opt.dry_run && alive)
		shuffler = ioprio_shuffler(pids, n, st);
	if (opt.migrate_us && !opt.dry_run && alive)
		mover = migrator(pids, n, st);

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
	/* the shuffler and the mover end with the clients; their lines come
	 * before the results */
	pid_t helpers[] = { shuffler, mover };
	for (size_t k = 0; k < sizeof(helpers) / sizeof(helpers[0]); k++)
		while (helpers[k] && waitpid(helpers[k], NULL, 0) < 0 && errno == EINTR)
			;
	free(pids);
}
