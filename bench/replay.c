/*
 * The session program of the scale benchmarks (bench/scale.sh): what an agent writes to
 * its terminal, at an agent's pace, while costing the machine as little as possible itself, so
 * that what is measured is the server. It sleeps on absolute deadlines (no polling, no busy
 * loops) and reads its files through mmap, so a thousand copies share one page cache copy.
 *
 *     replay idle FILE                   write FILE once, then sleep
 *     replay redraw [PHASE [EPOCH]]      every second, redraw a 31-line live region
 *     replay clear [PHASE [EPOCH]]       every second, clear the screen and draw the same
 *                                        region (the cleared screen goes into the history)
 *     replay dump FILE [PHASE [EPOCH]]   every 2 s, clear the screen and write FILE again
 *     replay cast FILE START [EPOCH]     play an asciinema v2 recording in a loop, from START
 *                                        (0 to 1) of its length; FILE may also be compiled
 *     replay compile IN.cast OUT         write the recording's decoded events to OUT, which
 *                                        `cast` maps instead of parsing the recording again
 *     replay bulk FILE STAMP             write FILE as fast as the terminal takes it, then
 *                                        write "START END" (CLOCK_REALTIME seconds) to STAMP
 *                                        and sleep
 *     replay frames N [clear]            write the first N frames of redraw (or clear) as an
 *                                        asciinema v2 recording, a frame a second, and exit
 *                                        (what a parser is timed on, frame by frame:
 *                                        examples/replay)
 *
 * PHASE (0 to 1) delays the first frame by that part of the period, so sessions started
 * together do not all draw in the same instant. EPOCH, a CLOCK_REALTIME time in seconds, is
 * when the schedule starts (at START for a recording); it may be in the past or the future.
 * Every mode but compile puts its terminal in raw mode (like `stty raw -echo`) first: the
 * recordings' bytes already carry CR LF, and the replies to the recordings' terminal queries
 * must not be echoed onto the screen.
 *
 * Build: gcc -O2 -Wall -Wextra -Werror -o replay bench/replay.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define NS 1000000000LL

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int64_t now_ns(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * NS + ts.tv_nsec;
}

static void sleep_until(int64_t deadline)
{
	struct timespec ts = {.tv_sec = deadline / NS, .tv_nsec = deadline % NS};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* The server going away ends the program: write fails (EIO on a PTY, EPIPE on a socket). */
static void write_all(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(1, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			exit(0);
		}
		p += w;
		n -= (size_t)w;
	}
}

/* Replies to the recordings' queries (DA1, XTVERSION...) would otherwise pile up unread. */
static void drain_input(void)
{
	char buf[4096];
	struct pollfd pfd = {.fd = 0, .events = POLLIN};
	while (poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN)) {
		if (read(0, buf, sizeof buf) <= 0)
			break;
	}
}

static void raw_mode(void)
{
	struct termios t;
	if (tcgetattr(1, &t) != 0)
		return; /* not a terminal: run by hand into a file or pipe */
	cfmakeraw(&t);
	tcsetattr(1, TCSANOW, &t);
}

struct map {
	const char *p;
	size_t n;
};

static struct map map_file(const char *path)
{
	struct map m = {NULL, 0};
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0)
		die(path);
	m.n = (size_t)st.st_size;
	if (m.n > 0) {
		m.p = mmap(NULL, m.n, PROT_READ, MAP_SHARED, fd, 0);
		if (m.p == MAP_FAILED)
			die(path);
	}
	close(fd);
	return m;
}

static double fraction(const char *s)
{
	char *end;
	double f = strtod(s, &end);
	if (*end || f < 0 || f > 1) {
		fprintf(stderr, "replay: not a fraction from 0 to 1: %s\n", s);
		exit(2);
	}
	return f;
}

static void do_idle(const char *path)
{
	struct map m = map_file(path);
	write_all(m.p, m.n);
	munmap((void *)m.p, m.n);
	for (;;)
		pause();
}

