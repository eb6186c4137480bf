// SPDX-License-Identifier: GPL-2.0
/*
 * rotdisk: a test-only blk-mq driver that emulates one single-actuator
 * rotating disk of ~2004 (7200 rpm IDE, ~20 MB/s), so that I/O scheduler
 * benchmarks get stable timing that comes from a model, not from the host.
 * Structure after drivers/block/null_blk (hrtimer completion, irqmode=2) and
 * drivers/block/brd.c (sparse page store).
 *
 * Model. The disk serves one request at a time, in arrival order (no NCQ).
 * "head" is the sector after the last request served, "clock" the model
 * time in ns: the sum of all service times so far (idle time does not
 * count, so the model is deterministic for a given request sequence).
 * A READ or WRITE of n sectors at pos costs, in model ns:
 *
 *   xfer = n * 512 * 1e9 / (transfer_kbps * 1024)
 *   if pos == head, or (read after read and head < pos <= head + cache):
 *	seek = rot = 0				(sequential / track cache hit)
 *   else, with d = |pos - head| > 0, rev = 60e9 / rpm and
 *   spt = transfer_kbps * 1024 * 60 / (rpm * 512) sectors per track:
 *	seek = settle + (full - settle) * sqrt(d / capacity_sectors)
 *	cur  = (clock + seek) mod rev		(platter angle after the seek)
 *	tgt  = (pos mod spt) * rev / spt	(angle of the target sector)
 *	rot  = (tgt - cur) mod rev		(in [0, rev), mean rev / 2)
 *   service = seek + rot + xfer;  clock += service;  head = pos + n
 *
 * The head request completes from an hrtimer (hardirq) at wall time
 * start + service * time_scale_pct / 100.  "start" is the arrival time if
 * the disk was idle, else the previous deadline (so timer latency does not
 * add up), but never more than ROTDISK_MAX_LAG_NS in the past (this also
 * bounds the catch-up work done in one timer interrupt).  FLUSH
 * completes at once (there is no write cache); other ops get NOTSUPP.
 * With memory_backed=1 the data are copied in ->queue_rq (which may then
 * sleep: BLK_MQ_F_BLOCKING) to a sparse xarray of pages; only the
 * completion is delayed.  With memory_backed=0 reads leave the buffer
 * untouched and writes are dropped.
 *
 * Lock rules. rotdisk.lock (irqsave, the timer takes it in hardirq) protects
 * fifo, busy, deadline, the model state and the stats.  busy is true while
 * the fifo is non-empty: then exactly the timer owns the head request and
 * re-arms itself (HRTIMER_RESTART) for the next one; ->queue_rq arms the
 * timer only on the busy false -> true transition.  Requests are ended with
 * the lock dropped.  The lock nests outside the hrtimer base lock
 * (hrtimer_start under it), never inside; hrtimer_cancel is never called
 * under it.  The page xarray has its own lock and is used only in process
 * context; pages are freed only at module exit.
 */
#include "rotdisk.h"

static unsigned long capacity_mb = 8192;
module_param(capacity_mb, ulong, 0444);
MODULE_PARM_DESC(capacity_mb, "Disk size in MiB (default 8192)");
static unsigned int rpm = 7200;
module_param(rpm, uint, 0444);
MODULE_PARM_DESC(rpm, "Spindle speed (default 7200)");
static unsigned int transfer_kbps = 20000;
module_param(transfer_kbps, uint, 0444);
MODULE_PARM_DESC(transfer_kbps, "Media rate in KiB/s (default 20000)");
static unsigned int seek_settle_us = 800;
module_param(seek_settle_us, uint, 0444);
MODULE_PARM_DESC(seek_settle_us, "Track-to-track seek in us (default 800)");
static unsigned int seek_full_us = 16000;
module_param(seek_full_us, uint, 0444);
MODULE_PARM_DESC(seek_full_us, "Full-stroke seek in us (default 16000)");
static unsigned int track_cache_kb = 128;
module_param(track_cache_kb, uint, 0444);
MODULE_PARM_DESC(track_cache_kb, "Read-ahead window after the last read in KiB (default 128)");
static unsigned int queue_depth = 4;
module_param(queue_depth, uint, 0444);
MODULE_PARM_DESC(queue_depth, "Tag set depth (default 4)");
static unsigned int time_scale_pct = 100;
module_param(time_scale_pct, uint, 0444);
MODULE_PARM_DESC(time_scale_pct, "Wall time per model time in percent, 1..100000 (default 100)");
static bool memory_backed;
module_param(memory_backed, bool, 0444);
MODULE_PARM_DESC(memory_backed, "Keep written data in RAM (default 0: discard)");
static unsigned int nr_devices = 1;
module_param(nr_devices, uint, 0444);
MODULE_PARM_DESC(nr_devices, "Number of disks /dev/rotdiskN (default 1)");

struct rotdisk_geom geom;
static int rotdisk_major;
static struct rotdisk *rotdisks[ROTDISK_MAX_DEVICES];

