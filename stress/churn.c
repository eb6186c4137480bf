/* churn: short-lived processes and threads doing O_DIRECT reads, exiting at
 * random moments (inside the scheduler's idle window, with aio in flight,
 * leader exiting first, threads sharing the io_context via CLONE_IO, or
 * right after starting readahead, so that the last reference to the
 * io_context is dropped by the request's completion, not by the exit). */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { SC_SYNC, SC_AIO_ABANDON, SC_PTHREADS, SC_CLONE_IO, SC_LEADER_PTHREAD,
       SC_LEADER_CLONE, SC_READAHEAD_EXIT, SC_COUNT };

static const char *const sc_names[SC_COUNT] = {
	"sync", "aio-abandon", "pthreads", "clone-io", "leader-exit-pthread",
	"leader-exit-clone", "readahead-exit",
};

#define CLONE_FLAGS (CLONE_IO | CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
		     CLONE_THREAD | CLONE_SYSVSEM)
#define STACK_SIZE (64 * 1024)
#define MAX_THREADS 4

static uint64_t nblocks;
static struct stats *st;
static int near;	/* --near */
#define NEAR_SPAN 256	/* blocks: the start of --near reads */

static const char intro[] =
	"Process churn: up to --clients children alive at once, each opening --dev\n"
	"O_DIRECT, reading a little (sync or abandoned libaio), sleeping 0-10 ms and\n"
	"exiting at a random moment; some multi-threaded (pthreads, or raw clone\n"
	"threads with CLONE_IO sharing the io_context), some whose leader exits\n"
	"first, some starting buffered readahead and exiting at once (the reads\n"
	"complete after the process is gone). ops = children + threads that completed.\n";
static const struct opt_spec options[] = {
	{ "near", OPT_FLAG, &near, 0, 0, NULL, NULL,
	  "sync reads are consecutive blocks from a random start in\n"
	  "the region's first 256: every child's I/O is close to the\n"
	  "others' (cooperating processes: bfq merges their queues,\n"
	  "which then lose their process when it exits)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL },
};

/* Everything a child will do, drawn up front from its own stream. */
struct plan {
	int scenario;
	int nthreads;		/* extra threads */
	int nreads;		/* reads by the main thread */
	int wait_threads;	/* join threads (1) or exit under them (0) */
	uint64_t sleep_us;	/* 0-10 ms before exiting */
};

static struct plan make_plan(struct rng *r)
{
	struct plan p;

	p.scenario = (int)rng_below(r, SC_COUNT);
	p.nthreads = 1 + (int)rng_below(r, MAX_THREADS);
	p.nreads = 1 + (int)rng_below(r, 16);
	p.wait_threads = (int)rng_below(r, 2);
	p.sleep_us = rng_below(r, 10001);
	return p;
}

/* Per-thread state. Only raw syscalls and atomics inside: raw clone threads
 * share the leader's TLS, so no stdio, malloc or errno-dependent logic. */
struct worker {
	int fd;
	char *buf;
	struct rng r;
	int nreads;
	struct stats *s;
	int *alive;
};

static void raw_sleep_us(uint64_t us)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)us * 1000 };

	syscall(SYS_nanosleep, &ts, NULL);
}

static void worker_io(struct worker *w)
{
	/* drawn only with --near: without it a seed's reads are what they were */
	uint64_t start = near ? rng_below(&w->r, NEAR_SPAN) : 0;

	for (int i = 0; i < w->nreads; i++) {
		uint64_t blk = near ? (start + (uint64_t)i) % nblocks : rng_below(&w->r, nblocks);
		uint64_t off = opt.offset + blk * opt.bs, t0 = now_us();
		long n = syscall(SYS_pread64, w->fd, w->buf, (size_t)opt.bs, (off_t)off);
		if (n != (long)opt.bs)
			stats_error(w->s);
		else
			stats_io(w->s, opt.bs, now_us() - t0);
		if (rng_below(&w->r, 3) == 0)
			raw_sleep_us(rng_below(&w->r, 10001));
	}
}