/*
 * The live region of an agent at work: a spinner with elapsed time and tokens, tool output
 * with a line number and a changing word, the two full-width rules around an input box and a
 * status lines, in 24-bit and 256 colours: about 5 KB. The spinner, tool output and status
 * lines change every second (as when output scrolls through the region); the rules and the
 * empty lines of the input box stay, and are redrawn all the same, as agents redraw them.
 */
static size_t redraw_frame(char *out, size_t cap, long tick)
{
	static const char *words[] = {"parse", "config", "fixtures", "retry", "window", "cursor",
				      "buffer", "encode", "flush", "socket", "history", "resize",
				      "escape", "render", "session", "timeout"};
	static const char *spin = "·✢✳✶✻✽";
	const int nwords = (int)(sizeof words / sizeof *words);
	const int top = 48;
	size_t n = 0;
	for (int row = 0; row < 31; row++) {
		n += (size_t)snprintf(out + n, cap - n, "\033[%d;1H", top + row);
		long k = tick + row;
		if (row == 0) {
			/* the spinner glyphs are 2 or 3 bytes of UTF-8 each */
			int g = (int)(tick % 6);
			const char *s = spin;
			for (int i = 0; i < g; i++)
				s += (*s & 0x80) ? ((*s & 0xe0) == 0xc0 ? 2 : 3) : 1;
			int len = (*s & 0x80) ? ((*s & 0xe0) == 0xc0 ? 2 : 3) : 1;
			n += (size_t)snprintf(out + n, cap - n,
					      "\033[38;2;215;119;87m%.*s\033[39m \033[1mWorking\033[22m"
					      " \033[38;2;153;153;153m(%lds · ↓ %ld.%ldk tokens · esc "
					      "to interrupt)\033[39m",
					      len, s, tick, tick * 37 / 10, tick % 10);
		} else if (row == 24 || row == 28) {
			n += (size_t)snprintf(out + n, cap - n, "\033[38;2;136;136;136m");
			for (int i = 0; i < 220; i++)
				n += (size_t)snprintf(out + n, cap - n, "─");
			n += (size_t)snprintf(out + n, cap - n, "\033[39m");
		} else if (row > 24 && row < 28) {
			n += (size_t)snprintf(out + n, cap - n, "\033[1m>\033[22m %s",
					      row == 25 ? words[tick % nwords] : "");
		} else if (row > 28) {
			n += (size_t)snprintf(out + n, cap - n,
					      "  \033[38;2;255;107;128m⏵⏵ bypass permissions on\033[39m"
					      "\033[38;2;153;153;153m · %ld tool uses · %ld files\033[39m",
					      tick / 3, k % 97);
		} else {
			n += (size_t)snprintf(out + n, cap - n,
					      "  \033[38;5;%ldm%5ld\033[39m \033[38;2;%ld;%ld;200m%s_%s\033[39m"
					      "(\033[32m\"%s\"\033[39m, %ld) -> \033[1m%s\033[22m  # %s %s "
					      "%s",
					      (k % 200) + 30, k * 7 % 10000, 100 + k % 120, 60 + k % 150,
					      words[k % nwords], words[(k / 3) % nwords],
					      words[(k / 5) % nwords], k % 1000, words[(k / 7) % nwords],
					      words[(k + 3) % nwords], words[(k + 5) % nwords],
					      words[(k + 9) % nwords]);
		}
		n += (size_t)snprintf(out + n, cap - n, "\033[K");
	}
	n += (size_t)snprintf(out + n, cap - n, "\033[74;5H");
	return n;
}

/*
 * EPOCH (CLOCK_REALTIME seconds) pins a session's schedule to the clock rather than to when
 * it started, so sessions started by two servers at different speeds still write the same
 * bytes in the same second: what the bench's window sees then depends on the server alone.
 */
static int64_t anchor(const char *epoch)
{
	int64_t mono = now_ns(CLOCK_MONOTONIC);
	if (!epoch)
		return mono;
	char *end;
	double e = strtod(epoch, &end);
	if (*end || e <= 0) {
		fprintf(stderr, "replay: not a time in seconds: %s\n", epoch);
		exit(2);
	}
	return mono + (int64_t)(e * NS) - now_ns(CLOCK_REALTIME);
}

