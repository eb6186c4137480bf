/* paths: load shapes that drive the scheduler down paths the other stressors
 * never reach: request and bio merges (front and back), buffered writeback
 * and big readahead reads, io_contexts shared through CLONE_IO (raw clone,
 * io_uring's io-wq workers and SQPOLL thread), queue keys that change under
 * a running process (key_type pgid/uid/gid, then setsid/setresuid), I/O
 * priorities per process and per request, SCSI passthrough, FUA and flushes,
 * discards and write-zeroes.
 *
 * Client i owns region i of --dev (size/clients). Each iteration picks a mode
 * at random, writes a window of its region with the shared pattern (a fresh
 * generation per iteration), reads it back and verifies it before moving on;
 * the forked helpers of an iteration (shared-ioc, key-change, ioprio) each
 * write their own blocks of the window. The client is a child subreaper and
 * waits for every descendant at the end of an iteration, orphans included,
 * so no two iterations ever touch the same blocks at once. */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <liburing.h>
#include <limits.h>
#include <sched.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/fs.h>

/* <linux/aio_abi.h> cannot be included next to <libaio.h> (both define
 * struct iocb): its per-request priority flag, from there */
#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1)
#endif

/* ioprio_set(2) has no glibc wrapper; the values of <linux/ioprio.h>, under
 * names of our own (the header's spelling changed across versions) */
#define PRIO_WHO_PROCESS	1
#define PRIO_CLASS_SHIFT	13
#define PRIO_VALUE(cl, lvl)	(((cl) << PRIO_CLASS_SHIFT) | (lvl))
enum { PRIO_CLASS_RT = 1, PRIO_CLASS_BE = 2, PRIO_CLASS_IDLE = 3 };

/* the kernel's internal "no such ioctl", seen by some callers */
#ifndef ENOIOCTLCMD
#define ENOIOCTLCMD 515
#endif

enum {
	M_MERGE, M_BUFFERED, M_SHARED_IOC, M_URING, M_KEY_CHANGE, M_IOPRIO, M_SGIO,
	M_FLUSH, M_DISCARD, M_DEBUGFS, M_PEERS, NMODES
};

static const char *const mode_names[NMODES] = {
	"merge", "buffered", "shared-ioc", "uring", "key-change", "ioprio", "sgio",
	"flush", "discard", "debugfs", "peers",
};

#define MAX_WIN		64		/* blocks in one iteration's window */
#define WIN_BYTES	(4 << 20)	/* ... and at most this many bytes */
#define MIN_REGION	16		/* blocks per client */
#define PAGE		4096

static unsigned char enabled[NMODES];
static uint64_t region_blocks;
static int win_max;			/* blocks, <= MAX_WIN and region_blocks */
static struct stats *st;
#define MAX_PEERS	16
static char *peers;			/* --peers, comma-separated device nodes */
static const char *peer_dev[MAX_PEERS];	/* ... but --dev, split by main() */
static int npeers;
static int modes_given;			/* --modes named the modes */

/* per client and mode, in shared memory like the stats (the forked helpers
 * count there too) */
struct mode_count {
	uint64_t ops, skipped, errors, retried;
};
static struct mode_count *mc;

static const char intro[] =
	"Scheduler path coverage; client i owns region i of --dev (size/clients)\n"
	"and loops over modes picked at random. Every block written carries the\n"
	"shared pattern and is read back and verified before the client goes on.\n";
static const char outro[] =
	"modes:\n"
	"    merge       libaio O_DIRECT: one io_submit of 8-16 adjacent blocks, then\n"
	"                a burst of single-iocb submits of adjacent blocks in ascending,\n"
	"                descending or outward order (front and back bio merges)\n"
	"    buffered    512 B-4 KiB sequential write()s through the page cache,\n"
	"                fsync or sync_file_range, POSIX_FADV_DONTNEED, then WILLNEED\n"
	"                or readahead(2) and buffered reads (big merged reads); or\n"
	"                every other page first, started with sync_file_range (many\n"
	"                async requests in the client's own queue), then the others\n"
	"                (sync writes meeting them there)\n"
	"    shared-ioc  a forked leader reads, then raw clone(CLONE_IO) children\n"
	"                share its io_context, write/read/verify and exit at staggered\n"
	"                times; the leader sometimes exits before them\n"
	"    uring       io_uring O_DIRECT writes and reads, some with IOSQE_ASYNC\n"
	"                (io-wq workers), sometimes with an SQPOLL thread\n"
	"    key-change  writes pgid, uid or gid into iosched/key_type, then a child\n"
	"                reads back to back, changes its key (setsid/setpgid,\n"
	"                setresgid/setresuid) and writes and reads at once; key_type\n"
	"                goes back to pid after every iteration. Without the file\n"
	"                (not on cfq) it counts as skipped and the I/O runs anyway\n"
	"    ioprio      a child with a random ioprio_set class (RT, BE, rarely IDLE)\n"
	"                does sync I/O, then libaio with per-request priorities\n"
	"    sgio        SG_IO WRITE(10) (some with FUA), READ(10) of the same LBAs\n"
	"                (16-byte CDBs past 2^32 LBAs), then an O_DIRECT read of them\n"
	"    flush       O_DIRECT writes through an O_DSYNC fd, and pwrite +\n"
	"                fdatasync\n"
	"    discard     BLKDISCARD (1 in 4: BLKZEROOUT, whose blocks must read as\n"
	"                zero) over a few blocks, then pattern writes over them\n"
	"    debugfs     read the scheduler's debugfs attributes (block/DISK/sched/)\n"
	"                while a helper writes and verifies on the same queue\n"
	"    peers       O_DIRECT reads of another device of --peers, each followed\n"
	"                by one of the client's own writes and its read-back: one\n"
	"                io_context with an io_cq on several queues, whose hint\n"
	"                moves at every step (not picked without another device)\n"
	"--qd here: I/Os in flight for libaio/io_uring (default 16).\n"
	"A mode the device refuses (SG_IO off SCSI, no discard, no io_uring) counts\n"
	"as skipped and the client stops picking it; a client left without modes\n"
	"ends. At the end one line per mode selected (ops: I/O calls that went\n"
	"through, summed over clients; retried: SCSI commands sent again after an\n"
	"ABORTED COMMAND or UNIT ATTENTION, up to 5 times, as sd does):\n"
	"  paths mode=NAME ops=N skipped=N errors=N retried=N\n";

static void set_modes(const char *arg)
{
	char *list = strdup(arg), *tok, *save = NULL;
	int any = 0;

	if (!list)
		usage_error("--modes: out of memory");
	modes_given = 1;
	memset(enabled, 0, sizeof(enabled));
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int m;
		for (m = 0; m < NMODES && strcmp(tok, mode_names[m]); m++)
			;
		if (m == NMODES)
			usage_error("--modes: unknown mode '%s'", tok);
		enabled[m] = 1;
		any = 1;
	}
	free(list);
	if (!any)
		usage_error("--modes: empty list");
}

static const struct opt_spec options[] = {
	{ "modes", OPT_FN, NULL, 0, 0, set_modes, "a,b,...", "modes to pick from (default: all of them; below)" },
	{ "peers", OPT_STR, &peers, 0, 0, NULL, "a,b,...",
	  "the round's devices (the own --dev is left out);\n"
	  "peers only reads them" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL },
};


