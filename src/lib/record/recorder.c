// SPDX-License-Identifier: MIT
/*
 * A recording session: events opened on the targets, one ring per CPU,
 * the output writer, and the loop that drains the rings when poll() says
 * so, until the command exits, the traced threads are gone or a stop is
 * requested.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "internal.h"
#include "recorder_internal.h"

int pki_rec_fail(struct pk_recorder *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return err;
}

void pki_rec_note(struct pk_recorder *r, const char *fmt, ...)
{
	size_t n = strlen(r->notes);
	va_list ap;

	if (n + 2 >= sizeof(r->notes))
		return;
	va_start(ap, fmt);
	vsnprintf(r->notes + n, sizeof(r->notes) - n - 1, fmt, ap);
	va_end(ap);
	n = strlen(r->notes);
	r->notes[n] = '\n';
	r->notes[n + 1] = 0;
}

const char *pk_recorder_error(const struct pk_recorder *r)
{
	return r && r->err[0] ? r->err : "no error";
}

const char *pk_recorder_notes(const struct pk_recorder *r)
{
	return r->notes;
}

bool pk_recorder_has_output(const struct pk_recorder *r)
{
	return r->w && !r->start_failed;
}

const char *pk_recorder_output(const struct pk_recorder *r)
{
	return r->o.output;
}

int pki_rec_emit(struct pk_recorder *r, const void *rec, size_t size)
{
	int err;

	if (r->dsos)
		pki_rec_dsos_record(r->dsos, rec, size);
	err = pk_writer_write(r->w, rec, size);
	if (err) {
		r->stop = 1;
		pki_rec_fail(r, err, "%s", pk_writer_error(r->w));
	}
	return err;
}

static int check_opts(struct pk_recorder *r)
{
	size_t p = r->o.mmap_pages;

	if (p && (p & (p - 1)))
		return pki_rec_fail(r, -EINVAL, "-m %zu: the number of pages must be a power of 2",
				    p);
	if (r->o.compress_level < 0 || r->o.compress_level > 22)
		return pki_rec_fail(r, -EINVAL, "-z level %d is not in 1..22", r->o.compress_level);
	if (r->o.freq && r->o.period)
		return pki_rec_fail(r, -EINVAL, "-F and -c cannot be used together");
	if (r->o.dwarf_stack_size % 8 || r->o.dwarf_stack_size > 65528)
		return pki_rec_fail(r, -EINVAL,
				    "dwarf stack size %u: must be a multiple of 8 up to 65528",
				    r->o.dwarf_stack_size);
	return 0;
}

int pki_rec_open_writer(struct pk_recorder *r)
{
	struct pk_writer_opts wo = {.sz = sizeof(wo), .keep_old = true};
	long page = sysconf(_SC_PAGESIZE);
	int err;

	wo.compress_level = r->o.compress_level;
	wo.mmap_len = (uint32_t)(r->mmap_pages * (size_t)(page > 0 ? page : 4096));
	err = pk_writer_open(&r->w, r->o.output, &wo);
	if (err)
		return pki_rec_fail(r, err, "%s", r->w ? pk_writer_error(r->w) : strerror(-err));
	for (int i = 0; i < r->nr_ev; i++) {
		struct rec_event *e = &r->ev[i];

		err = pk_writer_add_attr(r->w, &e->attr, e->name, e->ids, e->nr_ids);
		if (err < 0)
			return pki_rec_fail(r, err, "%s", pk_writer_error(r->w));
	}
	for (int i = 0; i < r->nr_ev; i++) {
		if (r->ev[i].leader == i && r->ev[i].group_size > 1 &&
		    (err = pk_writer_add_group(r->w, NULL, (uint32_t)i,
					       (uint32_t)r->ev[i].group_size)))
			return pki_rec_fail(r, err, "%s", pk_writer_error(r->w));
	}
	pk_writer_add_host_features(r->w, r->o.cmdline_argc, r->o.cmdline_argv);
	for (int i = 0; i < r->nr_ev; i++) {
		if (r->ev[i].attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		if ((err = pk_writer_add_tracing_data(r->w, NULL)))
			return pki_rec_fail(r, err, "%s", pk_writer_error(r->w));
		break;
	}
	if (r->o.use_clockid && (err = pk_writer_add_clock_features(r->w, r->o.clockid)))
		return pki_rec_fail(r, err, "%s", pk_writer_error(r->w));
	err = pk_writer_start(r->w);
	if (err)
		return pki_rec_fail(r, err, "%s", pk_writer_error(r->w));
	return 0;
}

int pki_rec_synthesize(struct pk_recorder *r)
{
	int err = pki_synth_kernel(r);

	if (!err)
		err = pki_synth_threads(r);
	if (!err)
		err = pk_writer_finish_round(r->w);
	if (err && !r->err[0])
		pki_rec_fail(r, err, "%s", pk_writer_error(r->w));
	return err;
}

int pk_recorder_open(struct pk_recorder **out, const struct pk_recorder_opts *opts)
{
	struct pk_recorder *r = calloc(1, sizeof(*r));
	bool command, now;
	int err;

	*out = r;
	if (!r)
		return -ENOMEM;
	r->go_fd = r->err_fd = r->pidfd = r->stop_fd = -1;
	r->tracking_ev = -1;
	memcpy(&r->o, opts, opts->sz < sizeof(r->o) ? opts->sz : sizeof(r->o));
	if (!r->o.output)
		r->o.output = "perf.data";
	command = r->o.argv && r->o.argv[0];
	if ((err = check_opts(r)) || (err = pki_rec_setup_targets(r)))
		return err;
	/* perf's dwarf unwinder reads .eh_frame through the read-only maps */
	r->data_maps = r->o.sample_addr || r->o.callgraph == PK_CALLGRAPH_DWARF;
	for (size_t i = 0; r->o.events && i < r->o.events->nr; i++)
		if (r->o.events->ev[i].rec.callgraph == PK_EVENT_CG_DWARF)
			r->data_maps = true; /* cpu-clock/call-graph=dwarf/ */
	r->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->stop_fd < 0)
		return pki_rec_fail(r, -errno, "eventfd: %s", strerror(errno));
	if (command && (err = pki_workload_prepare(r)))
		return err;
	if ((err = pki_rec_setup_events(r)) || (err = pki_rec_open_events(r)) ||
	    (err = pki_rec_map_rings(r)))
		return err;
	r->sample_type = r->ev[0].attr.sample_type;
	if (!r->o.no_buildid && !(r->dsos = pki_rec_dsos_new(r->sample_type)))
		return -ENOMEM;
	if ((err = pki_rec_open_writer(r)))
		return err;
	/* with a tracking event, sampling starts after the /proc read (see
	 * add_tracking_event()), without one (-p, -t) before it; with -D,
	 * pk_recorder_run() starts it when the delay is over */
	now = !r->trace_command && !r->o.delay_ms;
	if ((err = pki_rec_enable_tracking(r)) ||
	    (now && r->tracking_ev < 0 && (err = pki_rec_enable(r, true))))
		return pki_rec_fail(r, err, "cannot enable the events: %s", strerror(-err));
	if ((err = pki_rec_synthesize(r)))
		return err;
	if (now && r->tracking_ev >= 0 && (err = pki_rec_enable(r, true)))
		return pki_rec_fail(r, err, "cannot enable the events: %s", strerror(-err));
	return 0;
}

