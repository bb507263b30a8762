/*
 * remnants_proc.cuh - the remnants family's second process: gpumem run as
 * RM_CHILD_COMMAND over a socket pair (spawn, one line a request, reap), and
 * the child's side (gm_remnants_child_main). Included once by remnants.cu,
 * after the marker helpers it uses (rm_dev, rm_write, rm_count, rm_free...).
 */

struct rm_child {
	pid_t pid;
	int fd;
	double start_ms;   /* spawn to its first line: process start and CUDA context */
};

static double rm_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* One line from fd (without its newline), waiting at most timeout_ms (< 0: forever). */
static gm_status rm_line(int fd, char *buf, size_t n, int timeout_ms)
{
	size_t k = 0;

	buf[0] = 0;
	while (k + 1 < n) {
		struct pollfd pf = { fd, POLLIN, 0 };
		int r = poll(&pf, 1, timeout_ms);
		if (r == 0)
			return gm_fail(GM_ERR_CUDA, "the second process did not answer in %d ms", timeout_ms);
		if (r < 0 && errno == EINTR)
			continue;
		ssize_t got = r < 0 ? -1 : read(fd, buf + k, 1);
		if (got <= 0)
			return gm_fail(GM_ERR_CUDA, "the second process ended without an answer");
		if (buf[k] == '\n')
			break;
		buf[++k] = 0;
	}
	buf[k] = 0;
	return GM_OK;
}

static gm_status rm_send(int fd, const char *line)
{
	size_t len = strlen(line);

	if (send(fd, line, len, MSG_NOSIGNAL) != (ssize_t)len)
		return gm_fail(GM_ERR_CUDA, "cannot talk to the second process: %s", strerror(errno));
	return GM_OK;
}

/* Wait for the child to end (timeout_ms), else kill it; 0 when it ended by itself. */
static int rm_reap(struct rm_child *ch, int timeout_ms)
{
	double t0 = rm_now_ms();
	int status = 0;

	if (ch->pid <= 0)
		return 0;
	while (waitpid(ch->pid, &status, WNOHANG) == 0) {
		if (rm_now_ms() - t0 > timeout_ms) {
			kill(ch->pid, SIGKILL);
			waitpid(ch->pid, &status, 0);
			ch->pid = 0;
			return -1;
		}
		usleep(1000);
	}
	ch->pid = 0;
	return 0;
}

static void rm_child_stop(struct rm_child *ch)
{
	if (ch->fd > 0) {
		(void)rm_send(ch->fd, "quit\n");
		close(ch->fd);
		ch->fd = -1;
	}
	rm_reap(ch, 10000);
}

/* Whether environment entry e sets variable name. */
static int rm_env_is(const char *e, const char *name)
{
	size_t len = strlen(name);

	return !strncmp(e, name, len) && e[len] == '=';
}

/*
 * environ for the second process: without RM_ENV_REUSE (RM_ENV_REUSE=1 when
 * set_reuse) and without GPUMEM_FAULT (a fault-injection build's failures are
 * this process's: a child counting and failing its own calls would blur the
 * walk). NULL when out of memory.
 */
static char **rm_child_env(int set_reuse)
{
	static char reuse[] = RM_ENV_REUSE "=1";
	size_t n = 0, k = 0;
	char **e;

	while (environ[n])
		n++;
	e = (char **)calloc(n + 2, sizeof(*e));
	if (!e)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!rm_env_is(environ[i], RM_ENV_REUSE) && !rm_env_is(environ[i], "GPUMEM_FAULT"))
			e[k++] = environ[i];
	if (set_reuse)
		e[k++] = reuse;
	return e;
}

/*
 * Start gpumem as the second process on device dev, a socket as its fd 3 (4
 * when the socket already is 3). GM_ERR_UNSUPPORTED (the case is skipped)
 * when it cannot start or does not answer as the child should: a binary
 * other than gpumem, no context for a second process (exclusive compute mode).
 */