struct client {
	int idx;
	int mode;		/* of the current iteration */
	uint64_t base;		/* first block of the region (in --bs blocks) */
	uint64_t gen;		/* pattern generation of the current iteration */
	int dfd;		/* O_RDWR | O_DIRECT */
	int bfd;		/* O_RDWR, through the page cache */
	int sfd;		/* O_RDWR | O_DIRECT | O_DSYNC */
	char *buf;		/* win_max blocks to write */
	char *rbuf;		/* win_max blocks read back */
	struct rng pick;	/* mode choices (what --print-plan shows) */
	struct rng aux;		/* every other choice */
	io_context_t aio;	/* merge mode's, set up on first use */
	int subreaper;		/* orphans come back to us */
	int lbs;		/* logical block size, for SG_IO (0: not asked yet) */
	uint64_t part_start;	/* bytes, SG_IO addresses the whole disk */
	unsigned char disabled[NMODES];
};

/* ---- accounting ------------------------------------------------------- */

static struct mode_count *mcount(struct client *c)
{
	return &mc[(size_t)c->idx * NMODES + (size_t)c->mode];
}

static void mode_op(struct client *c, uint64_t bytes, uint64_t t0)
{
	stats_op(&st[c->idx], bytes, now_us() - t0);
	__atomic_add_fetch(&mcount(c)->ops, 1, __ATOMIC_RELAXED);
}

/* An I/O that failed: res is -errno, or >= 0 for a short transfer. */
static void io_error(struct client *c, const char *what, uint64_t off, uint64_t len, long res)
{
	stats_error(&st[c->idx]);
	__atomic_add_fetch(&mcount(c)->errors, 1, __ATOMIC_RELAXED);
	if (opt.verbose || !opt.allow_errors)
		fprintf(stderr, "paths: client %d %s: %s off=%llu len=%llu failed: %s\n", c->idx,
			mode_names[c->mode], what, (unsigned long long)off,
			(unsigned long long)len, res < 0 ? strerror((int)-res) : "short transfer");
}

/* The device (or kernel) refused: counted as skipped; permanent refusals
 * take the mode off this client's list. */
static void mode_skip(struct client *c, const char *why, int err, int permanent)
{
	__atomic_add_fetch(&mcount(c)->skipped, 1, __ATOMIC_RELAXED);
	if (permanent)
		c->disabled[c->mode] = 1;
	if (permanent || opt.verbose)
		fprintf(stderr, "paths: client %d %s: %s: %s%s\n", c->idx, mode_names[c->mode],
			why, strerror(err), permanent ? ", not picking it again" : "");
}

static int refused(int err)
{
	return err == ENOTTY || err == EOPNOTSUPP || err == EINVAL || err == ENOIOCTLCMD ||
	       err == ENOSYS;
}

/* ---- blocks and windows ----------------------------------------------- */

static uint64_t blk_off(const struct client *c, uint64_t b)
{
	return (c->base + b) * opt.bs;
}

static char *wbuf(const struct client *c, uint64_t i)
{
	return c->buf + i * opt.bs;
}

static char *rbuf(const struct client *c, uint64_t i)
{
	return c->rbuf + i * opt.bs;
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* n contiguous blocks somewhere in the region; returns the first */
static uint64_t window(struct client *c, int n)
{
	return rng_below(&c->aux, region_blocks - (uint64_t)n + 1);
}

/* The pattern of the current generation for window blocks [0, n) at b0,
 * into wbuf(0..n-1). */
static void fill(struct client *c, uint64_t b0, int n)
{
	for (int i = 0; i < n; i++)
		pattern_fill(wbuf(c, (uint64_t)i), opt.bs, blk_off(c, b0 + (uint64_t)i),
			     (uint32_t)c->idx, c->gen, opt.seed);
}

static void check_one(struct client *c, const void *blk, uint64_t off)
{
	char why[256];

	if (!pattern_check(blk, opt.bs, off, c->idx, c->gen, why, sizeof(why)))
		return;
	report_mismatch(opt.dev, off, why);
	fprintf(stderr, "paths: client %d %s: verify failed off=%llu\n", c->idx,
		mode_names[c->mode], (unsigned long long)off);
	stats_verify_fail(&st[c->idx]);
}

/* Verify rbuf(i) for window blocks i in [from, from + n) whose write
 * succeeded (ok == NULL: all of them). */
static void check_range(struct client *c, uint64_t b0, int from, int n,
			const unsigned char *ok)
{
	for (int i = from; i < from + n; i++)
		if (!ok || ok[i])
			check_one(c, rbuf(c, (uint64_t)i), blk_off(c, b0 + (uint64_t)i));
}

/* Synchronous pwrite/pread of window blocks [i, i + n) from wbuf/into rbuf.
 * Returns 0, or -1 after counting the error. */
static int sync_rw(struct client *c, int fd, int write, uint64_t b0, int i, int n,
		   const char *what)
{
	size_t len = (size_t)n * opt.bs;
	uint64_t off = blk_off(c, b0 + (uint64_t)i), t0 = now_us();
	ssize_t r = write ? pwrite(fd, wbuf(c, (uint64_t)i), len, (off_t)off)
			  : pread(fd, rbuf(c, (uint64_t)i), len, (off_t)off);

	if (r != (ssize_t)len) {
		io_error(c, what, off, len, r < 0 ? -errno : r);
		return -1;
	}
	mode_op(c, len, t0);
	return 0;
}

/* Write blocks [i, i + n) and read them back; verify when the write went
 * through. */
static void write_verify(struct client *c, int fd, uint64_t b0, int i, int n)
{
	if (sync_rw(c, fd, 1, b0, i, n, "pwrite"))
		return;
	if (!sync_rw(c, c->dfd, 0, b0, i, n, "pread"))
		check_range(c, b0, i, n, NULL);
}

/* Submission orders: 0 ascending, 1 descending, 2 outward from a random
 * middle, each step up (back merge) or down (front merge) at random. */
static void make_order(struct rng *r, int n, int *ord)
{
	int kind = (int)rng_below(r, 3);

	if (kind < 2) {
		for (int i = 0; i < n; i++)
			ord[i] = kind ? n - 1 - i : i;
		return;
	}
	int mid = (int)rng_below(r, (uint64_t)n), lo = mid - 1, hi = mid + 1;
	ord[0] = mid;
	for (int k = 1; k < n; k++) {
		if (hi < n && (lo < 0 || rng_below(r, 2)))
			ord[k] = hi++;
		else
			ord[k] = lo--;
	}
}

/* ---- children --------------------------------------------------------- */

/* Wait for every descendant (orphans come to us as the subreaper); one that
 * crashed or exited non-zero is an error of the current mode. */
static void reap_all(struct client *c)
{
	int status;

	for (;;) {
		pid_t p = waitpid(-1, &status, 0);
		if (p < 0) {
			if (errno == EINTR)
				continue;
			return;		/* ECHILD */
		}
		if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status))) {
			stats_error(&st[c->idx]);
			__atomic_add_fetch(&mcount(c)->errors, 1, __ATOMIC_RELAXED);
			fprintf(stderr, "paths: client %d %s: helper pid %d %s %d\n", c->idx,
				mode_names[c->mode], p,
				WIFSIGNALED(status) ? "killed by signal" : "exited with status",
				WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		}
	}
}

