/* readers: O_DIRECT readers, each client on its own region of --dev. */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PAT_SEQ, PAT_RAND, PAT_INTERLEAVE };
static int pattern = PAT_RAND;	/* --pattern */
static int use_aio;
static int verify;
static uint64_t region_blocks;
static struct stats *st;

static void set_pattern(const char *arg)
{
	if (!strcmp(arg, "interleave"))
		pattern = PAT_INTERLEAVE;
	else if (!strcmp(arg, "seq") || !strcmp(arg, "rand"))
		pattern = parse_choice("pattern", arg, "seq", "rand");
	else
		usage_error("--pattern must be seq, rand or interleave, not '%s'", arg);
}

static void set_engine(const char *arg)
{
	use_aio = parse_choice("engine", arg, "sync", "aio");
}

static const char intro[] = "O_DIRECT readers; client i reads region i of --dev (size/clients).\n";
static const struct opt_spec options[] = {
	{ "pattern", OPT_FN, NULL, 0, 0, set_pattern, "seq|rand|interleave",
	  "access pattern (default rand); interleave:\n"
	  "the clients share the whole region, client i of N\n"
	  "reads blocks i, i+N, i+2N, ... (cooperating processes:\n"
	  "each one's next block is next to the others', what bfq's\n"
	  "queue merging and CFQ's close cooperators look for)" },
	{ "engine", OPT_FN, NULL, 0, 0, set_engine, "sync|aio", "pread, or libaio with --qd in flight (default sync)" },
	{ "verify", OPT_FLAG, &verify, 0, 0, NULL, NULL,
	  "every block must carry a valid pattern written by\n"
	  "writers with the same --bs (do not run concurrently\n"
	  "with writers on the same blocks)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL },
};

/* The only random choice: which block to read next. */
static uint64_t next_offset(struct rng *r, int idx, uint64_t *seq)
{
	uint64_t n = (uint64_t)opt.clients, blk;

	if (pattern == PAT_INTERLEAVE)
		return opt.offset + (((*seq)++ * n + (uint64_t)idx) % (region_blocks * n)) * opt.bs;
	blk = pattern == PAT_RAND ? rng_below(r, region_blocks) : (*seq)++ % region_blocks;
	return opt.offset + ((uint64_t)idx * region_blocks + blk) * opt.bs;
}

static void check_block(struct stats *s, const void *buf, uint64_t off)
{
	char why[256];

	if (verify && pattern_check(buf, opt.bs, off, -1, 0, why, sizeof(why))) {
		report_mismatch(opt.dev, off, why);
		stats_verify_fail(s);
	}
}

static void io_failed(struct stats *s, uint64_t off, long res)
{
	stats_error(s);
	if (opt.verbose || !opt.allow_errors)
		fprintf(stderr, "readers: read off=%llu failed: %s\n",
			(unsigned long long)off,
			res < 0 ? strerror((int)-res) : "short read");
}

static void run_sync(int idx, int fd, struct rng *r)
{
	void *buf = alloc_aligned(opt.bs);
	uint64_t seq = 0;

	while (!time_up()) {
		uint64_t off = next_offset(r, idx, &seq), t0 = now_us();
		ssize_t n = pread(fd, buf, opt.bs, (off_t)off);
		if (n != (ssize_t)opt.bs) {
			io_failed(&st[idx], off, n < 0 ? -errno : 0);
			continue;
		}
		stats_op(&st[idx], opt.bs, now_us() - t0);
		check_block(&st[idx], buf, off);
	}
}

static void run_aio(int idx, int fd, struct rng *r)
{
	io_context_t ctx = 0;
	struct iocb *cbs = calloc((size_t)opt.qd, sizeof(*cbs));
	struct io_event *ev = calloc((size_t)opt.qd, sizeof(*ev));
	uint64_t *t0 = calloc((size_t)opt.qd, sizeof(*t0));
	char *bufs = alloc_aligned((size_t)opt.qd * opt.bs);
	uint64_t seq = 0;
	int inflight = 0, ret;

	if (!cbs || !ev || !t0)
		exit(2);
	ret = io_setup(opt.qd, &ctx);
	if (ret < 0) {
		fprintf(stderr, "readers: io_setup: %s\n", strerror(-ret));
		exit(3);
	}
	/* slot i is free when cbs[i].data == NULL */
	for (;;) {
		for (int i = 0; i < opt.qd && !time_up(); i++) {
			if (cbs[i].data)
				continue;
			struct iocb *cb = &cbs[i];
			uint64_t off = next_offset(r, idx, &seq);
			io_prep_pread(cb, fd, bufs + (size_t)i * opt.bs, opt.bs, (long long)off);
			cb->data = cb;
			t0[i] = now_us();
			ret = io_submit(ctx, 1, &cb);
			if (ret != 1) {
				cb->data = NULL;
				io_failed(&st[idx], off, ret < 0 ? ret : -EAGAIN);
				continue;
			}
			inflight++;
		}
		if (!inflight)
			break;
		struct timespec to = { 0, 100 * 1000 * 1000 };
		ret = io_getevents(ctx, 1, opt.qd, ev, &to);
		if (ret < 0 && ret != -EINTR) {
			fprintf(stderr, "readers: io_getevents: %s\n", strerror(-ret));
			stats_error(&st[idx]);
			break;
		}
		for (int e = 0; e < ret; e++) {
			struct iocb *cb = ev[e].obj;
			int i = (int)(cb - cbs);
			uint64_t off = (uint64_t)cb->u.c.offset;
			long res = (long)ev[e].res;
			inflight--;
			cb->data = NULL;
			if (res != (long)opt.bs) {
				io_failed(&st[idx], off, res);
				continue;
			}
			stats_op(&st[idx], opt.bs, now_us() - t0[i]);
			check_block(&st[idx], bufs + (size_t)i * opt.bs, off);
		}
	}
	io_destroy(ctx);
}

static void client(int idx, void *arg)
{
	struct rng r;
	int fd = open_dev(opt.dev, O_RDONLY | O_DIRECT);

	(void)arg;
	rng_init(&r, opt.seed, (uint64_t)idx);
	if (use_aio)
		run_aio(idx, fd, &r);
	else
		run_sync(idx, fd, &r);
	close(fd);
}

int main(int argc, char **argv)
{
	parse_options(argc, argv, "readers", options, intro, NULL);
	int fd = open_dev(opt.dev, O_RDONLY);
	uint64_t blocks = total_blocks(fd);
	close(fd);
	region_blocks = blocks / (uint64_t)opt.clients;
	if (!region_blocks)
		usage_error("%s: size too small for %d clients of --bs %u", opt.dev,
			    opt.clients, opt.bs);

	if (opt.print_plan) {
		for (int c = 0; c < opt.clients; c++) {
			struct rng r;
			uint64_t seq = 0;
			rng_init(&r, opt.seed, (uint64_t)c);
			for (int i = 0; i < opt.print_plan; i++)
				printf("plan client=%d i=%d op=read off=%llu\n", c, i,
				       (unsigned long long)next_offset(&r, c, &seq));
		}
		return 0;
	}

	st = stats_alloc(opt.clients);
	run_clients(opt.clients, client, NULL, st);
	return report_results(st, opt.clients, 0);
}
