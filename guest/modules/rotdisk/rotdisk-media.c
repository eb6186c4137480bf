// SPDX-License-Identifier: GPL-2.0
/*
 * rotdisk-media.c: the timing model and the memory_backed page store of
 * rotdisk (see rotdisk-main.c for the model and the lock rules).
 */
#include "rotdisk.h"

/* settle + (full - settle) * sqrt(d / cap), with d / cap in Q32 */
static u64 rotdisk_seek_ns(u64 d)
{
	unsigned int shift = max(fls64(geom.cap), 32) - 32;
	u64 frac;

	d = min(d, geom.cap);
	frac = div64_u64((d >> shift) << 32, geom.cap >> shift);
	return geom.settle_ns +
	       (((geom.full_ns - geom.settle_ns) * int_sqrt64(frac)) >> 16);
}

/*
 * Serve @rq in the model: advance head and clock, account the stats, and
 * set the wall-clock deadline to @start plus the scaled service time.
 * Called with d->lock held.
 */
void rotdisk_model(struct rotdisk *d, struct request *rq, ktime_t start)
{
	sector_t pos = blk_rq_pos(rq);
	unsigned int nr = blk_rq_sectors(rq);
	bool is_read = req_op(rq) == REQ_OP_READ;
	u64 seek = 0, rot = 0, xfer, cur;
	u32 sec;

	xfer = div64_u64((u64)nr * SECTOR_SIZE * NSEC_PER_SEC, geom.bytes_per_s);
	if (pos == d->head) {
		d->st.seq_hits++;
	} else if (is_read && d->last_read && pos > d->head &&
		   pos - d->head <= geom.cache_sectors) {
		d->st.cache_hits++;
	} else {
		seek = rotdisk_seek_ns(pos > d->head ? pos - d->head :
						       d->head - pos);
		div64_u64_rem(d->clock_ns + seek, geom.rev_ns, &cur);
		div_u64_rem(pos, geom.spt, &sec);
		rot = div_u64((u64)sec * geom.rev_ns, geom.spt);
		rot = rot >= cur ? rot - cur : rot + geom.rev_ns - cur;
		d->st.seeks++;
	}

	d->clock_ns += seek + rot + xfer;
	d->head = pos + nr;
	d->last_read = is_read;
	d->st.reads += is_read;
	d->st.writes += !is_read;
	d->st.sectors += nr;
	d->st.seek_ns += seek;
	d->st.rot_ns += rot;
	d->st.xfer_ns += xfer;
	d->deadline = ktime_add_ns(start, div_u64((seek + rot + xfer) *
						  geom.scale_pct, 100));
}

/* memory_backed: the page holding @sector, allocated if @alloc */
static struct page *rotdisk_page(struct rotdisk *d, sector_t sector, bool alloc)
{
	pgoff_t idx = sector >> PAGE_SECTORS_SHIFT;
	struct page *page, *old;

	page = xa_load(&d->pages, idx);
	if (page || !alloc)
		return page;

	page = alloc_page(GFP_NOIO | __GFP_ZERO | __GFP_HIGHMEM);
	if (!page)
		return NULL;
	old = xa_cmpxchg(&d->pages, idx, NULL, page, GFP_NOIO);
	if (!old) {
		atomic_long_inc(&d->nr_pages);
		return page;
	}
	__free_page(page);
	return xa_is_err(old) ? NULL : old;	/* lost a race: use theirs */
}

/* memory_backed: move the data of @rq; may sleep */
int rotdisk_copy(struct rotdisk *d, struct request *rq)
{
	bool write = op_is_write(req_op(rq));
	sector_t sector = blk_rq_pos(rq);
	struct req_iterator iter;
	struct bio_vec bv;

	/* a segment lies in one page, but may straddle two store pages */
	rq_for_each_segment(bv, rq, iter) {
		unsigned int done, n, off, bo;
		struct page *page;

		for (done = 0; done < bv.bv_len; done += n) {
			off = (sector & (PAGE_SECTORS - 1)) << SECTOR_SHIFT;
			n = min_t(unsigned int, bv.bv_len - done, PAGE_SIZE - off);
			bo = bv.bv_offset + done;
			page = rotdisk_page(d, sector, write);
			sector += n >> SECTOR_SHIFT;
			if (write && !page)
				return -ENOMEM;
			if (write)
				memcpy_page(page, off, bv.bv_page, bo, n);
			else if (page)
				memcpy_page(bv.bv_page, bo, page, off, n);
			else
				memzero_page(bv.bv_page, bo, n);
		}
		if (!write)
			flush_dcache_page(bv.bv_page);
	}
	return 0;
}