/* fork for a helper: the child gets its own random stream */
static pid_t fork_helper(struct client *c, uint64_t stream)
{
	uint64_t seed = rng_next(&c->aux);
	pid_t p;

	fflush(NULL);
	p = fork();
	if (p < 0) {
		stats_error(&st[c->idx]);
		__atomic_add_fetch(&mcount(c)->errors, 1, __ATOMIC_RELAXED);
		fprintf(stderr, "paths: client %d %s: fork: %s\n", c->idx, mode_names[c->mode],
			strerror(errno));
	} else if (p == 0) {
		rng_init(&c->aux, seed, stream);
	}
	return p;
}

/* ---- libaio ----------------------------------------------------------- */

/* Submit cbs[0..nr) in that order, as io_submit calls of everything left
 * (batch) or of one iocb each, then reap them all; nr <= opt.qd. res[k] is
 * the result of cbs[k]. Returns 0, or the first submission error (the iocbs
 * not submitted get it as their result). */
static long aio_run(struct client *c, io_context_t ctx, struct iocb **cbs, int nr,
		    int batch, long *res)
{
	struct io_event ev[MAX_WIN];
	int done = 0, reaped = 0;
	long serr = 0;

	for (int k = 0; k < nr; k++)
		cbs[k]->data = (void *)(intptr_t)k;
	while (done < nr) {
		int ret = io_submit(ctx, batch ? nr - done : 1, cbs + done);
		if (ret <= 0) {
			serr = ret < 0 ? ret : -EAGAIN;
			for (int k = done; k < nr; k++)
				res[k] = serr;
			break;
		}
		done += ret;
	}
	while (reaped < done) {
		int ret = io_getevents(ctx, 1, done - reaped, ev, NULL);
		if (ret == -EINTR)
			continue;
		if (ret < 0) {
			/* the buffers are still in flight: nothing safe to do */
			fprintf(stderr, "paths: client %d io_getevents: %s\n", c->idx,
				strerror(-ret));
			_exit(3);
		}
		for (int e = 0; e < ret; e++)
			res[(intptr_t)ev[e].data] = (long)ev[e].res;
		reaped += ret;
	}
	return serr;
}

/* Account aio results of window blocks: slot k covers block blk[k]. */
static void aio_account(struct client *c, uint64_t b0, const int *blk, const long *res,
			int nr, int write, uint64_t t0, unsigned char *ok)
{
	for (int k = 0; k < nr; k++) {
		int ok_k = res[k] == (long)opt.bs;
		if (ok_k)
			mode_op(c, opt.bs, t0);
		else
			io_error(c, write ? "aio write" : "aio read",
				 blk_off(c, b0 + (uint64_t)blk[k]), opt.bs, res[k]);
		if (ok)
			ok[blk[k]] = (unsigned char)ok_k;
	}
}

/* ---- merge ------------------------------------------------------------ */

/* Prepare iocbs for window blocks [from, from + n) in a random order;
 * blk[k] is the block of the k-th one. */
static void prep_blocks(struct client *c, struct iocb *iocbs, struct iocb **cbs, int *blk,
			uint64_t b0, int from, int n, int write)
{
	int ord[MAX_WIN];

	make_order(&c->aux, n, ord);
	for (int k = 0; k < n; k++) {
		int i = from + ord[k];
		uint64_t off = blk_off(c, b0 + (uint64_t)i);
		if (write)
			io_prep_pwrite(&iocbs[k], c->dfd, wbuf(c, (uint64_t)i), opt.bs,
				       (long long)off);
		else
			io_prep_pread(&iocbs[k], c->dfd, rbuf(c, (uint64_t)i), opt.bs,
				      (long long)off);
		cbs[k] = &iocbs[k];
		blk[k] = i;
	}
}

static void mode_merge(struct client *c)
{
	struct iocb iocbs[MAX_WIN], *cbs[MAX_WIN];
	unsigned char ok[MAX_WIN];
	long res[MAX_WIN];
	int blk[MAX_WIN], qd = clampi(opt.qd, 1, win_max);
	int na = clampi(8 + (int)rng_below(&c->aux, 9), 1, qd);
	int nb = clampi(4 + (int)rng_below(&c->aux, 13), 0, qd);

	if (!c->aio) {
		int ret = io_setup(qd, &c->aio);
		if (ret < 0) {
			c->aio = 0;
			io_error(c, "io_setup", 0, 0, ret);
			return;
		}
	}
	if (na + nb > win_max)
		nb = win_max - na;
	int n = na + nb;
	uint64_t b0 = window(c, n), t0;
	fill(c, b0, n);

	/* (a) one io_submit: adjacent requests merge in the plug / at insert */
	prep_blocks(c, iocbs, cbs, blk, b0, 0, na, 1);
	t0 = now_us();
	aio_run(c, c->aio, cbs, na, 1, res);
	aio_account(c, b0, blk, res, na, 1, t0, ok);

	/* (b) one iocb per io_submit: bios merge into requests still queued.
	 * Half the time the first three fill a gap from below (blocks 2, 0,
	 * then 1): the bio of block 1 joins two queued requests, the later
	 * of which is the older (the scheduler keeps its fifo deadline). */
	if (nb) {
		static const int gap_order[3] = { 2, 0, 1 };
		int gap = rng_below(&c->aux, 2) != 0;	/* drawn either way */

		prep_blocks(c, iocbs, cbs, blk, b0, na, nb, 1);
		for (int want = 0; gap && nb >= 3 && want < 3; want++) {
			int k = want;

			while (blk[k] != na + gap_order[want])
				k++;
			struct iocb t = iocbs[want];
			int tb = blk[want];

			iocbs[want] = iocbs[k], blk[want] = blk[k];
			iocbs[k] = t, blk[k] = tb;
		}
		t0 = now_us();
		aio_run(c, c->aio, cbs, nb, 0, res);
		aio_account(c, b0, blk, res, nb, 1, t0, ok);
	}

	/* read back in chunks of qd, batched or one by one, any order */
	for (int from = 0; from < n; from += qd) {
		int m = n - from < qd ? n - from : qd;
		unsigned char rok[MAX_WIN];
		prep_blocks(c, iocbs, cbs, blk, b0, from, m, 0);
		t0 = now_us();
		aio_run(c, c->aio, cbs, m, (int)rng_below(&c->aux, 2), res);
		aio_account(c, b0, blk, res, m, 0, t0, rok);
		for (int k = 0; k < m; k++)
			if (ok[blk[k]] && rok[blk[k]])
				check_one(c, rbuf(c, (uint64_t)blk[k]),
					  blk_off(c, b0 + (uint64_t)blk[k]));
	}
}

/* ---- buffered --------------------------------------------------------- */

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* A window of whole pages (so that no page is shared with another client or
 * a block outside the window) of about want blocks. Returns the block count,
 * 0 if the region has no whole page. */
static int page_window(struct client *c, int want, uint64_t *b0)
{
	uint64_t step = PAGE / gcd64(opt.bs, PAGE);	/* blocks per aligned unit */
	uint64_t first = 0;

	while (first < step && blk_off(c, first) % PAGE)
		first++;
	if (first == step || first + step > region_blocks || step > (uint64_t)win_max)
		return 0;
	uint64_t units = (region_blocks - first) / step, w = (uint64_t)want / step;
	if (w < 1)
		w = 1;
	if (w > units)
		w = units;
	if (w * step > (uint64_t)win_max)
		w = (uint64_t)win_max / step;
	*b0 = first + rng_below(&c->aux, units - w + 1) * step;
	return (int)(w * step);
}

