/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rotdisk: what its two files share (rotdisk-main.c: the module, its
 * parameters, blk-mq and debugfs; rotdisk-media.c: the timing model and the
 * memory_backed page store). The model and the lock rules are described at
 * the top of rotdisk-main.c.
 */
#ifndef ROTDISK_H
#define ROTDISK_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/hrtimer.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <linux/version.h>

#define ROTDISK_MAX_LAG_NS	NSEC_PER_MSEC
#define ROTDISK_MAX_DEVICES	64

/* Derived from the parameters at load time, read-only afterwards. */
struct rotdisk_geom {
	u64 cap, cache_sectors;		/* capacity, track cache, in sectors */
	u64 rev_ns, settle_ns, full_ns;	/* one revolution, seek times */
	u64 bytes_per_s;		/* media rate */
	u32 spt;			/* sectors per track */
	unsigned int scale_pct;		/* wall time per model time, % */
};

extern struct rotdisk_geom geom;

struct rotdisk_stats {
	u64 reads, writes, sectors;
	u64 seq_hits;			/* started exactly at head */
	u64 cache_hits;			/* read inside the track cache window */
	u64 seeks;			/* paid seek + rotation */
	u64 seek_ns, rot_ns, xfer_ns;	/* model time */
	unsigned int max_queued;	/* longest fifo seen */
};

struct rotdisk {
	struct gendisk *disk;
	struct blk_mq_tag_set tag_set;
	struct dentry *dbg;
	struct hrtimer timer;		/* expires when the fifo head is done */

	spinlock_t lock;		/* see "Lock rules" above */
	struct list_head fifo;		/* started, not ended, arrival order */
	unsigned int queued;		/* length of fifo */
	bool busy;			/* fifo non-empty, timer armed */
	ktime_t deadline;		/* wall-clock expiry of the head */
	sector_t head;			/* sector after the last one served */
	bool last_read;			/* last request served was a read */
	u64 clock_ns;			/* model time: sum of service times */
	struct rotdisk_stats st;

	struct xarray pages;		/* memory_backed: page index -> page */
	atomic_long_t nr_pages;
};

/* rotdisk-media.c */
void rotdisk_model(struct rotdisk *d, struct request *rq, ktime_t start);
int rotdisk_copy(struct rotdisk *d, struct request *rq);

#endif
