/* Everything the stressors share, one header per room:
 *   options.h  command-line options, the deadline and stop signal  (options.c)
 *   rng.h      the seeded PRNG                                      (rng.c)
 *   clients.h  the client runner, stats, progress watchdog, results (clients.c)
 *   pattern.h  the verifiable data pattern                          (pattern.c)
 *   system.h   block devices, buffers, sysfs files, commands        (system.c) */
#ifndef STRESS_COMMON_H
#define STRESS_COMMON_H

#include "options.h"
#include "rng.h"
#include "clients.h"
#include "pattern.h"
#include "system.h"

#endif
