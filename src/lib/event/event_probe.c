// SPDX-License-Identifier: MIT
/*
 * kprobe and uprobe events through the kernel's kprobe/uprobe PMUs
 * (Linux 4.17+): no tracefs probe definition is left behind, the probe
 * lives as long as the event.  attr.config1 points at the function name or
 * binary path, attr.config2 holds the offset; a return probe sets the
 * PMU's "retprobe" format bit.  Uprobe symbols are found in the binary's
 * ELF symbol tables and turned into file offsets through its PT_LOAD
 * headers.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "event_internal.h"

/* The vaddr of function `name` in elf (.symtab first, then .dynsym). */
static int find_symbol(Elf *elf, const char *name, uint64_t *vaddr)
{
	for (int pass = 0; pass < 2; pass++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;

		while ((scn = elf_nextscn(elf, scn))) {
			Elf_Data *data;

			if (!gelf_getshdr(scn, &sh) || sh.sh_entsize == 0 ||
			    sh.sh_type != (pass == 0 ? SHT_SYMTAB : SHT_DYNSYM))
				continue;
			data = elf_getdata(scn, NULL);
			for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
				GElf_Sym sym;
				const char *n;

				if (!gelf_getsym(data, (int)i, &sym) || sym.st_value == 0 ||
				    GELF_ST_TYPE(sym.st_info) != STT_FUNC)
					continue;
				n = elf_strptr(elf, sh.sh_link, sym.st_name);
				if (n && !strcmp(n, name)) {
					*vaddr = sym.st_value;
					return 0;
				}
			}
		}
	}
	return -ENOENT;
}

/* vaddr -> file offset through the executable PT_LOAD that holds it. */
static int vaddr_to_offset(Elf *elf, uint64_t vaddr, uint64_t *off)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ERANGE;
}

int pki_uprobe_offset(const char *path, const char *sym, uint64_t addr, uint64_t *off,
		      char *msg, size_t msgsize)
{
	uint64_t vaddr = addr;
	Elf *elf = NULL;
	int fd, err = 0;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(msg, msgsize, "cannot open %s: %s", path, strerror(errno));
		return err;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(msg, msgsize, "%s is not an ELF file", path);
		err = -EINVAL;
		goto out;
	}
	if (sym && (err = find_symbol(elf, sym, &vaddr))) {
		snprintf(msg, msgsize, "no function '%s' in %s", sym, path);
		goto out;
	}
	err = vaddr_to_offset(elf, vaddr + (sym ? addr : 0), off);
	if (err)
		snprintf(msg, msgsize, "address %#llx is not in a loaded segment of %s",
			 (unsigned long long)(vaddr + (sym ? addr : 0)), path);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

/* "name[+off]": split at '+'; off parsed in any base. */
static int split_offset(char *s, uint64_t *off)
{
	char *plus = strrchr(s, '+'), *end;

	*off = 0;
	if (!plus)
		return 0;
	*plus = 0;
	errno = 0;
	*off = strtoull(plus + 1, &end, 0);
	return errno || *end || end == plus + 1 ? -EINVAL : 0;
}

static int kprobe_attr(struct pk_event *ev, char *spec, char *msg, size_t msgsize)
{
	uint64_t off;

	if (!strncmp(spec, "0x", 2)) {
		/* an absolute kernel address: kprobe_func 0, kprobe_addr */
		char *end;

		ev->attr.config2 = strtoull(spec, &end, 16);
		if (*end) {
			snprintf(msg, msgsize, "bad kernel address '%s'", spec);
			return -EINVAL;
		}
		return 0;
	}
	if (split_offset(spec, &off) || !*spec) {
		snprintf(msg, msgsize, "expected FUNCTION[+OFFSET]");
		return -EINVAL;
	}
	ev->probe_target = strdup(spec);
	if (!ev->probe_target)
		return -ENOMEM;
	ev->attr.config1 = (uint64_t)(uintptr_t)ev->probe_target;
	ev->attr.config2 = off;
	return 0;
}

static int uprobe_attr(struct pk_event *ev, char *spec, char *msg, size_t msgsize)
{
	char *colon = strrchr(spec, ':'), *where;
	uint64_t off = 0, addr = 0, file_off;
	const char *sym = NULL;
	int err;

	if (!colon || colon == spec || !colon[1]) {
		snprintf(msg, msgsize, "expected /PATH:SYMBOL[+OFFSET] or /PATH:0xADDRESS");
		return -EINVAL;
	}
	*colon = 0;
	where = colon + 1;
	if (!strncmp(where, "0x", 2)) {
		char *end;

		addr = strtoull(where, &end, 16);
		if (*end) {
			snprintf(msg, msgsize, "bad address '%s'", where);
			return -EINVAL;
		}
	} else {
		if (split_offset(where, &off) || !*where) {
			snprintf(msg, msgsize, "expected SYMBOL[+OFFSET]");
			return -EINVAL;
		}
		sym = where;
		addr = off;
	}
	err = pki_uprobe_offset(spec, sym, addr, &file_off, msg, msgsize);
	if (err)
		return err;
	ev->probe_target = realpath(spec, NULL);
	if (!ev->probe_target)
		return -errno;
	ev->attr.config1 = (uint64_t)(uintptr_t)ev->probe_target;
	ev->attr.config2 = file_off;
	return 0;
}

int pki_probe_event_init(struct pk_event *ev, const char *sysfs, bool user, bool ret,
			 const char *spec, size_t len, char *msg, size_t msgsize)
{
	const char *pmu_name = user ? "uprobe" : "kprobe";
	struct pki_pmu pmu;
	char *copy;
	int err;

	if (pki_pmu_open(&pmu, sysfs, pmu_name)) {
		snprintf(msg, msgsize,
			 "this kernel has no %s PMU (%s/bus/event_source/devices/%s): it is "
			 "older than 4.17 or built without %s",
			 pmu_name, sysfs, pmu_name, user ? "CONFIG_UPROBE_EVENTS" : "CONFIG_KPROBES");
		return -ENODEV;
	}
	ev->attr.type = pmu.type;
	/* counted and sampled on every hit, as tracepoints are */
	ev->attr.sample_period = 1;
	if (ret && pki_pmu_apply_term(&pmu, &ev->attr, "retprobe", 1)) {
		snprintf(msg, msgsize, "the %s PMU has no retprobe format bit", pmu_name);
		return -EINVAL;
	}
	ev->pmu = strdup(pmu_name);
	copy = strndup(spec, len);
	if (!ev->pmu || !copy) {
		free(copy);
		return -ENOMEM;
	}
	err = user ? uprobe_attr(ev, copy, msg, msgsize) : kprobe_attr(ev, copy, msg, msgsize);
	free(copy);
	return err;
}