static int clone_thread(void *arg)
{
	struct worker *w = arg;

	worker_io(w);
	__atomic_add_fetch(&w->s->ops, 1, __ATOMIC_RELAXED);
	__atomic_sub_fetch(w->alive, 1, __ATOMIC_RELEASE);
	return 0;	/* glibc's clone() then does SYS_exit for this thread only */
}

static void *pthread_main(void *arg)
{
	clone_thread(arg);
	return NULL;
}

static void start_workers(const struct plan *p, struct worker *ws, int fd,
			  struct rng *r, struct stats *s, int *alive, int raw)
{
	*alive = p->nthreads;
	for (int t = 0; t < p->nthreads; t++) {
		struct worker *w = &ws[t];
		w->fd = fd;
		w->buf = alloc_aligned(opt.bs);
		rng_init(&w->r, rng_next(r), (uint64_t)t);
		w->nreads = 1 + (int)rng_below(r, 8);
		w->s = s;
		w->alive = alive;
		if (raw) {
			char *stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
			if (stack == MAP_FAILED ||
			    clone(clone_thread, stack + STACK_SIZE, CLONE_FLAGS, w) < 0) {
				perror("churn: clone");
				_exit(3);
			}
		} else {
			pthread_t th;
			int e = pthread_create(&th, NULL, pthread_main, w);
			if (e) {
				fprintf(stderr, "churn: pthread_create: %s\n", strerror(e));
				_exit(3);
			}
			pthread_detach(th);
		}
	}
}

static void child_main(int slot, uint64_t k)
{
	struct rng r;
	struct stats *s = &st[slot];
	static struct worker ws[MAX_THREADS];
	static int alive;

	rng_init(&r, opt.seed, k);
	struct plan p = make_plan(&r);
	int fd = open(opt.dev, O_RDONLY | O_DIRECT);
	if (fd < 0) {
		fprintf(stderr, "churn: open %s: %s\n", opt.dev, strerror(errno));
		_exit(3);
	}
	struct worker self = { .fd = fd, .buf = alloc_aligned(opt.bs), .nreads = p.nreads,
			       .s = s, .alive = &alive };
	rng_init(&self.r, rng_next(&r), 1000);

	switch (p.scenario) {
	case SC_SYNC:
		worker_io(&self);
		break;
	case SC_AIO_ABANDON: {
		io_context_t ctx = 0;
		struct iocb cbs[16], *cb;
		char *bufs = alloc_aligned(16 * (size_t)opt.bs);
		if (io_setup(16, &ctx) < 0)
			_exit(3);
		for (int i = 0; i < p.nreads; i++) {
			cb = &cbs[i];
			io_prep_pread(cb, fd, bufs + (size_t)i * opt.bs, opt.bs,
				      (long long)(opt.offset + rng_below(&r, nblocks) * opt.bs));
			if (io_submit(ctx, 1, &cb) != 1)
				stats_error(s);
		}
		if (p.wait_threads) {	/* reap some, abandon the rest */
			struct io_event ev[16];
			struct timespec to = { 0, 2 * 1000 * 1000 };
			io_getevents(ctx, 1, 16, ev, &to);
		}
		break;			/* exit without io_destroy */
	}
	case SC_PTHREADS:
	case SC_CLONE_IO:
		start_workers(&p, ws, fd, &r, s, &alive, p.scenario == SC_CLONE_IO);
		worker_io(&self);
		while (p.wait_threads && __atomic_load_n(&alive, __ATOMIC_ACQUIRE) > 0)
			raw_sleep_us(500);
		break;			/* otherwise _exit below kills them mid-I/O */
	case SC_LEADER_PTHREAD:
		start_workers(&p, ws, fd, &r, s, &alive, 0);
		worker_io(&self);
		pthread_exit(NULL);	/* process ends with its last thread */
	case SC_LEADER_CLONE:
		start_workers(&p, ws, fd, &r, s, &alive, 1);
		worker_io(&self);
		syscall(SYS_exit, 0);	/* leader thread only */
		break;
	case SC_READAHEAD_EXIT: {
		/* buffered: drop the range from the page cache, start readahead
		 * (it does not wait for the reads) and exit at once */
		int bfd = open(opt.dev, O_RDONLY);
		off_t len = (off_t)p.nreads * 16 * opt.bs;
		off_t off = (off_t)(opt.offset + rng_below(&r, nblocks > 256 ? nblocks - 256 : 1) *
					       opt.bs);
		if (bfd < 0)
			_exit(3);
		posix_fadvise(bfd, off, len, POSIX_FADV_DONTNEED);
		if (readahead(bfd, off, (size_t)len) < 0)
			stats_error(s);
		else
			stats_io(s, (uint64_t)len, 0);
		_exit(0);
	}
	}
	raw_sleep_us(p.sleep_us);
	_exit(0);
}

