/* The system under test: block devices, aligned buffers, sysfs files, commands (system.c). */
#ifndef STRESS_SYSTEM_H
#define STRESS_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

/* ---- device / buffers ------------------------------------------------- */

int open_dev(const char *path, int flags);	/* exits 2 with message on failure */
uint64_t dev_size(int fd);
void *alloc_aligned(size_t len);		/* 4096-aligned, zeroed, exits on ENOMEM */
/* Work out region geometry: total blocks of opt.bs in opt.size. */
uint64_t total_blocks(int fd);

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
