// SPDX-License-Identifier: GPL-2.0
/*
 * rig_splat: positive controls for the stress rig. Test-only, never part of
 * the scheduler series. Writing a word to /sys/kernel/debug/rig_splat makes
 * the kernel print one real report of the kind the rig hunts, so the rig can
 * prove end to end that its console capture and classifier see it:
 *
 *   kasan         use-after-free read          (KASAN)
 *   odebug        free of an active hrtimer    (DEBUG_OBJECTS_TIMERS)
 *   atomic_sleep  GFP_KERNEL under a spinlock  (DEBUG_ATOMIC_SLEEP)
 *   hung          a kthread in D state         (hung task detector)
 *   race          two kthreads, one per CPU, increment one counter without
 *                 a lock for two seconds (KCSAN, the race flavor)
 *   lockdep       AB-BA lock order inversion   (PROVE_LOCKING; run it last,
 *                 lockdep turns itself off after its first report)
 *   leak          eight kzalloc()s whose only pointers are dropped
 *                 (kmemleak, at the round's end scans: guest/lib.sh
 *                 rig_leaks)
 *   wedge         every CPU spins with IRQs off, for good: a guest that
 *                 prints nothing more (the host's console watchdog)
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stop_machine.h>
#include <linux/string.h>
#include <linux/uaccess.h>

static DEFINE_SPINLOCK(rig_lock_a);
static DEFINE_SPINLOCK(rig_lock_b);
static struct dentry *rig_dentry;

static unsigned int hung_ms = 40000;
module_param(hung_ms, uint, 0644);
MODULE_PARM_DESC(hung_ms, "how long the hung kthread stays in D state (ms)");

static noinline void rig_splat_kasan_uaf(void)
{
	char *p = kmalloc(64, GFP_KERNEL);

	if (!p)
		return;
	kfree(p);
	pr_info("rig_splat: read after free: %d\n", READ_ONCE(p[8]));
}

struct rig_timer_box {
	struct hrtimer timer;
};

static enum hrtimer_restart rig_splat_timer_fn(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}

static noinline void rig_splat_odebug_free_active(void)
{
	struct rig_timer_box *box = kzalloc(sizeof(*box), GFP_KERNEL);

	if (!box)
		return;
	hrtimer_init(&box->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	box->timer.function = rig_splat_timer_fn;
	hrtimer_start(&box->timer, ms_to_ktime(60000), HRTIMER_MODE_REL);
	/* debugobjects reports this and its fixup cancels the timer */
	kfree(box);
}

static noinline void rig_splat_atomic_sleep(void)
{
	void *p;

	spin_lock(&rig_lock_a);
	p = kmalloc(128, GFP_KERNEL);
	spin_unlock(&rig_lock_a);
	kfree(p);
}

static int rig_splat_hung_thread(void *unused)
{
	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_timeout(msecs_to_jiffies(hung_ms));
	return 0;
}

/* Plain, unlocked read-modify-write from two threads: a data race by design */
static unsigned long rig_racy_counter;

static int rig_splat_race_thread(void *unused)
{
	unsigned long end = jiffies + 2 * HZ;
	unsigned int i = 0;

	/* mostly the racy accesses, so KCSAN's sampled watchpoints land on them */
	while (time_before(jiffies, end)) {
		rig_racy_counter++;
		if (!(++i % 256))
			cond_resched();
	}
	return 0;
}

/* one racing thread per CPU (the first two), so they really overlap */
static void rig_splat_race(void)
{
	struct task_struct *t;
	int n = 0, cpu;

	for_each_online_cpu(cpu) {
		if (n++ == 2)
			break;
		t = kthread_create(rig_splat_race_thread, NULL, "rig_race/%d", cpu);
		if (IS_ERR(t))
			return;
		kthread_bind(t, cpu);
		wake_up_process(t);
	}
}

static noinline void rig_splat_lockdep_inversion(void)
{
	spin_lock(&rig_lock_a);
	spin_lock(&rig_lock_b);
	spin_unlock(&rig_lock_b);
	spin_unlock(&rig_lock_a);

	spin_lock(&rig_lock_b);
	spin_lock(&rig_lock_a);
	spin_unlock(&rig_lock_a);
	spin_unlock(&rig_lock_b);
}

/*
 * kmemleak: the only pointer to each object goes out of scope here.
 * kzalloc(), not kmalloc(): SLUB keeps a free object's free pointer in the
 * middle of the object (without KASAN, which moves it, or freelist
 * hardening, which scrambles it), and kmalloc() leaves it there, so each
 * object of a kmalloc() run points to the next one, and an object whose
 * free pointer another one still holds looks referenced. The race kernel
 * showed it: of eight kmalloc()s, kmemleak reported one, or none. Eight
 * objects, as a stale copy of the first one's address (in a stack or in
 * an object allocated before it) can still hide that one.
 */
static noinline void rig_splat_leak(void)
{
	int i;

	for (i = 0; i < 8; i++) {
		char *p = kzalloc(64, GFP_KERNEL);

		if (p)
			strscpy(p, "rig-leak", 64);
	}
}

/* stop_machine() runs it with IRQs off while every other CPU waits, IRQs
 * off too, for it to return: it never does */
static int rig_splat_wedge_fn(void *unused)
{
	for (;;)
		cpu_relax();
	return 0;
}

static ssize_t rig_splat_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[32];
	size_t n = min(count, sizeof(buf) - 1);

	if (copy_from_user(buf, ubuf, n))
		return -EFAULT;
	buf[n] = '\0';
	strim(buf);

	pr_info("rig_splat: trigger %s\n", buf);
	if (!strcmp(buf, "kasan"))
		rig_splat_kasan_uaf();
	else if (!strcmp(buf, "odebug"))
		rig_splat_odebug_free_active();
	else if (!strcmp(buf, "atomic_sleep"))
		rig_splat_atomic_sleep();
	else if (!strcmp(buf, "hung"))
		kthread_run(rig_splat_hung_thread, NULL, "rig_hung");
	else if (!strcmp(buf, "race"))
		rig_splat_race();
	else if (!strcmp(buf, "lockdep"))
		rig_splat_lockdep_inversion();
	else if (!strcmp(buf, "leak"))
		rig_splat_leak();
	else if (!strcmp(buf, "wedge"))
		stop_machine(rig_splat_wedge_fn, NULL, NULL);
	else
		return -EINVAL;
	return count;
}

static const struct file_operations rig_splat_fops = {
	.owner = THIS_MODULE,
	.write = rig_splat_write,
};

static int __init rig_splat_init(void)
{
	rig_dentry = debugfs_create_file("rig_splat", 0200, NULL, NULL,
					 &rig_splat_fops);
	return 0;
}

static void __exit rig_splat_exit(void)
{
	debugfs_remove(rig_dentry);
}

module_init(rig_splat_init);
module_exit(rig_splat_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Positive controls for the cfq stress rig");
