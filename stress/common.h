/* Shared code of the stressors: options, PRNG, stats, data pattern, sysfs. */
#ifndef STRESS_COMMON_H
#define STRESS_COMMON_H

#include <getopt.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* ---- options ---------------------------------------------------------- */

struct common_opts {
	double duration;	/* seconds */
	uint64_t seed;
	int clients;
	const char *dev;
	uint64_t size;		/* 0 = whole device/file */
	uint64_t offset;	/* start of the region, bytes */
	uint32_t bs;
	int qd;
	int verbose;
	int allow_errors;
	int print_plan;		/* >0: print this many choices and exit */
	int dry_run;
	const char *sysfs_root;
	int stall_s;		/* progress watchdog, 0 = off */
};

extern struct common_opts opt;
extern const char *stressor_name;

/* Stressor-specific options: ids must be >= 100. Handler returns 0, or -1
 * after printing a message (exit 2 follows). */
typedef int (*extra_handler)(int id, const char *arg);

void parse_options(int argc, char **argv, const char *name,
		   const struct option *extra, extra_handler handler,
		   const char *extra_help);
void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
int parse_u64(const char *s, uint64_t *out);	/* accepts K/M/G/T suffixes */
int parse_int_arg(const char *name, const char *s, long lo, long hi, long *out);
/* "--opt a|b": 0 for a, 1 for b; anything else is a usage error (exit 2) */
int parse_choice(const char *name, const char *arg, const char *a, const char *b);

/* ---- time / stop ------------------------------------------------------ */

extern volatile sig_atomic_t stop_requested;
uint64_t now_us(void);
void set_deadline(void);
int time_up(void);
void sleep_us(uint64_t us);

/* ---- PRNG (xoshiro256**, seeded with splitmix64) ---------------------- */

struct rng {
	uint64_t s[4];
};

uint64_t splitmix64(uint64_t *state);
void rng_init(struct rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *r);
uint64_t rng_below(struct rng *r, uint64_t n);	/* 0..n-1, n > 0 */

/* ---- per-client stats in shared memory -------------------------------- */

#define HIST_BUCKETS 512

struct stats {
	uint64_t ops, bytes, errors, verify_fail, lat_max_us;
	uint64_t done;		/* the client has ended: no progress expected */
	uint64_t hist[HIST_BUCKETS];
};

/* MAP_SHARED, survives fork. Also starts the progress watchdog: a process
 * that prints "stall: NAME client I made no progress for S s" on stderr when
 * a client's counters stay still for --stall-s seconds before the deadline. */
struct stats *stats_alloc(int n);
void stats_op(struct stats *st, uint64_t bytes, uint64_t lat_us);	/* ops++ and io */
void stats_io(struct stats *st, uint64_t bytes, uint64_t lat_us);	/* bytes, latency */
void stats_error(struct stats *st);
void stats_verify_fail(struct stats *st);
/* Print result lines and summary. errors_fatal: errors fail the run even
 * with --allow-errors (privileged stressors: errors are failed checks).
 * Returns the exit status (0 ok, 1 fail). */
int report_results(struct stats *st, int n, int errors_fatal);

/* Fork n clients running fn(idx, arg); wait for them (killing them after
 * the deadline plus a grace period); a client that crashes or exits
 * non-zero counts as an error of that client. */
typedef void (*client_fn)(int idx, void *arg);
void run_clients(int n, client_fn fn, void *arg, struct stats *st);

/* ---- device / buffers ------------------------------------------------- */

int open_dev(const char *path, int flags);	/* exits 2 with message on failure */
uint64_t dev_size(int fd);
void *alloc_aligned(size_t len);		/* 4096-aligned, zeroed, exits on ENOMEM */
/* Work out region geometry: total blocks of opt.bs in opt.size. */
uint64_t total_blocks(int fd);

/* ---- data pattern ----------------------------------------------------- */

#define PAT_MAGIC 0x3142535345525453ULL	/* "STRESSB1" little-endian */

struct pat_hdr {
	uint64_t magic;
	uint64_t offset;
	uint64_t gen;
	uint64_t seed;
	uint64_t csum;		/* FNV-1a 64 over the block with csum = 0 */
	uint32_t writer;
	uint32_t bs;
};

void pattern_fill(void *buf, uint32_t bs, uint64_t off, uint32_t writer,
		  uint64_t gen, uint64_t seed);
/* Check a block. want_writer < 0 / want_gen == 0: accept any. Returns 0 when
 * OK, 1 on mismatch with a one-line reason in why. */
int pattern_check(const void *buf, uint32_t bs, uint64_t off, long want_writer,
		  uint64_t want_gen, char *why, size_t whylen);
int block_is_zero(const void *buf, uint32_t bs);
/* prints the MISMATCH line; at most 20 per process */
void report_mismatch(const char *dev, uint64_t off, const char *why);

/* ---- sysfs / commands ------------------------------------------------- */

/* Write str (O_WRONLY|O_TRUNC, one write). Returns 0 or an errno value. */
int sysfs_write(const char *path, const char *str);
/* Read up to len-1 bytes, NUL-terminated. Returns length or -errno. */
int sysfs_read(const char *path, char *buf, size_t len);
void trim(char *s);
/* "[cur] a b" -> "cur" into out; returns 0, -1 if no brackets. */
int bracketed(const char *s, char *out, size_t len);
/* Queue directory (".../block/<disk>/queue") of opt.dev under opt.sysfs_root. */
int queue_dir_for_dev(const char *dev, char *out, size_t len);
/* fork/exec argv, wait; returns exit status, 128+sig, or 127 on exec failure */
int run_cmd(char *const argv[]);

#endif
