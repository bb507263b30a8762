/* outfile.c - output files that appear whole or not at all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gpumem/io.h"

gm_status gm_outfile_open(struct gm_outfile *o, const char *path)
{
	struct stat st;
	int fd;

	memset(o, 0, sizeof(*o));
	if (strlen(path) >= sizeof(o->path))
		return gm_fail(GM_ERR_IO, "path too long: '%s'", path);
	snprintf(o->path, sizeof(o->path), "%s", path);
	/* a directory would only be refused by the rename at the end, after the whole run */
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return gm_fail(GM_ERR_IO, "cannot write '%s': %s", path, strerror(EISDIR));
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		o->direct = 1;
		o->f = fopen(path, "w");
		return o->f ? GM_OK : gm_fail(GM_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
	}
	snprintf(o->tmp, sizeof(o->tmp), "%s.XXXXXX", path);
	fd = mkstemp(o->tmp);
	if (fd < 0)
		return gm_fail(GM_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
	/* mkstemp makes 0600; give the file the mode a plain fopen would */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		unlink(o->tmp);
		return gm_fail(GM_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
	}
	return GM_OK;
}

gm_status gm_outfile_commit(struct gm_outfile *o)
{
	int bad = ferror(o->f);

	if (o->direct) {   /* a device or FIFO: no fsync (not every node has one), no rename */
		bad |= fflush(o->f) != 0;
		int e = errno;
		bad |= fclose(o->f) != 0;
		o->f = NULL;
		return bad ? gm_fail(GM_ERR_IO, "cannot write '%s': %s", o->path, strerror(e ? e : errno)) : GM_OK;
	}

	bad |= fflush(o->f) != 0;
	bad |= fsync(fileno(o->f)) != 0;
	bad |= fclose(o->f) != 0;
	o->f = NULL;
	if (bad || rename(o->tmp, o->path) != 0) {
		int e = errno;
		unlink(o->tmp);
		return gm_fail(GM_ERR_IO, "cannot write '%s': %s", o->path, strerror(e));
	}
	return GM_OK;
}

void gm_outfile_abort(struct gm_outfile *o)
{
	if (o->f) {
		fclose(o->f);
		o->f = NULL;
		if (!o->direct)
			unlink(o->tmp);
	}
}