static enum hrtimer_restart rotdisk_timer_fn(struct hrtimer *timer)
{
	struct rotdisk *d = container_of(timer, struct rotdisk, timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	struct request *rq, *next;
	unsigned long flags;
	ktime_t start;

	spin_lock_irqsave(&d->lock, flags);
	rq = list_first_entry_or_null(&d->fifo, struct request, queuelist);
	if (rq) {
		list_del_init(&rq->queuelist);
		d->queued--;
	}
	next = list_first_entry_or_null(&d->fifo, struct request, queuelist);
	if (next) {
		start = ktime_sub_ns(ktime_get(), ROTDISK_MAX_LAG_NS);
		if (ktime_after(d->deadline, start))
			start = d->deadline;
		rotdisk_model(d, next, start);
		hrtimer_set_expires(timer, d->deadline);
		ret = HRTIMER_RESTART;
	} else {
		d->busy = false;
	}
	spin_unlock_irqrestore(&d->lock, flags);

	if (rq)
		blk_mq_end_request(rq, BLK_STS_OK);
	return ret;
}

static blk_status_t rotdisk_queue_rq(struct blk_mq_hw_ctx *hctx,
				     const struct blk_mq_queue_data *bd)
{
	struct rotdisk *d = hctx->queue->queuedata;
	struct request *rq = bd->rq;
	unsigned long flags;

	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
		blk_mq_start_request(rq);
		blk_mq_end_request(rq, BLK_STS_OK);
		return BLK_STS_OK;
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		break;
	default:
		return BLK_STS_NOTSUPP;
	}

	if (memory_backed && rotdisk_copy(d, rq))
		return BLK_STS_IOERR;

	blk_mq_start_request(rq);

	spin_lock_irqsave(&d->lock, flags);
	list_add_tail(&rq->queuelist, &d->fifo);
	d->queued++;
	d->st.max_queued = max(d->st.max_queued, d->queued);
	if (!d->busy) {
		d->busy = true;
		rotdisk_model(d, rq, ktime_get());
		hrtimer_start(&d->timer, d->deadline, HRTIMER_MODE_ABS);
	}
	spin_unlock_irqrestore(&d->lock, flags);
	return BLK_STS_OK;
}

static const struct blk_mq_ops rotdisk_mq_ops = {
	.queue_rq	= rotdisk_queue_rq,
};

static const struct block_device_operations rotdisk_fops = {
	.owner		= THIS_MODULE,
};

static int rotdisk_stats_show(struct seq_file *m, void *unused)
{
	struct rotdisk *d = m->private;
	struct rotdisk_stats st;
	unsigned int queued;
	u64 clock, head;

	spin_lock_irq(&d->lock);
	st = d->st;
	queued = d->queued;
	clock = d->clock_ns;
	head = d->head;
	spin_unlock_irq(&d->lock);

	seq_printf(m, "requests %llu\nreads %llu\nwrites %llu\nsectors %llu\n"
		   "seq_hits %llu\ncache_hits %llu\nseeks %llu\n",
		   st.reads + st.writes, st.reads, st.writes, st.sectors,
		   st.seq_hits, st.cache_hits, st.seeks);
	/* model time, not wall time: wall = model * time_scale_pct / 100 */
	seq_printf(m, "seek_us %llu\nrot_us %llu\nxfer_us %llu\nbusy_us %llu\n"
		   "queued %u\nmax_queued %u\nhead %llu\npages %ld\n"
		   "time_scale_pct %u\n",
		   div_u64(st.seek_ns, NSEC_PER_USEC),
		   div_u64(st.rot_ns, NSEC_PER_USEC),
		   div_u64(st.xfer_ns, NSEC_PER_USEC),
		   div_u64(clock, NSEC_PER_USEC), queued, st.max_queued, head,
		   atomic_long_read(&d->nr_pages), time_scale_pct);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rotdisk_stats);

static struct rotdisk *rotdisk_add(int index)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 11, 0)
	struct request_queue *q;