void pk_recorder_stop(struct pk_recorder *r)
{
	uint64_t one = 1;

	r->stop = 1;
	if (r->stop_fd >= 0 && write(r->stop_fd, &one, sizeof(one)) < 0)
		return;
}

void pk_recorder_switch(struct pk_recorder *r)
{
	uint64_t one = 1;

	r->switch_req = 1;
	if (r->stop_fd >= 0 && write(r->stop_fd, &one, sizeof(one)) < 0)
		return;
}

static void account(struct pk_recorder *r, const struct perf_event_header *h)
{
	uint64_t n;

	if (h->type == PERF_RECORD_LOST && h->size >= 24) {
		memcpy(&n, (const uint8_t *)h + 16, 8);
		r->lost += n;
		r->lost_records++;
	} else if (h->type == PERF_RECORD_LOST_SAMPLES && h->size >= 16) {
		memcpy(&n, (const uint8_t *)h + 8, 8);
		r->lost += n;
		r->lost_records++;
	}
}

/* Drain every ring once; a FINISHED_ROUND closes the pass. */
static int drain(struct pk_recorder *r)
{
	bool any = false;
	int err = 0;

	for (int i = 0; i < r->nr_rings && !err; i++) {
		const struct perf_event_header *h;
		int rc;

		if (pk_ring_begin(r->rings[i]) <= 0)
			continue;
		any = true;
		while (!err && (rc = pk_ring_next(r->rings[i], &h)) > 0) {
			account(r, h);
			err = pki_rec_emit(r, h, h->size);
		}
		pk_ring_end(r->rings[i]);
	}
	if (any) {
		r->wakeups++;
		if (!err)
			err = pk_writer_finish_round(r->w);
		if (err && !r->err[0])
			pki_rec_fail(r, err, "%s", pk_writer_error(r->w));
	}
	return err;
}