/* The first frame at or after now of the schedule anchor + offset + k * period; sets *k. */
static int64_t first_frame(int64_t at, int64_t offset, int64_t period, long *k)
{
	int64_t first = at + offset, now = now_ns(CLOCK_MONOTONIC);
	*k = first >= now ? 0 : (long)((now - first + period - 1) / period);
	return first + *k * period;
}

/* Every second a frame; with clear, the frame starts by clearing the screen (ESC[H ESC[2J). */
static void do_redraw(double phase, const char *epoch, int clear)
{
	static const char clear_screen[] = "\033[H\033[2J";
	static char frame[32768];
	long tick;
	int64_t next = first_frame(anchor(epoch), (int64_t)(phase * NS), NS, &tick);
	size_t lead = clear ? strlen(clear_screen) : 0;
	memcpy(frame, clear_screen, lead);
	for (;; tick++) {
		sleep_until(next);
		write_all(frame, lead + redraw_frame(frame + lead, sizeof frame - lead, tick));
		next += NS;
	}
}

static void do_frames(const char *count, int clear)
{
	static const char clear_screen[] = "\\u001b[H\\u001b[2J";
	static char frame[32768];
	char *end;
	long n = strtol(count, &end, 10);
	if (*end || n < 1) {
		fprintf(stderr, "replay: not a count of frames: %s\n", count);
		exit(2);
	}
	printf("{\"version\": 2, \"width\": 220, \"height\": 80}\n");
	for (long tick = 0; tick < n; tick++) {
		size_t len = redraw_frame(frame, sizeof frame, tick);
		printf("[%ld.0, \"o\", \"%s", tick, clear ? clear_screen : "");
		for (size_t i = 0; i < len; i++) {
			unsigned char c = (unsigned char)frame[i];
			if (c == '"' || c == '\\')
				printf("\\%c", c);
			else if (c < 0x20)
				printf("\\u%04x", c);
			else
				putchar(c);
		}
		printf("\"]\n");
	}
}

static void do_dump(const char *path, double phase, const char *epoch)
{
	static const char clear[] = "\033[H\033[2J";
	struct map m = map_file(path);
	long k;
	int64_t next = first_frame(anchor(epoch), (int64_t)(phase * 2 * NS), 2 * NS, &k);
	for (;;) {
		sleep_until(next);
		write_all(clear, sizeof clear - 1);
		write_all(m.p, m.n);
		next += 2 * NS;
	}
}

/* A recording's "o" events, decoded: the compiled file's layout, also built in memory. */
#define MAGIC "zpreplay"
struct event {
	int64_t t_ns; /* from the recording's start */
	uint64_t off; /* into data */
	uint64_t len;
};
struct cast {
	uint64_t count;
	int64_t duration_ns;
	const struct event *events;
	const char *data;
};

static void put_utf8(char **o, uint32_t c)
{
	unsigned char *p = (unsigned char *)*o;
	if (c < 0x80) {
		*p++ = (unsigned char)c;
	} else if (c < 0x800) {
		*p++ = (unsigned char)(0xc0 | c >> 6);
		*p++ = (unsigned char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		*p++ = (unsigned char)(0xe0 | c >> 12);
		*p++ = (unsigned char)(0x80 | (c >> 6 & 0x3f));
		*p++ = (unsigned char)(0x80 | (c & 0x3f));
	} else {
		*p++ = (unsigned char)(0xf0 | c >> 18);
		*p++ = (unsigned char)(0x80 | (c >> 12 & 0x3f));
		*p++ = (unsigned char)(0x80 | (c >> 6 & 0x3f));
		*p++ = (unsigned char)(0x80 | (c & 0x3f));
	}
	*o = (char *)p;
}

static int hex4(const char *s, uint32_t *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;
		if (d < 0)
			return -1;
		*v = *v << 4 | (uint32_t)d;
	}
	return 0;
}

/*
 * Decodes the JSON string starting at *s (on its opening quote) into *o; returns 0, or -1 when
 * it is not a well-formed string. A lone surrogate becomes U+FFFD, as a JSON decoder that
 * produces UTF-8 would make it.
 */
