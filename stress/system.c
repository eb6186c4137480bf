/* Block devices, aligned buffers, sysfs files and commands; see system.h. */
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <linux/fs.h>

int open_dev(const char *path, int flags)
{
	int fd;

	if (!path)
		usage_error("--dev is required");
	fd = open(path, flags, 0644);
	if (fd < 0) {
		fprintf(stderr, "%s: cannot open %s: %s\n", stressor_name, path,
			strerror(errno));
		exit(2);
	}
	return fd;
}

uint64_t dev_size(int fd)
{
	struct stat st;
	uint64_t sz = 0;

	if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &sz))
			sz = 0;
		return sz;
	}
	return fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
}

uint64_t total_blocks(int fd)
{
	uint64_t dev = dev_size(fd);
	uint64_t sz = opt.size ? opt.size : (dev > opt.offset ? dev - opt.offset : 0);

	return sz / opt.bs;
}

void *alloc_aligned(size_t len)
{
	void *p;

	if (posix_memalign(&p, 4096, len)) {
		fprintf(stderr, "%s: out of memory\n", stressor_name);
		exit(2);
	}
	memset(p, 0, len);
	return p;
}

int sysfs_write(const char *path, const char *str)
{
	size_t len = strlen(str);
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd < 0)
		return errno;
	ssize_t n = write(fd, str, len);
	int err = n < 0 ? errno : 0;
	if (close(fd) && !err)
		err = errno;
	return err;
}

int sysfs_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	size_t got = 0;

	if (fd < 0)
		return -errno;
	while (got < len - 1) {
		ssize_t n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			int e = errno;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = 0;
	close(fd);
	return (int)got;
}

void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	memmove(s, s + i, n - i + 1);
}

int bracketed(const char *s, char *out, size_t len)
{
	const char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;

	if (!a || !b || (size_t)(b - a - 1) >= len)
		return -1;
	memcpy(out, a + 1, (size_t)(b - a - 1));
	out[b - a - 1] = 0;
	return 0;
}

int queue_dir_for_dev(const char *dev, char *out, size_t len)
{
	struct stat st;
	char tmp[PATH_MAX + 64], real[PATH_MAX];

	if (!dev)
		return -1;
	if (stat(dev, &st) == 0 && S_ISBLK(st.st_mode)) {
		/* /sys/dev/block/M:m is the disk or a partition of it */
		snprintf(tmp, sizeof(tmp), "%s/dev/block/%u:%u", opt.sysfs_root,
			 major(st.st_rdev), minor(st.st_rdev));
		if (realpath(tmp, real)) {
			snprintf(tmp, sizeof(tmp), "%s/partition", real);
			if (access(tmp, F_OK) == 0)
				snprintf(out, len, "%s/../queue", real);
			else
				snprintf(out, len, "%s/queue", real);
			return 0;
		}
	}
	/* fall back to the basename (fake trees, or names like sda) */
	snprintf(tmp, sizeof(tmp), "%s", dev);
	snprintf(out, len, "%s/block/%s/queue", opt.sysfs_root, basename(tmp));
	return 0;
}

int run_cmd(char *const argv[])
{
	int status;
	pid_t p;

	fflush(NULL);
	p = fork();
	if (p < 0)
		return 127;
	if (p == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	while (waitpid(p, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
