/* Clients and their stats: the client runner, the progress watchdog, result lines (clients.c). */
#ifndef STRESS_CLIENTS_H
#define STRESS_CLIENTS_H

#include <stdint.h>

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
 * non-zero counts as an error of that client. With --ioprio mix, a
 * shuffler process moves the clients between I/O priority classes while
 * they run, and prints "ioprio stressor=NAME changes=N rt=N be=N". */
typedef void (*client_fn)(int idx, void *arg);
void run_clients(int n, client_fn fn, void *arg, struct stats *st);

#endif