static int json_string(const char **s, const char *end, char **o)
{
	const char *p = *s;
	if (p >= end || *p++ != '"')
		return -1;
	while (p < end && *p != '"') {
		if (*p != '\\') {
			*(*o)++ = *p++;
			continue;
		}
		if (++p >= end)
			return -1;
		char c = *p++;
		uint32_t u, lo;
		switch (c) {
		case '"': case '\\': case '/': *(*o)++ = c; break;
		case 'b': *(*o)++ = '\b'; break;
		case 'f': *(*o)++ = '\f'; break;
		case 'n': *(*o)++ = '\n'; break;
		case 'r': *(*o)++ = '\r'; break;
		case 't': *(*o)++ = '\t'; break;
		case 'u':
			if (end - p < 4 || hex4(p, &u))
				return -1;
			p += 4;
			if (u >= 0xd800 && u < 0xdc00 && end - p >= 6 && p[0] == '\\' &&
			    p[1] == 'u' && !hex4(p + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
				p += 6;
			} else if (u >= 0xd800 && u < 0xe000) {
				u = 0xfffd;
			}
			put_utf8(o, u);
			break;
		default:
			return -1;
		}
	}
	if (p >= end)
		return -1;
	*s = p + 1;
	return 0;
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* Parses an asciinema v2 file: a header line, then one [time, "o", "data"] array a line. */
static struct cast parse_cast(const char *path, struct map m)
{
	struct cast c = {0, 0, NULL, NULL};
	/* Decoded text is never longer than its JSON; a line holds at most one event. */
	size_t lines = 0, line = 1, cap_events;
	for (size_t i = 0; i < m.n; i++)
		lines += m.p[i] == '\n';
	cap_events = lines + 1;
	struct event *ev = malloc(cap_events * sizeof *ev);
	char *data = malloc(m.n + 1), *o = data;
	if (!ev || !data)
		die("malloc");
	const char *p = m.p, *end = m.p + m.n;
	const char *nl = memchr(p, '\n', m.n);
	if (!nl || *skip_space(p, end) != '{')
		goto bad;
	for (p = nl + 1; p < end; p = nl + 1) {
		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		const char *q = skip_space(p, nl);
		if (q == nl)
			continue;
		if (*q++ != '[')
			goto bad;
		char *tend;
		double t = strtod(q, &tend);
		if (tend == q)
			goto bad;
		q = skip_space(tend, nl);
		if (q >= nl || *q++ != ',')
			goto bad;
		q = skip_space(q, nl);
		/* the event's kind is one letter: "o" output, "i" input, "m" marker, "r" resize */
		if (nl - q < 3 || q[0] != '"' || q[2] != '"')
			goto bad;
		char kind = q[1];
		q += 3;
		q = skip_space(q, nl);
		if (q >= nl || *q++ != ',')
			goto bad;
		q = skip_space(q, nl);
		char *start = o;
		if (json_string(&q, nl, &o))
			goto bad;
		if (kind != 'o' || o == start) {
			o = start;
			continue;
		}
		ev[c.count].t_ns = (int64_t)(t * NS);
		ev[c.count].off = (uint64_t)(start - data);
		ev[c.count].len = (uint64_t)(o - start);
		c.count++;
	}
	if (c.count == 0)
		goto bad;
	c.duration_ns = ev[c.count - 1].t_ns;
	c.events = ev;
	c.data = data;
	return c;
bad:
	fprintf(stderr, "replay: %s: not an asciinema v2 recording (line %zu)\n", path, line);
	exit(2);
}

struct header {
	char magic[8];
	uint64_t count;
	int64_t duration_ns;
};

static struct cast load_cast(const char *path)
{
	struct map m = map_file(path);
	struct header h;
	if (m.n >= sizeof h && memcmp(m.p, MAGIC, 8) == 0) {
		memcpy(&h, m.p, sizeof h);
		struct cast c = {h.count, h.duration_ns, (const struct event *)(m.p + sizeof h),
				 m.p + sizeof h + h.count * sizeof(struct event)};
		return c;
	}
	struct cast c = parse_cast(path, m);
	munmap((void *)m.p, m.n);
	return c;
}

static void do_compile(const char *in, const char *out)
{
	struct cast c = load_cast(in);
	const struct event *last = &c.events[c.count - 1];
	struct header h = {MAGIC, c.count, c.duration_ns};
	FILE *f = fopen(out, "wb");
	if (!f || fwrite(&h, sizeof h, 1, f) != 1 ||
	    fwrite(c.events, sizeof *c.events, c.count, f) != c.count ||
	    fwrite(c.data, 1, last->off + last->len, f) != last->off + last->len || fclose(f))
		die(out);
}

/*
 * Events go out at their recorded times, measured from absolute deadlines so that the time
 * spent writing does not stretch the recording. When a write is held up (the server is not
 * reading) by more than LATE_NS, the schedule moves on from where it is instead of catching
 * up in a burst: an agent draws its next frame when its timer fires, it does not queue them.
 */
#define LATE_NS (250 * 1000000LL)
static void do_cast(const char *path, double start, const char *epoch)
{
	struct cast c = load_cast(path);
	raw_mode();
	/* a recording of one instant still loops, once a second */
	int64_t period = c.duration_ns > 0 ? c.duration_ns : NS;
	int64_t now = now_ns(CLOCK_MONOTONIC), at = anchor(epoch);
	int64_t pos = ((int64_t)(start * (double)period) + now - at) % period;
	if (pos < 0)
		pos += period;
	uint64_t i = 0;
	while (i < c.count && c.events[i].t_ns < pos)
		i++;
	int64_t base = now - pos;
	for (;;) {
		for (; i < c.count; i++) {
			int64_t due = base + c.events[i].t_ns;
			now = now_ns(CLOCK_MONOTONIC);
			if (now > due + LATE_NS)
				base += now - due;
			else if (now < due)
				sleep_until(due);
			write_all(c.data + c.events[i].off, c.events[i].len);
		}
		drain_input();
		base += period;
		i = 0;
	}
}

static void do_bulk(const char *path, const char *stamp)
{
	struct map m = map_file(path);
	raw_mode();
	int64_t t0 = now_ns(CLOCK_REALTIME);
	write_all(m.p, m.n);
	int64_t t1 = now_ns(CLOCK_REALTIME);
	FILE *f = fopen(stamp, "w");
	if (!f || fprintf(f, "%lld.%09lld %lld.%09lld\n", (long long)(t0 / NS),
			  (long long)(t0 % NS), (long long)(t1 / NS), (long long)(t1 % NS)) < 0 ||
	    fclose(f))
		die(stamp);
	for (;;)
		pause();
}

static void usage(void)
{
	fprintf(stderr, "usage: replay idle FILE | redraw [PHASE [EPOCH]] | clear [PHASE [EPOCH]] |\n"
			"       dump FILE [PHASE [EPOCH]] | cast FILE START [EPOCH] |\n"
			"       compile IN.cast OUT | bulk FILE STAMP | frames N [clear]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	const char *mode = argv[1];
	if (!strcmp(mode, "idle") && argc == 3) {
		raw_mode();
		do_idle(argv[2]);
	} else if ((!strcmp(mode, "redraw") || !strcmp(mode, "clear")) && argc <= 4) {
		raw_mode();
		do_redraw(argc >= 3 ? fraction(argv[2]) : 0, argc == 4 ? argv[3] : NULL,
			  !strcmp(mode, "clear"));
	} else if (!strcmp(mode, "dump") && argc >= 3 && argc <= 5) {
		raw_mode();
		do_dump(argv[2], argc >= 4 ? fraction(argv[3]) : 0, argc == 5 ? argv[4] : NULL);
	} else if (!strcmp(mode, "cast") && (argc == 4 || argc == 5)) {
		do_cast(argv[2], fraction(argv[3]), argc == 5 ? argv[4] : NULL);
	} else if (!strcmp(mode, "compile") && argc == 4) {
		do_compile(argv[2], argv[3]);
		return 0;
	} else if (!strcmp(mode, "bulk") && argc == 4) {
		do_bulk(argv[2], argv[3]);
	} else if (!strcmp(mode, "frames") && (argc == 3 || (argc == 4 && !strcmp(argv[3], "clear")))) {
		do_frames(argv[2], argc == 4);
		return 0;
	}
	usage();
}