static void on_alarm(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	parse_options(argc, argv, "churn", options, intro, NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* interrupts waitpid, see below */
	sigaction(SIGALRM, &sa, NULL);
	int fd = open_dev(opt.dev, O_RDONLY);
	nblocks = total_blocks(fd);
	close(fd);
	if (!nblocks)
		usage_error("%s: smaller than one --bs block", opt.dev);

	if (opt.print_plan) {
		for (int k = 0; k < opt.print_plan; k++) {
			struct rng r;
			rng_init(&r, opt.seed, (uint64_t)k);
			struct plan p = make_plan(&r);
			printf("plan child=%d scenario=%s threads=%d reads=%d wait=%d "
			       "sleep_us=%llu\n", k, sc_names[p.scenario], p.nthreads,
			       p.nreads, p.wait_threads, (unsigned long long)p.sleep_us);
		}
		return 0;
	}

	st = stats_alloc(opt.clients);
	pid_t *slot_pid = calloc((size_t)opt.clients, sizeof(pid_t));
	int alive = 0;
	uint64_t k = 0, t_start = now_us();

	if (!slot_pid)
		return 2;
	for (;;) {
		for (int s = 0; s < opt.clients && !time_up(); s++) {
			if (slot_pid[s])
				continue;
			fflush(NULL);
			pid_t p = fork();
			if (p < 0) {
				perror("churn: fork");
				stats_error(&st[s]);
				sleep_us(1000);
				continue;
			}
			if (p == 0)
				child_main(s, k);
			slot_pid[s] = p;
			alive++;
			k++;
		}
		if (!alive)
			break;
		if (time_up())
			alarm(60);	/* children left must finish within 60 s */
		int status;
		pid_t p = waitpid(-1, &status, 0);
		if (p < 0) {
			if (errno == EINTR && !stop_requested) {
				fprintf(stderr, "churn: %d children stuck, killing them\n", alive);
				for (int s = 0; s < opt.clients; s++)
					if (slot_pid[s]) {
						stats_error(&st[s]);
						kill(slot_pid[s], SIGKILL);
					}
			}
			if (errno != EINTR)
				break;
			continue;
		}
		for (int s = 0; s < opt.clients; s++) {
			if (slot_pid[s] != p)
				continue;
			slot_pid[s] = 0;
			alive--;
			if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
				__atomic_add_fetch(&st[s].ops, 1, __ATOMIC_RELAXED);
			} else {
				stats_error(&st[s]);
				fprintf(stderr, "churn: child pid %d %s %d\n", p,
					WIFSIGNALED(status) ? "killed by signal" : "exit status",
					WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
			}
		}
	}
	double secs = (double)(now_us() - t_start) / 1e6;
	uint64_t ops = 0;
	for (int s = 0; s < opt.clients; s++)
		ops += st[s].ops;
	fprintf(stderr, "churn: children=%llu exits=%llu exits_per_sec=%.1f\n",
		(unsigned long long)k, (unsigned long long)ops, secs > 0 ? (double)ops / secs : 0.0);
	return report_results(st, opt.clients, 0);
}