static void mode_buffered(struct client *c)
{
	uint64_t b0, t0;
	int n = page_window(c, 8 + (int)rng_below(&c->aux, 57), &b0);

	if (!n) {
		mode_skip(c, "no whole page in the region", EINVAL, 1);
		return;
	}
	size_t len = (size_t)n * opt.bs, pos = 0;
	uint64_t off0 = blk_off(c, b0);
	int good = 1;

	fill(c, b0, n);
	/*
	 * Sequential, or in two passes when the window has two pages or more:
	 * every other page, whose writeback sync_file_range() starts from this
	 * process (async requests, not merged, in its own queue: an async
	 * slice can end by slice_async_rq), then the pages between, written
	 * back by the fsync below (sync requests of the same queue).
	 */
	int passes = len >= 2 * PAGE && rng_below(&c->aux, 2) ? 2 : 1, err = 0;
	for (int pass = 0; pass < passes && good; pass++) {
		for (size_t pg = 0; pg < len && good; pg += PAGE) {
			size_t end = passes == 1 ? len : pg + PAGE;
			if (passes == 2 && (pg / PAGE) % 2 != (size_t)pass)
				continue;
			pos = passes == 1 ? 0 : pg;
			if (lseek(c->bfd, (off_t)(off0 + pos), SEEK_SET) < 0) {
				io_error(c, "lseek", off0 + pos, 0, -errno);
				return;
			}
			while (pos < end) {
				size_t blk_end = (pos / opt.bs + 1) * opt.bs;
				size_t piece = 512 * (1 + rng_below(&c->aux, 8));
				if (piece > blk_end - pos)
					piece = blk_end - pos;
				t0 = now_us();
				ssize_t w = write(c->bfd, c->buf + pos, piece);
				if (w <= 0) {
					io_error(c, "write", off0 + pos, piece, w < 0 ? -errno : 0);
					good = 0;
					break;
				}
				mode_op(c, (uint64_t)w, t0);
				pos += (size_t)w;
			}
			if (passes == 1)
				break;
		}
		if (pass == 0 && passes == 2 && good &&
		    sync_file_range(c->bfd, (off64_t)off0, (off64_t)len, SYNC_FILE_RANGE_WRITE)) {
			io_error(c, "sync_file_range", off0, len, -errno);
			good = 0;
		}
	}

	/* fsync, sync_file_range and wait, or start writeback then fsync */
	int how = passes == 2 ? 0 : (int)rng_below(&c->aux, 3);
	t0 = now_us();
	if (how == 0) {
		err = fsync(c->bfd) ? errno : 0;
	} else {
		unsigned int f = SYNC_FILE_RANGE_WRITE;
		if (how == 1)
			f |= SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WAIT_AFTER;
		err = sync_file_range(c->bfd, (off64_t)off0, (off64_t)len, f) ? errno : 0;
		if (!err && how == 2)
			err = fsync(c->bfd) ? errno : 0;
	}
	if (err) {
		io_error(c, how ? "sync_file_range/fsync" : "fsync", off0, len, -err);
		good = 0;	/* what reached the disk is unknown */
	} else {
		mode_op(c, 0, t0);
	}

	/* drop the clean pages, then read back through readahead */
	err = posix_fadvise(c->bfd, (off_t)off0, (off_t)len, POSIX_FADV_DONTNEED);
	if (err && opt.verbose)
		fprintf(stderr, "paths: client %d buffered: DONTNEED: %s\n", c->idx, strerror(err));
	if (rng_below(&c->aux, 2))
		err = posix_fadvise(c->bfd, (off_t)off0, (off_t)len, POSIX_FADV_WILLNEED);
	else
		err = readahead(c->bfd, (off64_t)off0, len) ? errno : 0;
	if (err && opt.verbose)
		fprintf(stderr, "paths: client %d buffered: readahead: %s\n", c->idx, strerror(err));
	if (lseek(c->bfd, (off_t)off0, SEEK_SET) < 0) {
		io_error(c, "lseek", off0, 0, -errno);
		return;
	}
	for (pos = 0; pos < len;) {
		size_t chunk = (1 + rng_below(&c->aux, 16)) * opt.bs;
		if (chunk > len - pos)
			chunk = len - pos;
		t0 = now_us();
		ssize_t r = read(c->bfd, c->rbuf + pos, chunk);
		if (r <= 0) {
			io_error(c, "read", off0 + pos, chunk, r < 0 ? -errno : 0);
			return;
		}
		mode_op(c, (uint64_t)r, t0);
		pos += (size_t)r;
	}
	if (good)
		check_range(c, b0, 0, n, NULL);
}

/* ---- shared-ioc ------------------------------------------------------- */

static void sleep_some(struct client *c)
{
	if (rng_below(&c->aux, 2))
		sleep_us(rng_below(&c->aux, 10001));
}

/* A participant's rounds on its own blocks [i, i + n) of the window. */
static void part_io(struct client *c, uint64_t b0, int i, int n)
{
	int rounds = 1 + (int)rng_below(&c->aux, 4);

	for (int r = 0; r < rounds; r++) {
		sleep_some(c);
		int s = (int)rng_below(&c->aux, (uint64_t)n);
		int len = 1 + (int)rng_below(&c->aux, (uint64_t)(n - s));
		write_verify(c, c->dfd, b0, i + s, len);
	}
	sleep_some(c);
}

/* The leader, a process of its own for this iteration. */
static void shared_ioc_leader(struct client *c, uint64_t b0, int kids, int m)
{
	/* 0: wait for the children; 1: own I/O, then exit under them; 2: exit
	 * at once (not without the subreaper: orphans would outlive the
	 * iteration) */
	int how = c->subreaper ? (int)rng_below(&c->aux, 3) : 0;

	/* in 6.1 copy_io() shares only an io_context that exists already */
	sync_rw(c, c->dfd, 0, b0, 0, m, "first pread");
	for (int j = 1; j <= kids; j++) {
		uint64_t seed = rng_next(&c->aux);
		fflush(NULL);
		/* like fork, but the child shares our io_context */
		pid_t p = (pid_t)syscall(SYS_clone, CLONE_IO | SIGCHLD, NULL, NULL, NULL, NULL);
		if (p < 0) {
			io_error(c, "clone(CLONE_IO)", 0, 0, -errno);
			continue;
		}
		if (p == 0) {
			rng_init(&c->aux, seed, (uint64_t)j);
			part_io(c, b0, j * m, m);
			_exit(0);
		}
	}
	if (how == 2)
		_exit(0);
	part_io(c, b0, 0, m);
	if (how == 0)
		reap_all(c);
	_exit(0);
}

static void mode_shared_ioc(struct client *c)
{
	int kids = 2 + (int)rng_below(&c->aux, 3), m;

	if (kids > win_max - 1)
		kids = win_max - 1;
	m = clampi(win_max / (kids + 1), 1, 8);
	uint64_t b0 = window(c, (kids + 1) * m);
	fill(c, b0, (kids + 1) * m);
	pid_t p = fork_helper(c, 1);
	if (p == 0)
		shared_ioc_leader(c, b0, kids, m);
}

/* ---- uring ------------------------------------------------------------ */

/* Write (from wbuf) or read (into rbuf) window blocks [0, n) at b0 with at
 * most depth in flight; ok[i] is cleared for a block that failed. Returns -1
 * when submission broke down (SQEs left in the ring: do not use it again). */