static gm_status rm_child_start(struct rm_child *ch, int dev, int set_reuse)
{
	posix_spawn_file_actions_t fa;
	char fdarg[16], devarg[16], line[256];
	char *argv[] = { (char *)"gpumem", (char *)RM_CHILD_COMMAND, fdarg, devarg, NULL };
	char **env = rm_child_env(set_reuse);
	int sv[2], target, r;
	double t0 = rm_now_ms();

	ch->pid = 0;
	ch->fd = -1;
	if (!env)
		return GM_ERR_NOMEM;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		free(env);
		return gm_fail(GM_ERR_UNSUPPORTED, "socketpair: %s", strerror(errno));
	}
	target = sv[1] == 3 ? 4 : 3;
	snprintf(fdarg, sizeof(fdarg), "%d", target);
	snprintf(devarg, sizeof(devarg), "%d", dev);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, sv[1], target);
	r = posix_spawn(&ch->pid, "/proc/self/exe", &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	close(sv[1]);
	ch->fd = sv[0];
	if (r) {
		ch->pid = 0;
		rm_child_stop(ch);
		return gm_fail(GM_ERR_UNSUPPORTED, "cannot start a second process: %s", strerror(r));
	}
	if (rm_line(ch->fd, line, sizeof(line), RM_CHILD_TIMEOUT_MS) || strcmp(line, "ready")) {
		char why[300];
		const char *said = !strncmp(line, "error ", 6) ? line + 6 : *line ? line : gm_last_error();
		snprintf(why, sizeof(why), "%s", said);
		rm_child_stop(ch);
		return gm_fail(GM_ERR_UNSUPPORTED, "no second gpumem process: %s", why);
	}
	ch->start_ms = rm_now_ms() - t0;
	return GM_OK;
}

/* Send "op tag bytes flag", read "ok seen in_place zero". */
static gm_status rm_child_ask(struct rm_child *ch, const char *op, uint32_t tag, size_t bytes, int flag,
			      struct rm_obs *o)
{
	char line[256];
	unsigned long long seen = 0, in = 0, zero = 0;
	gm_status s;

	snprintf(line, sizeof(line), "%s %u %zu %d\n", op, tag, bytes, flag);
	s = rm_send(ch->fd, line);
	if (!s)
		s = rm_line(ch->fd, line, sizeof(line), RM_CHILD_TIMEOUT_MS);
	if (s)
		return s;
	if (sscanf(line, "ok %llu %llu %llu", &seen, &in, &zero) != 3)
		return gm_fail(GM_ERR_CUDA, "second process: %s", strncmp(line, "error ", 6) ? line : line + 6);
	o->seen = (double)seen;
	o->in_place = (double)in;
	o->zero = (double)zero;
	return GM_OK;
}

/* One request in the second process; *done when it should end (quit, write). */
static gm_status rm_child_op(const struct rm_dev *k, const char *line, struct rm_obs *o, int *done)
{
	char op[16];
	unsigned tag = 0;
	size_t bytes = 0;
	int flag = 0;
	void *p = NULL;
	gm_status s = GM_OK;

	memset(o, 0, sizeof(*o));
	if (sscanf(line, "%15s %u %zu %d", op, &tag, &bytes, &flag) != 4 || !strcmp(op, "quit")) {
		*done = 1;
		return GM_OK;
	}
	if (!strcmp(op, "read"))
		return rm_dev_read(k, bytes, tag, o);
	s = rm_dev_write(k, bytes, tag, &p);
	if (s)
		return s;
	if (!strcmp(op, "check")) {
		s = rm_count(k, p, bytes, tag, gm_stream(), o);
		rm_free(p, 0);
	} else if (!strcmp(op, "self")) {
		rm_free(p, flag);
		s = rm_dev_read(k, bytes, tag, o);
	} else if (!strcmp(op, "write")) {
		/* exit with the buffer allocated: the driver's teardown frees it (scrubbing: gpumem frees it first) */
		if (flag)
			rm_free(p, 1);
		*done = 1;
	} else {
		rm_free(p, 0);
		s = gm_fail(GM_ERR_INVALID_ARG, "unknown request '%s'", op);
	}
	return s;
}

extern "C" int gm_remnants_child_main(int argc, char **argv)
{
	struct rm_dev k = { 0, NULL };
	char line[256], reply[320];
	int fd, dev, done = 0;
	cudaError_t e;

	if (argc != 3)
		return 2;
	fd = atoi(argv[1]);
	dev = atoi(argv[2]);
	e = cudaSetDevice(dev);
	if (e == cudaSuccess)
		e = cudaFree(0);
	if (e != cudaSuccess) {
		snprintf(reply, sizeof(reply), "error %s\n", cudaGetErrorString(e));
		(void)rm_send(fd, reply);
		return 1;
	}
	if (rm_dev_init(&k)) {
		snprintf(reply, sizeof(reply), "error %s\n", gm_last_error());
		(void)rm_send(fd, reply);
		return 1;
	}
	if (rm_send(fd, "ready\n"))
		return 1;
	while (!done && !rm_line(fd, line, sizeof(line), -1)) {
		struct rm_obs o;
		gm_clear_error();
		if (rm_child_op(&k, line, &o, &done))
			snprintf(reply, sizeof(reply), "error %s\n", gm_last_error());
		else
			snprintf(reply, sizeof(reply), "ok %.0f %.0f %.0f\n", o.seen, o.in_place, o.zero);
		if (strcmp(line, "quit") && rm_send(fd, reply))
			break;
	}
	/* after "write" the marked buffer stays allocated on purpose: the exit frees it, not gpumem */
	gm_gpu_free(k.cnt);
	return 0;
}
