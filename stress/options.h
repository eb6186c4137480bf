/* Command-line options of every stressor, the run's deadline and stop signal (options.c). */
#ifndef STRESS_OPTIONS_H
#define STRESS_OPTIONS_H

#include <getopt.h>
#include <signal.h>
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
	int ioprio_mix;		/* --ioprio mix: clients' I/O priorities reshuffled */
	int cpu;		/* --cpu N: the stressor and its clients run on CPU N only; -1 any */
	long migrate_us;	/* --migrate-us N: a mover moves a client to another CPU every N us; 0 off */
};

extern struct common_opts opt;
extern const char *stressor_name;

/* One option: its name, how its argument is read, where the value goes
 * and its --help text. The parser, --help and --check all read these
 * tables (options.c has the common one; each stressor has its own). */
enum opt_kind {
	OPT_FLAG,	/* no argument: *(int *)val = 1 */
	OPT_COUNT,	/* no argument: ++*(int *)val */
	OPT_INT,	/* an integer in lo..hi: *(int *)val */
	OPT_LONG,	/* an integer in lo..hi: *(long *)val */
	OPT_STR,	/* *(const char **)val = the argument */
	OPT_FN,		/* fn(argument), which calls usage_error() (exit 2) on a bad one */
	OPT_HELP,	/* print --help and exit 0 */
};

struct opt_spec {
	const char *name;	/* --name */
	enum opt_kind kind;
	void *val;
	long lo, hi;		/* OPT_INT, OPT_LONG: the accepted range */
	void (*fn)(const char *arg);	/* OPT_FN */
	const char *arg;	/* the argument's name in --help; NULL: none */
	const char *help;	/* --help text; each \n starts an aligned line */
};

/* INTRO is printed before the stressor's options, OUTRO after them (NULL:
 * none); EXTRA ends with an entry whose name is NULL. */
void parse_options(int argc, char **argv, const char *name,
		   const struct opt_spec *extra, const char *intro,
		   const char *outro);
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

#endif