static int uring_rw(struct client *c, struct io_uring *ring, int write, uint64_t b0, int n,
		     int depth, unsigned char *ok)
{
	uint64_t t0[MAX_WIN];
	int next = 0, queued = 0, inflight = 0, broken = 0;

	for (;;) {
		while (!broken && next < n && queued + inflight < depth) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
			uint64_t off = blk_off(c, b0 + (uint64_t)next);
			if (!sqe)
				break;
			if (write)
				io_uring_prep_write(sqe, c->dfd, wbuf(c, (uint64_t)next), opt.bs, off);
			else
				io_uring_prep_read(sqe, c->dfd, rbuf(c, (uint64_t)next), opt.bs, off);
			/* forces the request onto an io-wq worker (a CLONE_IO thread) */
			if (rng_below(&c->aux, 2))
				io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
			io_uring_sqe_set_data64(sqe, (uint64_t)next);
			t0[next++] = now_us();
			queued++;
		}
		if (queued && !broken) {
			int ret = io_uring_submit(ring);
			if (ret >= 0 && (ring->flags & IORING_SETUP_SQPOLL)) {
				/* liburing returns what the SQ thread has not taken
				 * yet, old entries included; it takes them all */
				inflight += queued;
				queued = 0;
			} else if (ret > 0) {
				queued -= ret;
				inflight += ret;
			} else if (!inflight || !(ret == 0 || ret == -EINTR || ret == -EAGAIN ||
						  ret == -EBUSY)) {
				/* the queued SQEs are never submitted: fail them */
				io_error(c, "io_uring_submit", blk_off(c, b0), 0, ret ? ret : -EAGAIN);
				for (int i = next - queued; i < n; i++)
					ok[i] = 0;
				broken = 1;
			}
		}
		if (!inflight)
			break;
		struct io_uring_cqe *cqe;
		int ret = io_uring_wait_cqe(ring, &cqe);
		if (ret == -EINTR)
			continue;
		if (ret < 0) {
			fprintf(stderr, "paths: client %d io_uring_wait_cqe: %s\n", c->idx,
				strerror(-ret));
			_exit(3);	/* buffers still in flight */
		}
		int i = (int)io_uring_cqe_get_data64(cqe);
		if (cqe->res == (int)opt.bs) {
			mode_op(c, opt.bs, t0[i]);
		} else {
			io_error(c, write ? "uring write" : "uring read",
				 blk_off(c, b0 + (uint64_t)i), opt.bs, cqe->res);
			ok[i] = 0;
		}
		io_uring_cqe_seen(ring, cqe);
		inflight--;
	}
	return broken ? -1 : 0;
}

static void mode_uring(struct client *c)
{
	struct io_uring ring;
	struct io_uring_params p;
	unsigned char ok[MAX_WIN], rok[MAX_WIN];
	int depth = clampi(opt.qd, 1, win_max);
	int n = clampi(4 + (int)rng_below(&c->aux, (uint64_t)win_max), 1, win_max);
	uint64_t b0 = window(c, n);

	/* io-wq workers and the SQPOLL thread share the io_context the task
	 * has when they are created: make sure it has one */
	sync_rw(c, c->dfd, 0, b0, 0, 1, "first pread");

	memset(&p, 0, sizeof(p));
	if (rng_below(&c->aux, 4) == 0) {
		p.flags = IORING_SETUP_SQPOLL;
		p.sq_thread_idle = 2;	/* ms */
	}
	int ret = io_uring_queue_init_params((unsigned)depth, &ring, &p);
	if (ret < 0 && p.flags) {
		memset(&p, 0, sizeof(p));
		ret = io_uring_queue_init_params((unsigned)depth, &ring, &p);
	}
	if (ret == -ENOSYS || ret == -EPERM) {
		mode_skip(c, "io_uring_queue_init", -ret, 1);
		return;
	}
	if (ret < 0) {
		io_error(c, "io_uring_queue_init", 0, 0, ret);
		return;
	}
	fill(c, b0, n);
	memset(ok, 1, sizeof(ok));
	memset(rok, 1, sizeof(rok));
	if (uring_rw(c, &ring, 1, b0, n, depth, ok) || uring_rw(c, &ring, 0, b0, n, depth, rok)) {
		io_uring_queue_exit(&ring);
		return;
	}
	io_uring_queue_exit(&ring);
	for (int i = 0; i < n; i++)
		if (ok[i] && rok[i])
			check_one(c, rbuf(c, (uint64_t)i), blk_off(c, b0 + (uint64_t)i));
}

/* ---- key-change ------------------------------------------------------- */

static void key_change_child(struct client *c, int type, uint64_t b0, int n)
{
	int reads = 8 + (int)rng_below(&c->aux, 25), err = 0;
	uint64_t seq = rng_below(&c->aux, region_blocks);

	/* back to back: the queue is active and the scheduler idles for it */
	for (int r = 0; r < reads; r++) {
		uint64_t off = blk_off(c, (seq + (uint64_t)r) % region_blocks), t0 = now_us();
		ssize_t got = pread(c->dfd, c->rbuf, opt.bs, (off_t)off);
		if (got != (ssize_t)opt.bs)
			io_error(c, "pread", off, opt.bs, got < 0 ? -errno : got);
		else
			mode_op(c, opt.bs, t0);
	}
	/* the queue key changes under us, without a pause */
	gid_t g = (gid_t)(1000 + rng_below(&c->aux, 59001));
	uid_t u = (uid_t)(1000 + rng_below(&c->aux, 59001));
	switch (type) {
	case 0:
		if (rng_below(&c->aux, 2) ? setsid() < 0 : setpgid(0, 0) < 0)
			err = errno;
		break;
	case 1:
		if (rng_below(&c->aux, 2) && setresgid(g, g, g))
			err = errno;
		else if (setresuid(u, u, u))
			err = errno;
		break;
	case 2:
		if (setresgid(g, g, g))
			err = errno;
		break;
	}
	if (err)
		mode_skip(c, "changing the key", err, 0);
	write_verify(c, c->dfd, b0, 0, n);
	if (rng_below(&c->aux, 2))
		write_verify(c, c->dfd, b0, 0, n);
	_exit(0);
}

static void mode_key_change(struct client *c)
{
	static const char *const types[] = { "pgid", "uid", "gid" };
	char qdir[PATH_MAX], path[PATH_MAX + 32];
	int type = (int)rng_below(&c->aux, 3), changed = 0, err = ENOENT;
	int n = clampi(1 + (int)rng_below(&c->aux, 8), 1, win_max);
	uint64_t b0 = window(c, n);

	if (!queue_dir_for_dev(opt.dev, qdir, sizeof(qdir))) {
		snprintf(path, sizeof(path), "%s/iosched/key_type", qdir);
		err = access(path, F_OK) ? errno : sysfs_write(path, types[type]);
		changed = !err;
	}
	if (!changed)	/* not on cfq now: the I/O still runs */
		mode_skip(c, "key_type", err, 0);
	fill(c, b0, n);
	pid_t p = fork_helper(c, 2);
	if (p == 0)
		key_change_child(c, type, b0, n);
	if (p > 0)
		reap_all(c);
	if (changed)
		sysfs_write(path, "pid");	/* best effort */
}

/* ---- ioprio ----------------------------------------------------------- */

static int rand_prio(struct rng *r)
{
	if (rng_below(r, 8) == 0)	/* idle: may legitimately wait long */
		return PRIO_VALUE(PRIO_CLASS_IDLE, 0);
	return PRIO_VALUE(rng_below(r, 2) ? PRIO_CLASS_RT : PRIO_CLASS_BE,
			  (int)rng_below(r, 8));
}

/* aio writes or reads of window blocks [from, from + n), each with its own
 * priority when use_prio; returns the submission error, if any */
