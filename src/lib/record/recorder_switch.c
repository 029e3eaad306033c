// SPDX-License-Identifier: MIT
/*
 * What the recording loop does on time or size besides draining: start the
 * events after -D, close the file and go on in a new one (--switch-output),
 * stop at --max-size.  A closed file is named as perf names them,
 * OUTPUT.YYYYMMDDhhmmssCC in local time, so scripts that look for perf's
 * files find ours.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"
#include "recorder_internal.h"

uint64_t pki_rec_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int ms_until(uint64_t at, uint64_t now)
{
	uint64_t ms = at > now ? (at - now + 999999) / 1000000 : 0;

	return ms > 1000 ? 1000 : (int)ms;
}

int pki_rec_timeout_ms(const struct pk_recorder *r, int dflt)
{
	uint64_t now = pki_rec_now_ns();
	int t = dflt;

	if (r->delayed && ms_until(r->enable_at, now) < t)
		t = ms_until(r->enable_at, now);
	if (r->next_switch_at && ms_until(r->next_switch_at, now) < t)
		t = ms_until(r->next_switch_at, now);
	return t;
}

void pki_rec_timed_start(struct pk_recorder *r)
{
	uint64_t now = pki_rec_now_ns();

	if (r->o.delay_ms) {
		r->delayed = true;
		r->enable_at = now + (uint64_t)r->o.delay_ms * 1000000ULL;
		pki_print(PK_PRINT_INFO, "Events disabled");
	}
	if (r->o.switch_secs)
		r->next_switch_at = now + (uint64_t)r->o.switch_secs * 1000000000ULL;
}

static int stamp_name(const char *path, char *out, size_t size)
{
	struct timespec ts;
	struct tm tm;
	char stamp[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	if (!localtime_r(&ts.tv_sec, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm))
		return -EINVAL;
	if ((size_t)snprintf(out, size, "%s.%s%02ld", path, stamp, ts.tv_nsec / 10000000L) >= size)
		return -ENAMETOOLONG;
	return 0;
}

void pki_rec_free_stamped(struct pk_recorder *r)
{
	for (unsigned int i = 0; i < r->nr_stamped; i++)
		free(r->stamped[i]);
	free(r->stamped);
	r->stamped = NULL;
	r->nr_stamped = 0;
}

/* --switch-max-files: remember the file, remove the oldest beyond the limit */
static void keep_newest(struct pk_recorder *r, const char *name)
{
	unsigned int max = r->o.switch_max_files;
	char **n;

	if (!max)
		return;
	n = realloc(r->stamped, (r->nr_stamped + 1) * sizeof(*n));
	if (!n)
		return;
	r->stamped = n;
	if (!(n[r->nr_stamped] = strdup(name)))
		return;
	r->nr_stamped++;
	while (r->nr_stamped > max) {
		if (unlink(r->stamped[0]))
			pki_warn("cannot remove %s: %s", r->stamped[0], strerror(errno));
		free(r->stamped[0]);
		memmove(r->stamped, r->stamped + 1, --r->nr_stamped * sizeof(*r->stamped));
	}
}

int pk_recorder_timestamp_output(struct pk_recorder *r, char *name, size_t size)
{
	int err;

	if (!r->w || !r->finished || !strcmp(r->o.output, "-"))
		return -EINVAL;
	if ((err = stamp_name(r->o.output, name, size)))
		return err;
	if (rename(r->o.output, name))
		return pki_rec_fail(r, -errno, "cannot rename %s to %s: %s", r->o.output, name,
				    strerror(errno));
	keep_newest(r, name);
	return 0;
}

/* Close the current file under its timestamped name and start a new one
 * with the same events and the state synthesized again. */
static int switch_output(struct pk_recorder *r)
{
	char name[4096];
	int err;

	r->switch_req = 0;
	if (!strcmp(r->o.output, "-"))
		return 0; /* a pipe has no files to switch */
	if (r->dsos)
		pki_rec_dsos_write_build_ids(r->dsos, r->w);
	if ((err = pk_writer_finish(r->w)))
		return pki_rec_fail(r, err, "%s", pk_writer_error(r->w));
	r->finished = true;
	err = pk_recorder_timestamp_output(r, name, sizeof(name));
	r->finished = false;
	if (err)
		return err;
	pki_print(PK_PRINT_INFO, "[ perfkit record: dump data: Woken up %llu times ]",
		  (unsigned long long)r->wakeups);
	pki_print(PK_PRINT_INFO, "[ perfkit record: Dump %s ]", name);
	r->wakeups = 0;
	pk_writer_close(r->w);
	r->w = NULL;
	if (r->dsos) {
		pki_rec_dsos_free(r->dsos);
		if (!(r->dsos = pki_rec_dsos_new(r->sample_type)))
			return pki_rec_fail(r, -ENOMEM, "out of memory");
	}
	if ((err = pki_rec_open_writer(r)) || (err = pki_synth_command(r)))
		return err;
	return pki_rec_synthesize(r);
}

bool pki_rec_switch_due(const struct pk_recorder *r)
{
	return r->switch_req || (r->next_switch_at && pki_rec_now_ns() >= r->next_switch_at);
}

int pki_rec_tick(struct pk_recorder *r)
{
	struct pk_writer_stats st;
	uint64_t now = pki_rec_now_ns();
	int err;

	if (r->delayed && now >= r->enable_at) {
		r->delayed = false;
		if ((err = pki_rec_enable(r, true)))
			return pki_rec_fail(r, err, "cannot enable the events: %s", strerror(-err));
		pki_print(PK_PRINT_INFO, "Events enabled");
	}
	pk_writer_get_stats(r->w, &st);
	if (r->o.max_size && st.bytes >= r->o.max_size && !r->stop) {
		pki_print(PK_PRINT_INFO,
			  "[ perfkit record: perf size limit reached (%llu KB), stopping session ]",
			  (unsigned long long)(r->o.max_size / 1024));
		r->stop = 1;
		return 0;
	}
	if (r->switch_req || (r->o.switch_size && st.bytes >= r->o.switch_size) ||
	    (r->next_switch_at && now >= r->next_switch_at)) {
		if (r->o.switch_secs)
			r->next_switch_at = now + (uint64_t)r->o.switch_secs * 1000000000ULL;
		return switch_output(r);
	}
	return 0;
}
