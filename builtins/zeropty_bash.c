/*
 * zeropty_bash.c: `zeropty` as a bash loadable builtin.
 *
 *     enable -f zeropty_bash.so zeropty
 *
 * After that, `zeropty ARGS` takes the program's arguments and prints what the program
 * prints, with its exit status, but runs inside bash: no process starts. It speaks the
 * server's socket protocol (see src/protocol.rs) over one connection that it keeps across
 * calls, asking for raw replies (output bytes exactly as they are, nothing to decode) and
 * sending the shell's exported environment only when it changed.
 *
 * Invariants:
 * - A connection belongs to the process that opened it: a forked subshell (a pipeline,
 *   `$(...)`, `( ... )`) opens its own and never reads its parent's replies.
 * - A connection is to one socket path: a changed -L, -S, ZEROPTY, ZEROPTY_TMPDIR or
 *   TMUX_TMPDIR opens a new one.
 * - A request is sent again, on a new connection, only when the server did not take it:
 *   the send failed because the server that connection went to is gone, or the
 *   connection closed without a byte of the reply (the server reads no request it will
 *   not answer: it was exiting). A reply cut short is reported as the program reports it
 *   (`server exited unexpectedly`).
 * - Whatever the program must do itself it still does: attach, serve, help, -h, -V, -c,
 *   unknown flags, and every command when no server answers (so new-session starts one);
 *   the builtin then runs the `zeropty` program found in PATH, under bash's job control.
 */

#include <config.h>

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "builtins.h"
#include "shell.h"
#include "common.h"
#include "jobs.h"

/* bash exports these but ships no header for them. */
extern char *find_user_command(const char *);
extern void restore_original_signals(void);

/* A growable byte string. */
struct buf {
	char *data;
	size_t len;
	size_t cap;
};