static long prio_aio(struct client *c, io_context_t ctx, uint64_t b0, int from, int n,
		     int write, int use_prio, unsigned char *ok)
{
	struct iocb iocbs[MAX_WIN], *cbs[MAX_WIN];
	long res[MAX_WIN];
	int blk[MAX_WIN];

	prep_blocks(c, iocbs, cbs, blk, b0, from, n, write);
	for (int k = 0; k < n && use_prio; k++) {
		iocbs[k].aio_reqprio = (short)rand_prio(&c->aux);
		iocbs[k].u.c.flags |= IOCB_FLAG_IOPRIO;
	}
	uint64_t t0 = now_us();
	long serr = aio_run(c, ctx, cbs, n, (int)rng_below(&c->aux, 2), res);
	if (use_prio && (serr == -EINVAL || serr == -EPERM))
		return serr;	/* refused: the caller goes again without */
	aio_account(c, b0, blk, res, n, write, t0, ok);
	return 0;
}

static void ioprio_child(struct client *c, uint64_t b0, int n1, int n2)
{
	int prio = rand_prio(&c->aux), use_prio = 1;
	unsigned char ok[MAX_WIN], rok[MAX_WIN];
	io_context_t ctx = 0;

	if (syscall(SYS_ioprio_set, PRIO_WHO_PROCESS, 0, prio))
		mode_skip(c, "ioprio_set", errno, 0);
	for (int i = 0; i < n1; i++)
		write_verify(c, c->dfd, b0, i, 1);
	if (!n2)
		_exit(0);
	int ret = io_setup(n2, &ctx);
	if (ret < 0) {
		io_error(c, "io_setup", 0, 0, ret);
		_exit(0);
	}
	long serr = prio_aio(c, ctx, b0, n1, n2, 1, use_prio, ok);
	if (serr) {
		mode_skip(c, "per-request ioprio", (int)-serr, 0);
		use_prio = 0;
		prio_aio(c, ctx, b0, n1, n2, 1, 0, ok);
	}
	if (prio_aio(c, ctx, b0, n1, n2, 0, use_prio, rok))
		prio_aio(c, ctx, b0, n1, n2, 0, 0, rok);
	for (int i = n1; i < n1 + n2; i++)
		if (ok[i] && rok[i])
			check_one(c, rbuf(c, (uint64_t)i), blk_off(c, b0 + (uint64_t)i));
	io_destroy(ctx);
	_exit(0);
}

static void mode_ioprio(struct client *c)
{
	int n1 = clampi(1 + (int)rng_below(&c->aux, 8), 1, win_max);
	int n2 = clampi(2 + (int)rng_below(&c->aux, 15), 0, clampi(opt.qd, 1, win_max));

	if (n1 + n2 > win_max)
		n2 = win_max - n1;
	uint64_t b0 = window(c, n1 + n2);
	fill(c, b0, n1 + n2);
	if (fork_helper(c, 3) == 0)
		ioprio_child(c, b0, n1, n2);
}

/* ---- sgio ------------------------------------------------------------- */

/* Where the device starts on its disk: SG_IO addresses the whole disk.
 * Returns 0, or an errno value when SG_IO cannot be used safely. */
static int sg_setup(struct client *c)
{
	struct stat sb;
	char path[PATH_MAX], val[64];
	int lbs = 0;

	if (fstat(c->dfd, &sb) || !S_ISBLK(sb.st_mode))
		return ENOTTY;
	if (ioctl(c->dfd, BLKSSZGET, &lbs) || lbs < 512 || opt.bs % (uint32_t)lbs)
		return EINVAL;
	c->lbs = lbs;
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/partition", opt.sysfs_root,
		 major(sb.st_rdev), minor(sb.st_rdev));
	if (access(path, F_OK) == 0) {
		unsigned long long s;
		snprintf(path, sizeof(path), "%s/dev/block/%u:%u/start", opt.sysfs_root,
			 major(sb.st_rdev), minor(sb.st_rdev));
		if (sysfs_read(path, val, sizeof(val)) <= 0 || sscanf(val, "%llu", &s) != 1)
			return EINVAL;	/* a partition we cannot place */
		c->part_start = s * 512;
	}
	return 0;
}

