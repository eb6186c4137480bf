/* writers: pattern writers that leave work for writeback, then verify. */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GEN_UNKNOWN UINT64_MAX	/* write or sync failed: content unknown */

static int direct_mode;
static long fsync_every, sfr_every, verify_every;
static int verify_only, plant_corruption, fill_first, allow_unwritten;
static uint64_t region_blocks;
static struct stats *st;

static void set_mode(const char *arg)
{
	direct_mode = parse_choice("mode", arg, "buffered", "direct");
}

static const char intro[] =
	"Pattern writers; client i owns region i of --dev (size/clients). Every\n"
	"block written is verified at the end (fsync + O_DIRECT read back).\n";
static const struct opt_spec options[] = {
	{ "mode", OPT_FN, NULL, 0, 0, set_mode, "buffered|direct", "pwrite via page cache, or O_DIRECT libaio with --qd" },
	{ "fsync-every", OPT_LONG, &fsync_every, 1, 1L << 30, NULL, "N", "fsync after every N writes" },
	{ "sfr-every", OPT_LONG, &sfr_every, 1, 1L << 30, NULL, "N", "sync_file_range burst over the region every N writes" },
	{ "verify-every", OPT_LONG, &verify_every, 1, 1L << 30, NULL, "N", "drain, fsync and verify the region every N writes" },
	{ "fill", OPT_FLAG, &fill_first, 0, 0, NULL, NULL, "first write every block of the region once, in order" },
	{ "verify-only", OPT_FLAG, &verify_only, 0, 0, NULL, NULL,
	  "only read the region(s), check every block carries a\n"
	  "self-consistent pattern for its offset" },
	{ "allow-unwritten", OPT_FLAG, &allow_unwritten, 0, 0, NULL, NULL, "with --verify-only: all-zero blocks are fine" },
	{ "plant-corruption", OPT_FLAG, &plant_corruption, 0, 0, NULL, NULL,
	  "self-test: flip one byte on disk of one block written\n"
	  "by client 0 before the final verify (must fail)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL },
};

struct writer {
	int idx;
	int fd;			/* writes (O_DIRECT in direct mode) */
	int vfd;		/* O_DIRECT reads for verification */
	uint64_t base;		/* first block of the region */
	uint64_t *gen;		/* last generation written per block, 0 = never */
	uint32_t *epoch;	/* sync epoch of the last write per block */
	unsigned char *inflight;
	uint32_t cur_epoch;
	uint64_t next_gen;
	uint64_t nwritten;
	struct rng rng;		/* block choices (same as --print-plan) */
	struct rng aux;		/* other choices */
	/* aio */
	io_context_t ctx;
	struct iocb *cbs;
	struct io_event *ev;
	uint64_t *t0;
	char *bufs;
	int nflight;
};

/* The random choice: the next block to write (region relative). */
static uint64_t next_block(struct rng *r, uint64_t nwritten)
{
	if (fill_first && nwritten < region_blocks)
		return nwritten;
	return rng_below(r, region_blocks);
}

static uint64_t blk_off(struct writer *w, uint64_t b)
{
	return (w->base + b) * opt.bs;
}

static void write_failed(struct writer *w, uint64_t b, long res)
{
	w->gen[b] = GEN_UNKNOWN;
	stats_error(&st[w->idx]);
	if (opt.verbose || !opt.allow_errors)
		fprintf(stderr, "writers: write off=%llu failed: %s\n",
			(unsigned long long)blk_off(w, b),
			res < 0 ? strerror((int)-res) : "short write");
}

/* Reap at least min completions. */
static void reap(struct writer *w, int min)
{
	while (min > 0 && w->nflight > 0) {
		int ret = io_getevents(w->ctx, 1, opt.qd, w->ev, NULL);
		if (ret == -EINTR)
			continue;
		if (ret < 0) {
			fprintf(stderr, "writers: io_getevents: %s\n", strerror(-ret));
			exit(3);
		}
		for (int e = 0; e < ret; e++) {
			struct iocb *cb = w->ev[e].obj;
			int i = (int)(cb - w->cbs);
			uint64_t b = (uint64_t)cb->u.c.offset / opt.bs - w->base;
			long res = (long)w->ev[e].res;
			w->inflight[b] = 0;
			cb->data = NULL;
			w->nflight--;
			min--;
			if (res != (long)opt.bs) {
				write_failed(w, b, res);
				continue;
			}
			w->gen[b] = ((struct pat_hdr *)(w->bufs + (size_t)i * opt.bs))->gen;
			w->epoch[b] = w->cur_epoch;
			stats_op(&st[w->idx], opt.bs, now_us() - w->t0[i]);
		}
	}
}

static void write_one(struct writer *w, void *pbuf)
{
	uint64_t b = next_block(&w->rng, w->nwritten++);
	uint64_t gen = ++w->next_gen, off = blk_off(w, b);

	if (!direct_mode) {
		pattern_fill(pbuf, opt.bs, off, (uint32_t)w->idx, gen, opt.seed);
		uint64_t t0 = now_us();
		ssize_t n = pwrite(w->fd, pbuf, opt.bs, (off_t)off);
		if (n != (ssize_t)opt.bs) {
			write_failed(w, b, n < 0 ? -errno : 0);
			return;
		}
		w->gen[b] = gen;
		w->epoch[b] = w->cur_epoch;
		stats_op(&st[w->idx], opt.bs, now_us() - t0);
		return;
	}
	/* direct: never two writes in flight to one block */
	while (w->inflight[b] || w->nflight == opt.qd)
		reap(w, 1);
	int i = 0;
	while (w->cbs[i].data)
		i++;
	struct iocb *cb = &w->cbs[i];
	char *buf = w->bufs + (size_t)i * opt.bs;
	pattern_fill(buf, opt.bs, off, (uint32_t)w->idx, gen, opt.seed);
	io_prep_pwrite(cb, w->fd, buf, opt.bs, (long long)off);
	cb->data = cb;
	w->t0[i] = now_us();
	int ret = io_submit(w->ctx, 1, &cb);
	if (ret != 1) {
		cb->data = NULL;
		write_failed(w, b, ret < 0 ? ret : -EAGAIN);
		return;
	}
	w->inflight[b] = 1;
	w->nflight++;
}

/* fsync; when it fails, what was written since the last good sync is unknown */
static void sync_region(struct writer *w)
{
	if (direct_mode)
		reap(w, w->nflight);
	if (fsync(w->fd)) {
		int e = errno;
		stats_error(&st[w->idx]);
		fprintf(stderr, "writers: client %d fsync: %s\n", w->idx, strerror(e));
		for (uint64_t b = 0; b < region_blocks; b++)
			if (w->gen[b] && w->epoch[b] == w->cur_epoch)
				w->gen[b] = GEN_UNKNOWN;
	}
	w->cur_epoch++;
}

static void sfr_burst(struct writer *w)
{
	static const unsigned int flags[] = {
		SYNC_FILE_RANGE_WRITE,
		SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE,
		SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER,
	};
	unsigned int f = flags[rng_below(&w->aux, 3)];

	if (sync_file_range(w->fd, (off64_t)blk_off(w, 0),
			    (off64_t)(region_blocks * opt.bs), f)) {
		stats_error(&st[w->idx]);
		fprintf(stderr, "writers: sync_file_range: %s\n", strerror(errno));
	}
}

/* Read the region back with O_DIRECT. want_gen: the writer's own records
 * (NULL in --verify-only mode: any self-consistent block is fine). */
static void verify_region(int idx, int vfd, uint64_t base, const uint64_t *want_gen)
{
	uint64_t chunk = (1 << 20) / opt.bs ? (1 << 20) / opt.bs : 1;
	char *buf = alloc_aligned(chunk * opt.bs);
	char why[256];

	for (uint64_t b0 = 0; b0 < region_blocks && !(stop_requested && verify_only);
	     b0 += chunk) {
		uint64_t n = region_blocks - b0 < chunk ? region_blocks - b0 : chunk;
		uint64_t off0 = (base + b0) * opt.bs, t0 = now_us();
		int needed = !want_gen;
		for (uint64_t k = 0; k < n && !needed; k++)
			needed = want_gen[b0 + k] && want_gen[b0 + k] != GEN_UNKNOWN;
		if (!needed)
			continue;
		ssize_t got = pread(vfd, buf, n * opt.bs, (off_t)off0);
		if (got != (ssize_t)(n * opt.bs)) {
			stats_error(&st[idx]);
			fprintf(stderr, "writers: verify read off=%llu len=%llu failed: %s\n",
				(unsigned long long)off0, (unsigned long long)(n * opt.bs),
				got < 0 ? strerror(errno) : "short read");
			continue;
		}
		if (verify_only)
			stats_op(&st[idx], (uint64_t)got, now_us() - t0);
		for (uint64_t k = 0; k < n; k++) {
			const char *blk = buf + k * opt.bs;
			uint64_t off = off0 + k * opt.bs;
			long writer = -1;
			uint64_t g = 0;
			if (want_gen) {
				g = want_gen[b0 + k];
				if (!g || g == GEN_UNKNOWN)
					continue;
				writer = idx;
			} else if (allow_unwritten && block_is_zero(blk, opt.bs)) {
				continue;
			}
			if (pattern_check(blk, opt.bs, off, writer, g, why, sizeof(why))) {
				report_mismatch(opt.dev, off, why);
				stats_verify_fail(&st[idx]);
			}
		}
	}
	free(buf);
}

static void plant(struct writer *w)
{
	char *buf = alloc_aligned(opt.bs);
	uint64_t b = 0;

	while (b < region_blocks && (!w->gen[b] || w->gen[b] == GEN_UNKNOWN))
		b++;
	if (b == region_blocks) {
		fprintf(stderr, "writers: nothing written, cannot plant corruption\n");
		exit(3);
	}
	int fd = open_dev(opt.dev, O_RDWR | O_DIRECT);
	uint64_t off = blk_off(w, b);
	if (pread(fd, buf, opt.bs, (off_t)off) != (ssize_t)opt.bs) {
		perror("writers: plant read");
		exit(3);
	}
	buf[opt.bs / 2] ^= 0x5a;
	if (pwrite(fd, buf, opt.bs, (off_t)off) != (ssize_t)opt.bs || fsync(fd)) {
		perror("writers: plant write");
		exit(3);
	}
	fprintf(stderr, "writers: planted corruption at off=%llu\n", (unsigned long long)off);
	close(fd);
	free(buf);
}

static void client(int idx, void *arg)
{
	struct writer w;
	void *pbuf = alloc_aligned(opt.bs);

	(void)arg;
	memset(&w, 0, sizeof(w));
	w.idx = idx;
	w.base = opt.offset / opt.bs + (uint64_t)idx * region_blocks;
	w.vfd = open_dev(opt.dev, O_RDONLY | O_DIRECT);
	if (verify_only) {
		verify_region(idx, w.vfd, w.base, NULL);
		return;
	}
	w.fd = open_dev(opt.dev, O_RDWR | (direct_mode ? O_DIRECT : 0));
	w.gen = calloc(region_blocks, sizeof(*w.gen));
	w.epoch = calloc(region_blocks, sizeof(*w.epoch));
	w.inflight = calloc(region_blocks, 1);
	if (!w.gen || !w.epoch || !w.inflight)
		exit(2);
	rng_init(&w.rng, opt.seed, (uint64_t)idx);
	rng_init(&w.aux, opt.seed, (1ULL << 32) + (uint64_t)idx);
	if (direct_mode) {
		int ret = io_setup(opt.qd, &w.ctx);
		if (ret < 0) {
			fprintf(stderr, "writers: io_setup: %s\n", strerror(-ret));
			exit(3);
		}
		w.cbs = calloc((size_t)opt.qd, sizeof(*w.cbs));
		w.ev = calloc((size_t)opt.qd, sizeof(*w.ev));
		w.t0 = calloc((size_t)opt.qd, sizeof(*w.t0));
		w.bufs = alloc_aligned((size_t)opt.qd * opt.bs);
		if (!w.cbs || !w.ev || !w.t0)
			exit(2);
	}

	while (!time_up()) {
		write_one(&w, pbuf);
		uint64_t n = w.nwritten;
		if (fsync_every && n % (uint64_t)fsync_every == 0)
			sync_region(&w);
		if (sfr_every && n % (uint64_t)sfr_every == 0)
			sfr_burst(&w);
		if (verify_every && n % (uint64_t)verify_every == 0) {
			sync_region(&w);
			verify_region(idx, w.vfd, w.base, w.gen);
		}
	}
	sync_region(&w);
	if (plant_corruption && idx == 0)
		plant(&w);
	verify_region(idx, w.vfd, w.base, w.gen);
	if (direct_mode)
		io_destroy(w.ctx);
}

int main(int argc, char **argv)
{
	parse_options(argc, argv, "writers", options, intro, NULL);
	if (!opt.dev)
		usage_error("--dev is required");
	int fd = open_dev(opt.dev, verify_only ? O_RDONLY : O_RDWR | O_CREAT);
	struct stat sb;
	/* a regular file smaller than --size is grown (sparse) */
	if (!verify_only && opt.size && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    (uint64_t)sb.st_size < opt.size && ftruncate(fd, (off_t)opt.size)) {
		fprintf(stderr, "writers: cannot grow %s: %s\n", opt.dev, strerror(errno));
		return 2;
	}
	uint64_t blocks = total_blocks(fd);
	close(fd);
	region_blocks = blocks / (uint64_t)opt.clients;
	if (!region_blocks)
		usage_error("%s: size too small for %d clients of --bs %u", opt.dev,
			    opt.clients, opt.bs);

	if (opt.print_plan) {
		for (int c = 0; c < opt.clients; c++) {
			struct rng r;
			rng_init(&r, opt.seed, (uint64_t)c);
			for (int i = 0; i < opt.print_plan; i++)
				printf("plan client=%d i=%d op=write off=%llu\n", c, i,
				       (unsigned long long)(((uint64_t)c * region_blocks +
							     next_block(&r, (uint64_t)i)) * opt.bs));
		}
		return 0;
	}

	st = stats_alloc(opt.clients);
	run_clients(opt.clients, client, NULL, st);
	return report_results(st, opt.clients, 0);
}