#endif
	struct rotdisk *d;
	int err;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&d->lock);
	INIT_LIST_HEAD(&d->fifo);
	hrtimer_init(&d->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	d->timer.function = rotdisk_timer_fn;
	xa_init(&d->pages);

	d->tag_set.ops = &rotdisk_mq_ops;
	d->tag_set.nr_hw_queues = 1;
	d->tag_set.queue_depth = queue_depth;
	d->tag_set.numa_node = NUMA_NO_NODE;
	d->tag_set.flags = BLK_MQ_F_SHOULD_MERGE;
	if (memory_backed)
		d->tag_set.flags |= BLK_MQ_F_BLOCKING;
	err = blk_mq_alloc_tag_set(&d->tag_set);
	if (err)
		goto out_free;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	{
		/* 6.11+: limits and features are set at allocation */
		struct queue_limits lim = {
			.logical_block_size	= SECTOR_SIZE,
			.physical_block_size	= 4096,
			.max_hw_sectors		= 256 * 1024 / SECTOR_SIZE,
			.max_segments		= 128,
			.features		= BLK_FEAT_ROTATIONAL,
		};

		d->disk = blk_mq_alloc_disk(&d->tag_set, &lim, d);
	}
	if (IS_ERR(d->disk)) {
		err = PTR_ERR(d->disk);
		goto out_tags;
	}
#else
	d->disk = blk_mq_alloc_disk(&d->tag_set, d);
	if (IS_ERR(d->disk)) {
		err = PTR_ERR(d->disk);
		goto out_tags;
	}
	q = d->disk->queue;
	blk_queue_flag_clear(QUEUE_FLAG_NONROT, q);
	blk_queue_flag_clear(QUEUE_FLAG_ADD_RANDOM, q);
	blk_queue_logical_block_size(q, SECTOR_SIZE);
	blk_queue_physical_block_size(q, 4096);
	blk_queue_max_hw_sectors(q, 256 * 1024 / SECTOR_SIZE);
	blk_queue_max_segments(q, 128);
#endif

	d->disk->major = rotdisk_major;
	d->disk->first_minor = index;
	d->disk->minors = 1;
	d->disk->fops = &rotdisk_fops;
	d->disk->private_data = d;
	snprintf(d->disk->disk_name, DISK_NAME_LEN, "rotdisk%d", index);
	set_capacity(d->disk, geom.cap);
	err = add_disk(d->disk);
	if (err)
		goto out_disk;

	d->dbg = debugfs_create_dir(d->disk->disk_name, NULL);
	debugfs_create_file("stats", 0444, d->dbg, d, &rotdisk_stats_fops);
	return d;

out_disk:
	put_disk(d->disk);
out_tags:
	blk_mq_free_tag_set(&d->tag_set);
out_free:
	kfree(d);
	return ERR_PTR(err);
}

static void rotdisk_del(struct rotdisk *d)
{
	struct page *page;
	unsigned long idx;

	debugfs_remove_recursive(d->dbg);
	/*
	 * del_gendisk() freezes the queue, i.e. waits until every request has
	 * ended: the timer drains the fifo on its own.  Then wait for the last
	 * callback to return; nothing can arm the timer again.
	 */
	del_gendisk(d->disk);
	hrtimer_cancel(&d->timer);
	WARN_ON_ONCE(!list_empty(&d->fifo) || d->busy);

	put_disk(d->disk);
	blk_mq_free_tag_set(&d->tag_set);
	xa_for_each(&d->pages, idx, page) {
		__free_page(page);
		cond_resched();
	}
	xa_destroy(&d->pages);
	kfree(d);
}

static int __init rotdisk_init(void)
{
	unsigned int i;
	int err;

	if (!nr_devices || nr_devices > ROTDISK_MAX_DEVICES || !queue_depth ||
	    !capacity_mb || capacity_mb > (1UL << 30) || !rpm || !transfer_kbps ||
	    seek_full_us < seek_settle_us || !time_scale_pct ||
	    time_scale_pct > 100000) {
		pr_err("rotdisk: invalid module parameters\n");
		return -EINVAL;
	}
	geom.cap = (u64)capacity_mb << (20 - SECTOR_SHIFT);
	geom.rev_ns = div_u64(60 * NSEC_PER_SEC, rpm);
	geom.bytes_per_s = (u64)transfer_kbps * 1024;
	geom.spt = clamp_t(u64, div64_u64(geom.bytes_per_s * 60,
					  (u64)rpm * SECTOR_SIZE), 1, U32_MAX);
	geom.settle_ns = (u64)seek_settle_us * NSEC_PER_USEC;
	geom.full_ns = (u64)seek_full_us * NSEC_PER_USEC;
	geom.cache_sectors = (u64)track_cache_kb * 1024 / SECTOR_SIZE;
	geom.scale_pct = time_scale_pct;

	rotdisk_major = register_blkdev(0, "rotdisk");
	if (rotdisk_major < 0)
		return rotdisk_major;

	for (i = 0; i < nr_devices; i++) {
		struct rotdisk *d = rotdisk_add(i);

		if (IS_ERR(d)) {
			err = PTR_ERR(d);
			goto out_del;
		}
		rotdisks[i] = d;
	}
	pr_info("rotdisk: %u x %lu MiB, %u rpm, %u KiB/s, seek %u..%u us, %u sectors/track, scale %u%%%s\n",
		nr_devices, capacity_mb, rpm, transfer_kbps, seek_settle_us,
		seek_full_us, geom.spt, time_scale_pct,
		memory_backed ? ", memory backed" : "");
	return 0;

out_del:
	while (i--)
		rotdisk_del(rotdisks[i]);
	unregister_blkdev(rotdisk_major, "rotdisk");
	return err;
}

static void __exit rotdisk_exit(void)
{
	unsigned int i;

	for (i = 0; i < nr_devices; i++)
		rotdisk_del(rotdisks[i]);
	unregister_blkdev(rotdisk_major, "rotdisk");
}

module_init(rotdisk_init);
module_exit(rotdisk_exit);
MODULE_DESCRIPTION("Model-timed rotating disk for I/O scheduler tests");
MODULE_LICENSE("GPL");