static void put_be(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

/* SAM status, sense keys, and how often sg_rw retries a command */
#define SG_CHECK_CONDITION	0x02
#define SK_UNIT_ATTN		0x6
#define SK_ABORTED		0xb
#define SG_RETRIES		5

/* the sense key of a finished command, -1 without sense data */
static int sense_key(const sg_io_hdr_t *h, const unsigned char *sense)
{
	if (h->sb_len_wr < 3)
		return -1;
	return (sense[0] & 0x7f) >= 0x72 ? sense[1] & 0xf : sense[2] & 0xf;
}

/* One SCSI READ or WRITE of window blocks [0, n) at b0. Returns 0, 1 when
 * refused (skipped, mode disabled), -1 after counting an error. */
static int sg_rw(struct client *c, int write, uint64_t b0, int n)
{
	unsigned char cdb[16], sense[64];
	uint64_t off = blk_off(c, b0), len = (uint64_t)n * opt.bs, t0;
	uint64_t lba = (c->part_start + off) / (uint64_t)c->lbs, nlb = len / (uint64_t)c->lbs;
	sg_io_hdr_t h;

	memset(cdb, 0, sizeof(cdb));
	memset(&h, 0, sizeof(h));
	if (lba + nlb <= 0xffffffffULL && nlb <= 0xffff) {
		cdb[0] = write ? 0x2a : 0x28;	/* WRITE(10) / READ(10) */
		put_be(cdb + 2, lba, 4);
		put_be(cdb + 7, nlb, 2);
		h.cmd_len = 10;
	} else {
		cdb[0] = write ? 0x8a : 0x88;	/* WRITE(16) / READ(16) */
		put_be(cdb + 2, lba, 8);
		put_be(cdb + 10, nlb, 4);
		h.cmd_len = 16;
	}
	if (write && rng_below(&c->aux, 4) == 0)
		cdb[1] |= 0x08;			/* FUA */
	h.interface_id = 'S';
	h.dxfer_direction = write ? SG_DXFER_TO_DEV : SG_DXFER_FROM_DEV;
	h.dxfer_len = (unsigned int)len;
	h.dxferp = write ? c->buf : c->rbuf;
	h.cmdp = cdb;
	h.sbp = sense;
	h.mx_sb_len = sizeof(sense);
	h.timeout = 120000;			/* ms */
	t0 = now_us();
	for (int tries = 0;; tries++) {
		if (ioctl(c->dfd, SG_IO, &h) < 0) {
			int err = errno;
			if (refused(err) || err == EPERM) {
				mode_skip(c, "SG_IO", err, 1);
				return 1;
			}
			io_error(c, write ? "SG_IO write" : "SG_IO read", off, len, -err);
			return -1;
		}
		/* the kernel never retries passthrough: a CHECK CONDITION with
		 * ABORTED COMMAND or UNIT ATTENTION is ours to retry, as sd
		 * retries its own (scsi_debug's opts=0x10 injects them) */
		int key = sense_key(&h, sense);
		if (h.status != SG_CHECK_CONDITION || tries >= SG_RETRIES ||
		    (key != SK_ABORTED && key != SK_UNIT_ATTN))
			break;
		__atomic_add_fetch(&mcount(c)->retried, 1, __ATOMIC_RELAXED);
	}
	if (h.status || h.host_status || h.driver_status || h.resid) {
		int key = sense_key(&h, sense);
		stats_error(&st[c->idx]);
		__atomic_add_fetch(&mcount(c)->errors, 1, __ATOMIC_RELAXED);
		if (opt.verbose || !opt.allow_errors)
			fprintf(stderr, "paths: client %d sgio: %s off=%llu len=%llu: status=0x%x "
				"host=0x%x driver=0x%x resid=%d sense_key=%d\n", c->idx,
				write ? "write" : "read", (unsigned long long)off,
				(unsigned long long)len, h.status, h.host_status,
				h.driver_status, h.resid, key);
		return -1;
	}
	mode_op(c, len, t0);
	return 0;
}

static void mode_sgio(struct client *c)
{
	if (!c->lbs) {
		int err = sg_setup(c);
		if (err) {
			mode_skip(c, "SG_IO on this device", err, 1);
			return;
		}
	}
	int n = clampi(1 + (int)rng_below(&c->aux, 8), 1, win_max);
	uint64_t b0 = window(c, n);

	fill(c, b0, n);
	if (sg_rw(c, 1, b0, n))
		return;
	if (!sg_rw(c, 0, b0, n))
		check_range(c, b0, 0, n, NULL);
	/* and once through the block layer's normal path */
	if (!sync_rw(c, c->dfd, 0, b0, 0, n, "pread"))
		check_range(c, b0, 0, n, NULL);
}

/* ---- flush ------------------------------------------------------------ */

static void mode_flush(struct client *c)
{
	int n = clampi(2 + (int)rng_below(&c->aux, 7), 1, win_max), pending = 0;
	unsigned char ok[MAX_WIN];
	uint64_t b0 = window(c, n), t0;

	fill(c, b0, n);
	if (rng_below(&c->aux, 4) == 0) {
		/* one big O_DSYNC write */
		memset(ok, !sync_rw(c, c->sfd, 1, b0, 0, n, "O_DSYNC pwrite"), sizeof(ok));
	} else {
		for (int i = 0; i < n; i++) {
			int how = (int)rng_below(&c->aux, 3);
			ok[i] = !sync_rw(c, how ? c->dfd : c->sfd, 1, b0, i, 1,
					 how ? "pwrite" : "O_DSYNC pwrite");
			if (how == 1 && ok[i]) {
				t0 = now_us();
				if (fdatasync(c->dfd))
					io_error(c, "fdatasync", blk_off(c, b0 + (uint64_t)i),
						 opt.bs, -errno);
				else
					mode_op(c, 0, t0);
			}
			pending |= how == 2;
		}
	}
	if (pending) {
		t0 = now_us();
		if (fdatasync(c->dfd))
			io_error(c, "fdatasync", blk_off(c, b0), (uint64_t)n * opt.bs, -errno);
		else
			mode_op(c, 0, t0);
	}
	/* O_DIRECT writes that completed are on the device even when a flush
	 * failed afterwards: verify them */
	if (!sync_rw(c, c->dfd, 0, b0, 0, n, "pread"))
		check_range(c, b0, 0, n, ok);
}

/* ---- discard ---------------------------------------------------------- */

static void mode_discard(struct client *c)
{
	int n = clampi(1 + (int)rng_below(&c->aux, 16), 1, win_max);
	int zero = rng_below(&c->aux, 4) == 0;
	uint64_t b0 = window(c, n), range[2] = { blk_off(c, b0), (uint64_t)n * opt.bs };
	uint64_t t0 = now_us();

	if (ioctl(c->dfd, zero ? BLKZEROOUT : BLKDISCARD, range)) {
		int err = errno;
		if (refused(err))
			mode_skip(c, zero ? "BLKZEROOUT" : "BLKDISCARD", err, 1);
		else
			io_error(c, zero ? "BLKZEROOUT" : "BLKDISCARD", range[0], range[1], -err);
		return;
	}
	mode_op(c, range[1], t0);
	if (zero || rng_below(&c->aux, 2)) {
		/* discarded blocks may read as anything; zeroed ones as zero */
		if (!sync_rw(c, c->dfd, 0, b0, 0, n, "pread") && zero) {
			for (int i = 0; i < n; i++) {
				if (block_is_zero(rbuf(c, (uint64_t)i), opt.bs))
					continue;
				uint64_t off = blk_off(c, b0 + (uint64_t)i);
				report_mismatch(opt.dev, off, "not_zero_after_BLKZEROOUT");
				stats_verify_fail(&st[c->idx]);
			}
		}
	}
	fill(c, b0, n);
	if (rng_below(&c->aux, 2))
		write_verify(c, c->dfd, b0, 0, n);
	else
		for (int i = 0; i < n; i++)
			write_verify(c, c->dfd, b0, i, 1);
}

/* ---- debugfs ---------------------------------------------------------- */

/* The scheduler's debugfs attributes (block/<disk>/sched/: active_queue,
 * rr_list, queues, and dispatch on 6.12) walk its lists under its lock: read
 * every one there is while a helper does sync I/O on the same queue. Half
 * the rounds with the disk's blktrace on (its sysfs trace/enable): the
 * scheduler's messages are formatted under its lock, with IRQs off, only
 * while a trace is set up, and the trace comes and goes under I/O as a
 * user's blktrace would. A trace that is on when the mode starts is someone
 * else's (the rig's slice audit, a user's blktrace): it is left alone. */
static void mode_debugfs(struct client *c)
{
	static const char *const files[] = { "active_queue", "rr_list", "dispatch", "queues" };
	char qdir[PATH_MAX], path[PATH_MAX + 64], trace[PATH_MAX + 64], buf[16384];
	int n = clampi(1 + (int)rng_below(&c->aux, 8), 1, win_max);
	uint64_t b0 = window(c, n), t0 = now_us();
	const char *disk;
	int read_any = 0, own_trace;

	if (queue_dir_for_dev(opt.dev, qdir, sizeof(qdir))) {
		mode_skip(c, "no queue directory", ENOENT, 1);
		return;
	}
	*strrchr(qdir, '/') = '\0';	/* .../block/<disk>/queue -> .../block/<disk> */
	disk = strrchr(qdir, '/') + 1;
	snprintf(trace, sizeof(trace), "%s/trace/enable", qdir);
	own_trace = !(sysfs_read(trace, buf, sizeof(buf)) > 0 && buf[0] == '1');
	fill(c, b0, n);
	pid_t p = fork_helper(c, 3);
	if (p == 0) {
		write_verify(c, c->dfd, b0, 0, n);
		_exit(0);
	}
	for (int round = 0; round < 4; round++) {
		/* no trace/ directory (a kernel without blktrace): reads only */
		int on = rng_below(&c->aux, 2) != 0;	/* drawn either way: one plan per seed */

		if (own_trace)
			(void)sysfs_write(trace, on ? "1" : "0");
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(path, sizeof(path), "/sys/kernel/debug/block/%s/sched/%s", disk, files[i]);
			if (sysfs_read(path, buf, sizeof(buf)) >= 0)
				read_any = 1;
		}
	}
	if (p > 0)
		reap_all(c);
	if (own_trace)
		(void)sysfs_write(trace, "0");
	if (read_any)
		mode_op(c, 0, t0);
	else	/* not on cfq right now (no sched/ files), or no debugfs */
		mode_skip(c, "debugfs sched attributes", ENOENT, 0);
}

/* ---- peers ------------------------------------------------------------ */

/* reads of another device of the round between the client's own writes:
 * its io_context gets an io_cq on each queue, and the hint moves */