static int wait_for_data(struct pk_recorder *r, bool *all_hup)
{
	struct pollfd *fds;
	int n = 0, rc, hup = 0;

	fds = calloc(r->nr_rings + 2, sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	/* overwrite rings are read only at a switch or the end */
	for (int i = 0; i < r->nr_rings; i++)
		fds[n++] = (struct pollfd){.fd = r->o.overwrite ? -1 : pk_ring_fd(r->rings[i]),
					   .events = POLLIN};
	fds[n++] = (struct pollfd){.fd = r->stop_fd, .events = POLLIN};
	if (r->pidfd >= 0)
		fds[n++] = (struct pollfd){.fd = r->pidfd, .events = POLLIN};
	/* without a pidfd the command's end is noticed by polling */
	rc = poll(fds, n, pki_rec_timeout_ms(r, r->child > 0 && r->pidfd < 0 ? 100 : 1000));
	if (rc > 0 && (fds[r->nr_rings].revents & POLLIN)) {
		uint64_t v;

		if (read(r->stop_fd, &v, sizeof(v)) < 0)
			v = 0; /* emptied by another pass */
	}
	for (int i = 0; rc > 0 && i < r->nr_rings; i++)
		hup += !!(fds[i].revents & (POLLHUP | POLLERR));
	*all_hup = r->per_task && !r->trace_command && r->nr_rings && hup == r->nr_rings;
	free(fds);
	return rc < 0 && errno != EINTR ? -errno : 0;
}

int pk_recorder_run(struct pk_recorder *r)
{
	bool all_hup = false;
	int err;

	if (r->child > 0 && r->go_fd >= 0 && (err = pki_workload_start(r))) {
		r->start_failed = true;
		return err;
	}
	pki_rec_timed_start(r);
	for (;;) {
		if ((!r->o.overwrite || pki_rec_switch_due(r)) && (err = drain(r)))
			return err;
		if ((err = pki_rec_tick(r)))
			return err;
		if (r->stop || all_hup)
			break;
		pki_workload_reap(r, false);
		if (r->child > 0 && r->child_done)
			break;
		if ((err = wait_for_data(r, &all_hup)))
			return pki_rec_fail(r, err, "poll: %s", strerror(-err));
	}
	return 0;
}

/* As perf record: the binaries the profile needs go into the build-id
 * cache once the file is complete, so that it stays readable after they
 * are rebuilt or removed, and perfkit archive can pack them. */
static void fill_buildid_cache(struct pk_recorder *r)
{
	if (r->dsos && !r->o.no_buildid_cache)
		pki_rec_dsos_fill_cache(r->dsos, r->o.buildid_dir);
}

int pk_recorder_finish(struct pk_recorder *r, struct pk_recorder_summary *s)
{
	struct pk_writer_stats st;
	int err = 0, ferr;

	memset(s, 0, sizeof(*s));
	if (!r->w || r->start_failed)
		return -EINVAL; /* closing removes the unfinished file */
	if (!r->finished) {
		r->finished = true;
		if (r->child > 0 && !r->child_done) {
			kill(r->child, SIGTERM);
			pki_workload_reap(r, true);
		}
		pki_rec_enable(r, false);
		pk_writer_get_stats(r->w, &st);
		if (!st.write_failed)
			err = drain(r);
		if (r->dsos)
			pki_rec_dsos_write_build_ids(r->dsos, r->w);
		ferr = pk_writer_finish(r->w);
		if (ferr && !err) {
			err = ferr;
			pki_rec_fail(r, ferr, "%s", pk_writer_error(r->w));
		}
		if (!ferr)
			fill_buildid_cache(r);
	}
	pk_writer_get_stats(r->w, &st);
	s->bytes = st.bytes;
	s->samples = st.nr_samples;
	s->raw_bytes = st.raw_bytes;
	s->compressed_bytes = st.data_bytes;
	s->lost = r->lost;
	s->lost_records = r->lost_records;
	s->wakeups = r->wakeups;
	s->command_ran = r->child > 0;
	s->command_status = r->child_status;
	s->write_failed = st.write_failed;
	return err;
}

void pk_recorder_close(struct pk_recorder *r)
{
	if (!r)
		return;
	if (r->child > 0 && !r->child_done) {
		if (r->go_fd >= 0) {
			close(r->go_fd); /* the child exits without exec */
			r->go_fd = -1;
		} else {
			kill(r->child, SIGTERM);
		}
		pki_workload_reap(r, true);
	}
	pki_rec_close_events(r);
	pk_writer_close(r->w);
	pki_rec_dsos_free(r->dsos);
	if (r->go_fd >= 0)
		close(r->go_fd);
	if (r->err_fd >= 0)
		close(r->err_fd);
	if (r->pidfd >= 0)
		close(r->pidfd);
	if (r->stop_fd >= 0)
		close(r->stop_fd);
	pki_rec_free_stamped(r);
	free(r->cpus);
	free(r->threads);
	free(r);
}