static void buf_reserve(struct buf *b, size_t more)
{
	if (b->len + more <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + more)
		cap *= 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

static void buf_add(struct buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void buf_str(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

static void buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

/* ---- the connection ---- */

static struct {
	int fd;
	pid_t pid;
	char *path;
	/* A hash of the environment last sent on this connection, to leave it out while it
	 * is unchanged: encoding ~40 variables was half of a call's time in the client. */
	unsigned long env_hash;
	int env_sent;
} conn = { -1, 0, NULL, 0, 0 };

/* The reply being read; kept between calls so large captures reuse one allocation. */
static struct buf reply;

static void disconnect(void)
{
	if (conn.fd >= 0)
		close(conn.fd);
	conn.fd = -1;
	free(conn.path);
	conn.path = NULL;
	conn.env_sent = 0;
}

/* Connects to `path`; -1 with errno set when nothing answers there. */
static int connect_to(const char *path)
{
	struct sockaddr_un sa;
	if (strlen(path) >= sizeof sa.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	strcpy(sa.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	while (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		if (errno != EINTR) {
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
	}
	return fd;
}

/* Whether the first `dir_len` bytes of `path` name a directory only this user can use, as
 * the program requires of the socket directory (0: no directory to check). */
static int private_dir(const char *path, size_t dir_len)
{
	if (dir_len == 0)
		return 1;
	char *dir = xmalloc(dir_len + 1);
	memcpy(dir, path, dir_len);
	dir[dir_len] = '\0';
	struct stat st;
	int ok = lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid() &&
		 (st.st_mode & 077) == 0;
	free(dir);
	return ok;
}

/* The open connection to `path`, opening one if this process has none there; -1 when no
 * server answers there or its directory is not private (the program then says why). */
static int connection(const char *path, size_t dir_len)
{
	if (conn.fd >= 0 && (conn.pid != getpid() || strcmp(conn.path, path) != 0))
		disconnect();
	if (conn.fd < 0) {
		if (!private_dir(path, dir_len))
			return -1;
		conn.fd = connect_to(path);
		if (conn.fd < 0)
			return -1;
		conn.pid = getpid();
		conn.path = savestring(path);
	}
	return conn.fd;
}

/* ---- the command line ---- */

/* What the global flags ask for, as the program reads them. */
struct global {
	const char *label;      /* -L */
	const char *path;       /* -S */
	int program_only;       /* -V, -h, -c, -C, an unknown flag, or a missing value */
	WORD_LIST *args;        /* the command and its arguments */
};

static struct global parse_global(WORD_LIST *list)
{
	struct global g = { NULL, NULL, 0, NULL };
	for (; list != NULL; list = list->next) {
		const char *a = list->word->word;
		if (strcmp(a, "--") == 0) {
			list = list->next;
			break;
		}
		if (a[0] != '-' || a[1] == '\0')
			break;
		for (const char *f = a + 1; *f != '\0'; f++) {
			if (strchr("2DlNuv", *f) != NULL)
				continue;
			if (strchr("fLST", *f) == NULL) {
				/* -V, -h, -c, -C and anything unknown: the program's business. */
				g.program_only = 1;
				continue;
			}
			const char *value = f + 1;
			if (*value == '\0') {
				if (list->next == NULL) {
					g.program_only = 1;
					return g;
				}
				list = list->next;
				value = list->word->word;
			}
			if (*f == 'L')
				g.label = value;
			else if (*f == 'S')
				g.path = value;
			break;
		}
	}
	g.args = list;
	return g;
}

/* An exported shell variable's value, or NULL: the program sees only exported ones. */
static const char *exported(const char *name)
{
	SHELL_VAR *v = find_variable(name);
	if (v == NULL || !exported_p(v) || invisible_p(v) || array_p(v) || assoc_p(v))
		return NULL;
	const char *s = value_cell(v);
	return s != NULL && *s != '\0' ? s : NULL;
}

/* The socket path in ZEROPTY=PATH,PID,SESSION (the path may itself hold commas). */
static char *path_of_session_variable(const char *inside)
{
	const char *cut = strrchr(inside, ',');
	if (cut != NULL) {
		const char *before = cut;
		while (before > inside && *--before != ',')
			;
		if (*before == ',')
			cut = before;
	}
	size_t n = cut != NULL ? (size_t)(cut - inside) : strlen(inside);
	char *path = xmalloc(n + 1);
	memcpy(path, inside, n);
	path[n] = '\0';
	return path;
}


/*
 * The server's socket, as the program finds it: -S, else -L in the socket directory, else
 * the server of the session this shell runs in (ZEROPTY=PATH,PID,SESSION), else `default`.
 * `dir_len` is the length of the socket directory's part of the path, which must be
 * private before anything connects there, or 0 when the path was given.
 */
static char *socket_path(const struct global *g, size_t *dir_len)
{
	*dir_len = 0;
	if (g->path != NULL)
		return savestring(g->path);
	const char *inside = exported("ZEROPTY");
	if (g->label == NULL && inside != NULL)
		return path_of_session_variable(inside);
	const char *base = exported("ZEROPTY_TMPDIR");
	if (base == NULL)
		base = exported("TMUX_TMPDIR");
	if (base == NULL)
		base = "/tmp";
	const char *name = g->label != NULL ? g->label : "default";
	size_t n = strlen(base) + strlen(name) + 32;
	char *path = xmalloc(n);
	int len = snprintf(path, n, "%s/zeropty-%u", base, (unsigned)getuid());
	snprintf(path + len, n - len, "/%s", name);
	*dir_len = (size_t)len;
	return path;
}

/* ---- the request ---- */

/* Length of the valid UTF-8 sequence at s (of at most n bytes), 0 if there is none. */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
	if (s[0] < 0x80)
		return 1;
	size_t len;
	unsigned min;
	unsigned cp;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2, min = 0x80, cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3, min = 0x800, cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4, min = 0x10000, cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static int valid_utf8(const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		size_t len = utf8_sequence((const unsigned char *)s + i, n - i);
		if (len == 0)
			return 0;
		i += len;
	}
	return 1;
}

static int plain_ascii(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/* A JSON string; bytes that are not UTF-8 become U+FFFD. */
static void json_string(struct buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = strlen(s);
	buf_reserve(b, n + 2);
	buf_add(b, "\"", 1);
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t len = utf8_sequence((const unsigned char *)s + i, n - i);
		if (len == 0) {
			buf_str(b, "\\ufffd");
			i++;
			continue;
		}
		if (c == '"' || c == '\\') {
			char esc[2] = { '\\', (char)c };
			buf_add(b, esc, 2);
		} else if (c < 0x20) {
			char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
			buf_add(b, esc, 6);
		} else {
			/* A run of characters that need no escape goes in one copy. */
			size_t run = len;
			while (i + run < n && plain_ascii((unsigned char)s[i + run]))
				run++;
			buf_add(b, s + i, run);
			len = run;
		}
		i += len;
	}
	buf_add(b, "\"", 1);
}

static void base64_string(struct buf *b, const char *s)
{
	static const char table[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	buf_add(b, "\"", 1);
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
		char out[4] = { table[v >> 18], table[(v >> 12) & 63],
				i + 1 < n ? table[(v >> 6) & 63] : '=', i + 2 < n ? table[v & 63] : '=' };
		buf_add(b, out, 4);
	}
	buf_add(b, "\"", 1);
}

/* `"argv":[...]`, or `"argv_b64":[...]` when an argument is not UTF-8. */
static void json_argv(struct buf *b, WORD_LIST *args)
{
	int utf8 = 1;
	for (WORD_LIST *w = args; w != NULL; w = w->next)
		utf8 = utf8 && valid_utf8(w->word->word);
	buf_str(b, utf8 ? "\"argv\":[" : "\"argv_b64\":[");
	if (args == NULL)
		buf_str(b, "\"new-session\"");
	for (WORD_LIST *w = args; w != NULL; w = w->next) {
		if (w != args)
			buf_add(b, ",", 1);
		if (utf8)
			json_string(b, w->word->word);
		else
			base64_string(b, w->word->word);
	}
	buf_add(b, "]", 1);
}

/* FNV-1a over the exported environment. */
static unsigned long env_hash(void)
{
	unsigned long h = 14695981039346656037UL;
	for (char **e = export_env; e != NULL && *e != NULL; e++) {
		for (const unsigned char *p = (const unsigned char *)*e; *p != '\0'; p++)
			h = (h ^ *p) * 1099511628211UL;
		h = (h ^ 0xff) * 1099511628211UL;
	}
	return h;
}

/* The shell's exported environment as a JSON object. */
static void json_env(struct buf *b)
{
	buf_add(b, "{", 1);
	for (char **e = export_env; e != NULL && *e != NULL; e++) {
		char *eq = strchr(*e, '=');
		if (eq == NULL)
			continue;
		if (b->data[b->len - 1] != '{')
			buf_add(b, ",", 1);
		*eq = '\0';
		json_string(b, *e);
		*eq = '=';
		buf_add(b, ":", 1);
		json_string(b, eq + 1);
	}
	buf_add(b, "}", 1);
}

static void build_request(struct buf *req, WORD_LIST *args)
{
	buf_add(req, "{", 1);
	json_argv(req, args);
	char cwd[PATH_MAX];
	buf_str(req, ",\"cwd\":");
	json_string(req, getcwd(cwd, sizeof cwd) != NULL ? cwd : "/");
	maybe_make_export_env();
	unsigned long hash = env_hash();
	if (!conn.env_sent || hash != conn.env_hash) {
		buf_str(req, ",\"env\":");
		json_env(req);
		conn.env_hash = hash;
		conn.env_sent = 1;
	}
	/* Only a terminal could attach: without one the server answers as it does the program. */
	if (isatty(0))
		buf_str(req, ",\"refuse_attach\":true");
	/* A command that reads standard input (load-buffer -) is left to the program. */
	buf_str(req, ",\"refuse_stdin\":true,\"reply\":\"raw\"}\n");
}

/* ---- the exchange ---- */

/* An interrupt (C-c) while waiting abandons the request: its reply would come to the next. */
static void check_interrupt(void)
{
	if (interrupt_state || terminating_signal) {
		disconnect();
		QUIT;
	}
}

/* Sends it all; 0, or -1 with errno (EPIPE: the server that connection went to is gone). */
static int send_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR) {
				check_interrupt();
				continue;
			}
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Reads until `reply` holds at least `want` bytes; 0, or -1 at end of file or on error. */
static int read_until(int fd, size_t want)
{
	while (reply.len < want) {
		buf_reserve(&reply, 65536);
		/*
		 * Wait in poll() for input only, then read: a task asleep in read() on a unix
		 * socket is also woken each time the server takes our request off the socket
		 * (the kernel's write-space wakeup), which poll's event mask filters out. That
		 * spurious wakeup was 40% of the server's time per request, and 10 us a call.
		 */
		struct pollfd pfd = { fd, POLLIN, 0 };
		if (poll(&pfd, 1, -1) < 0 && errno == EINTR) {
			check_interrupt();
			continue;
		}
		ssize_t r = read(fd, reply.data + reply.len, reply.cap - reply.len);
		if (r < 0 && errno == EINTR) {
			check_interrupt();
			continue;
		}
		if (r <= 0)
			return -1;
		reply.len += (size_t)r;
	}
	return 0;
}

/* The number after `"key":` in the head line, or -1. */
static long head_number(const char *head, const char *key)
{
	const char *p = strstr(head, key);
	if (p == NULL)
		return -1;
	p += strlen(key);
	char *end;
	long v = strtol(p, &end, 10);
	return end == p ? -1 : v;
}

/* Writes it all, or as much as the descriptor takes. */
static void write_out(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		p += w;
		n -= (size_t)w;
	}
}

/* Prints a reply's output and errors. Standard output may be a closed pipe: the program
 * ignores SIGPIPE and carries on, and so does this (only while it writes). */
static void print_reply(const char *out, size_t out_len, const char *err, size_t err_len)
{
	if (out_len + err_len == 0)
		return;
	fflush(stdout);
	fflush(stderr);
	struct sigaction ignore, old;
	memset(&ignore, 0, sizeof ignore);
	ignore.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ignore, &old);
	write_out(1, out, out_len);
	write_out(2, err, err_len);
	sigaction(SIGPIPE, &old, NULL);
}

/* A message on standard error, worded and placed as the program's. */
static void report(const char *message)
{
	char line[256];
	int n = snprintf(line, sizeof line, "%s\n", message);
	print_reply(NULL, 0, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

enum outcome { ANSWERED, RUN_PROGRAM };

/* Sends the request and prints the reply; RUN_PROGRAM when the program must do it. */
static enum outcome exchange(const char *path, size_t dir_len, WORD_LIST *args, int *status)
{
	/* A reused connection may find its server gone, and a new one a server exiting. */
	for (int attempt = 0; attempt < 3; attempt++) {
		int fd = connection(path, dir_len);
		if (fd < 0)
			return RUN_PROGRAM;
		struct buf req = { NULL, 0, 0 };
		build_request(&req, args);
		int sent = send_all(fd, req.data, req.len);
		buf_free(&req);
		if (sent < 0) {
			/* The server this connection went to never saw the request: try a new one. */
			disconnect();
			continue;
		}
		reply.len = 0;
		char *nl = NULL;
		while ((nl = memchr(reply.data, '\n', reply.len)) == NULL) {
			if (read_until(fd, reply.len + 1) < 0)
				break;
		}
		if (nl == NULL) {
			disconnect();
			if (reply.len == 0)
				continue;
			report("server exited unexpectedly");
			*status = EXECUTION_FAILURE;
			return ANSWERED;
		}
		*nl = '\0';
		size_t head_len = (size_t)(nl - reply.data) + 1;
		if (strstr(reply.data, "\"must_attach\":true") != NULL)
			return RUN_PROGRAM;
		long code = head_number(reply.data, "\"code\":");
		long out = head_number(reply.data, "\"out_bytes\":");
		long err = head_number(reply.data, "\"err_bytes\":");
		if (code < 0 || out < 0 || err < 0 ||
		    read_until(fd, head_len + (size_t)out + (size_t)err) < 0) {
			disconnect();
			report("server exited unexpectedly");
			*status = EXECUTION_FAILURE;
			return ANSWERED;
		}
		print_reply(reply.data + head_len, (size_t)out, reply.data + head_len + out, (size_t)err);
		*status = (int)code;
		return ANSWERED;
	}
	return RUN_PROGRAM;
}

/* Runs the zeropty program from PATH with these arguments, as bash runs any command. */
static int run_program(WORD_LIST *list)
{
	char *program = find_user_command("zeropty");
	if (program == NULL) {
		report("zeropty: cannot find the zeropty program in PATH");
		return EX_NOTFOUND;
	}
	int argc = 1;
	for (WORD_LIST *w = list; w != NULL; w = w->next)
		argc++;
	char **argv = xmalloc((argc + 1) * sizeof *argv);
	argv[0] = "zeropty";
	int i = 1;
	for (WORD_LIST *w = list; w != NULL; w = w->next)
		argv[i++] = w->word->word;
	argv[i] = NULL;
	maybe_make_export_env();
	fflush(stdout);
	fflush(stderr);
	pid_t pid = make_child(savestring("zeropty"), FORK_SYNC);
	if (pid == 0) {
		restore_original_signals();
		execve(program, argv, export_env);
		fprintf(stderr, "zeropty: %s: %s\n", program, strerror(errno));
		_exit(EX_NOEXEC);
	}
	free(argv);
	free(program);
	if (pid < 0)
		return EXECUTION_FAILURE;
	/* Make it a job as bash does any command's: this also lets the child past the pipe on
	 * which it waits until its process group is set. */
	stop_pipeline(0, (COMMAND *)NULL);
	return wait_for(pid, 0);
}

static int zeropty_builtin(WORD_LIST *list)
{
	struct global g = parse_global(list);
	if (g.program_only)
		return run_program(list);
	const char *command = g.args != NULL ? g.args->word->word : "";
	if (strcmp(command, "serve") == 0 || strcmp(command, "help") == 0)
		return run_program(list);
	size_t dir_len;
	char *path = socket_path(&g, &dir_len);
	int status = EXECUTION_FAILURE;
	enum outcome outcome = exchange(path, dir_len, g.args, &status);
	free(path);
	return outcome == RUN_PROGRAM ? run_program(list) : status;
}

/* Closes the connection when the builtin is disabled with `enable -d`. */
void zeropty_builtin_unload(char *name)
{
	(void)name;
	disconnect();
	buf_free(&reply);
}

static char *zeropty_doc[] = {
	"Run a zeropty command without starting a process.",
	"",
	"Takes the arguments of the zeropty program (tmux's global flags, then a",
	"command and its flags; several commands are separated by `;') and prints",
	"what the program prints, with the same exit status, but talks to the",
	"server's socket from inside bash. One connection is kept across calls and",
	"opened again when the server is replaced, when -L, -S, ZEROPTY_TMPDIR or",
	"TMUX_TMPDIR change, and in each subshell.",
	"",
	"The zeropty program, found in PATH, is run instead for what only it can do:",
	"attach-session and new-session without -d from a terminal, serve, help,",
	"-V, -h, -c, and any command when no server is running (so new-session",
	"still starts one).",
	"",
	"Examples:",
	"  zeropty new-session -d -s work 'claude'",
	"  zeropty send-keys -t work -l 'fix the tests' \\; send-keys -t work Enter",
	"  zeropty capture-pane -p -t work -S -2000 > transcript.txt",
	"",
	"Exit Status:",
	"Returns the command's status: 0 on success, 1 on error (the message is on",
	"standard error), or the program's status when it ran instead.",
	"",
	"See `man zeropty' for every command, flag, target and format.",
	(char *)NULL
};

struct builtin zeropty_struct = {
	"zeropty",
	zeropty_builtin,
	BUILTIN_ENABLED,
	zeropty_doc,
	"zeropty [-2DlNuv] [-L socket-name] [-S socket-path] [command [flags]]",
	0
};