static void mode_peers(struct client *c)
{
	int n = clampi(2 + (int)rng_below(&c->aux, 7), 1, win_max);
	uint64_t b0 = window(c, n), size = 0;
	const char *peer = peer_dev[rng_below(&c->aux, (uint64_t)npeers)];
	int fd = open(peer, O_RDONLY | O_DIRECT);

	if (fd >= 0)
		size = dev_size(fd);
	if (fd < 0 || size < opt.bs) {
		mode_skip(c, peer, fd < 0 ? errno : EINVAL, 0);	/* may come back */
		if (fd >= 0)
			close(fd);
		return;
	}
	fill(c, b0, n);
	for (int i = 0; i < n; i++) {
		uint64_t off = rng_below(&c->aux, size / opt.bs) * opt.bs, t0 = now_us();
		ssize_t r = pread(fd, rbuf(c, (uint64_t)i), opt.bs, (off_t)off);

		if (r == (ssize_t)opt.bs)
			mode_op(c, opt.bs, t0);
		else if (r < 0 && errno == EINVAL)	/* its sectors are larger than --bs */
			mode_skip(c, peer, EINVAL, 0);
		else
			io_error(c, "peer pread", off, opt.bs, r < 0 ? -errno : r);
		write_verify(c, c->dfd, b0, i, 1);
	}
	close(fd);
}

/* ---- client ----------------------------------------------------------- */

static void (*const run_mode[NMODES])(struct client *) = {
	[M_MERGE] = mode_merge,
	[M_BUFFERED] = mode_buffered,
	[M_SHARED_IOC] = mode_shared_ioc,
	[M_URING] = mode_uring,
	[M_KEY_CHANGE] = mode_key_change,
	[M_IOPRIO] = mode_ioprio,
	[M_SGIO] = mode_sgio,
	[M_FLUSH] = mode_flush,
	[M_DISCARD] = mode_discard,
	[M_DEBUGFS] = mode_debugfs,
	[M_PEERS] = mode_peers,
};

/* The random choice --print-plan shows: a mode among those enabled and not
 * refused. -1 when none is left. */
static int pick_mode(struct rng *r, const unsigned char *disabled)
{
	int avail[NMODES], n = 0;

	for (int m = 0; m < NMODES; m++)
		if (enabled[m] && !disabled[m])
			avail[n++] = m;
	return n ? avail[rng_below(r, (uint64_t)n)] : -1;
}

static void client(int idx, void *arg)
{
	struct client c;

	(void)arg;
	memset(&c, 0, sizeof(c));
	c.idx = idx;
	c.base = opt.offset / opt.bs + (uint64_t)idx * region_blocks;
	/* distinct per run (within a boot): an earlier run's blocks never pass */
	c.gen = now_us() << 8;
	rng_init(&c.pick, opt.seed, (uint64_t)idx);
	rng_init(&c.aux, opt.seed, (1ULL << 32) + (uint64_t)idx);
	c.dfd = open_dev(opt.dev, O_RDWR | O_DIRECT);
	c.bfd = open_dev(opt.dev, O_RDWR);
	c.sfd = open_dev(opt.dev, O_RDWR | O_DIRECT | O_DSYNC);
	c.buf = alloc_aligned((size_t)win_max * opt.bs);
	c.rbuf = alloc_aligned((size_t)win_max * opt.bs);
	c.subreaper = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
	if (!c.subreaper)
		fprintf(stderr, "paths: client %d: PR_SET_CHILD_SUBREAPER: %s (shared-ioc "
			"leaders wait for their children)\n", idx, strerror(errno));

	while (!time_up()) {
		int m = pick_mode(&c.pick, c.disabled);
		if (m < 0)
			break;		/* every mode refused here */
		c.mode = m;
		c.gen++;
		run_mode[m](&c);
		reap_all(&c);
	}
	if (c.aio)
		io_destroy(c.aio);
	close(c.dfd);
	close(c.bfd);
	close(c.sfd);
}

int main(int argc, char **argv)
{
	memset(enabled, 1, sizeof(enabled));
	opt.qd = 16;
	parse_options(argc, argv, "paths", options, intro, outro);
	if (!opt.dev)
		usage_error("--dev is required");
	char *save = NULL;
	for (char *tok = peers ? strtok_r(peers, ",", &save) : NULL; tok && npeers < MAX_PEERS;
	     tok = strtok_r(NULL, ",", &save))
		if (strcmp(tok, opt.dev))
			peer_dev[npeers++] = tok;
	if (enabled[M_PEERS] && !npeers && modes_given)
		usage_error("--modes peers: --peers names no device but --dev");
	if (!npeers)	/* a run on one device keeps the plans it had before peers */
		enabled[M_PEERS] = 0;
	int fd = open_dev(opt.dev, O_RDONLY);
	uint64_t blocks = total_blocks(fd), dsize = dev_size(fd);
	close(fd);
	region_blocks = blocks / (uint64_t)opt.clients;
	if (region_blocks < MIN_REGION)
		usage_error("%s: size too small: each of %d clients needs %d blocks of --bs %u",
			    opt.dev, opt.clients, MIN_REGION, opt.bs);
	if (opt.offset + region_blocks * (uint64_t)opt.clients * opt.bs > dsize)
		usage_error("%s: --offset + --size go past its end (%llu bytes)", opt.dev,
			    (unsigned long long)dsize);
	uint64_t cap = WIN_BYTES / opt.bs;
	cap = cap < 1 ? 1 : cap > MAX_WIN ? MAX_WIN : cap;
	win_max = (int)(cap < region_blocks ? cap : region_blocks);

	if (opt.print_plan || opt.dry_run) {
		unsigned char none[NMODES] = { 0 };
		int n = opt.print_plan ? opt.print_plan : 8;
		if (opt.dry_run) {
			char qdir[PATH_MAX];
			if (!queue_dir_for_dev(opt.dev, qdir, sizeof(qdir)))
				printf("paths: key-change would write %s/iosched/key_type\n", qdir);
		}
		for (int c = 0; c < opt.clients; c++) {
			struct rng r;
			rng_init(&r, opt.seed, (uint64_t)c);
			for (int i = 0; i < n; i++)
				printf("plan client=%d i=%d mode=%s\n", c, i,
				       mode_names[pick_mode(&r, none)]);
		}
		return 0;
	}

	mc = mmap(NULL, sizeof(*mc) * NMODES * (size_t)opt.clients, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mc == MAP_FAILED) {
		perror("paths: mmap");
		return 2;
	}
	st = stats_alloc(opt.clients);
	run_clients(opt.clients, client, NULL, st);
	for (int m = 0; m < NMODES; m++) {
		struct mode_count sum = { 0, 0, 0, 0 };
		if (!enabled[m])
			continue;
		for (int c = 0; c < opt.clients; c++) {
			sum.ops += mc[(size_t)c * NMODES + (size_t)m].ops;
			sum.skipped += mc[(size_t)c * NMODES + (size_t)m].skipped;
			sum.errors += mc[(size_t)c * NMODES + (size_t)m].errors;
			sum.retried += mc[(size_t)c * NMODES + (size_t)m].retried;
		}
		printf("paths mode=%s ops=%llu skipped=%llu errors=%llu retried=%llu\n",
		       mode_names[m], (unsigned long long)sum.ops,
		       (unsigned long long)sum.skipped, (unsigned long long)sum.errors,
		       (unsigned long long)sum.retried);
	}
	return report_results(st, opt.clients, 0);
}
