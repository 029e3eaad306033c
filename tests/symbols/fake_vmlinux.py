#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a stand-in vmlinux (x86-64 ELF) made from a kallsyms file.

Usage: fake_vmlinux.py KALLSYMS NOTES OUT [SHIFT [BUILD-ID]]

Every text symbol of the kernel proper (t/T/w/W lines without a module)
from _stext on is placed at its address, minus SHIFT (hex, default 0: an
image linked where the kernel did not run, as KASLR makes it), in one
.text section, as a function sized up to the next address; t symbols are
local, W weak.  The .notes section is NOTES (/sys/kernel/notes, as in a
real vmlinux), with the GNU build id replaced by BUILD-ID (hex) when
given; with NOTES "-", a GNU note of BUILD-ID alone.  The assembler cannot do this: the kernel has many local symbols
of one name (static functions of different files).
"""
import struct
import sys


def notes_with_id(data, new_id):
    """data's notes, with the GNU build id's bytes replaced by new_id."""
    out = bytearray(data)
    off = 0
    while off + 12 <= len(data):
        namesz, descsz, ntype = struct.unpack_from('<III', data, off)
        name = data[off + 12:off + 12 + namesz]
        desc = off + 12 + ((namesz + 3) & ~3)
        if ntype == 3 and name.rstrip(b'\0') == b'GNU':
            if new_id is not None:
                if len(new_id) != descsz:
                    sys.exit('build id of another size')
                out[desc:desc + descsz] = new_id
            return bytes(out)
        off = desc + ((descsz + 3) & ~3)
    sys.exit('no GNU build id note')


def text_symbols(path):
    syms = []
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[1] in 'tTwW':
            syms.append((int(f[0], 16), f[1], f[2]))
    return syms


def shdr(name, stype, flags, addr, off, size, link=0, info=0, align=1, ent=0):
    return struct.pack('<IIQQQQIIQQ', name, stype, flags, addr, off, size,
                       link, info, align, ent)


def main():
    kallsyms, notes_path, out = sys.argv[1:4]
    shift = int(sys.argv[4], 16) if len(sys.argv) > 4 else 0
    new_id = bytes.fromhex(sys.argv[5]) if len(sys.argv) > 5 else None
    if notes_path == '-':  # no notes file: a GNU note of BUILD-ID alone
        notes = struct.pack('<III4s', 4, len(new_id), 3, b'GNU\0') + new_id
    else:
        notes = notes_with_id(open(notes_path, 'rb').read(), new_id)
    syms = text_symbols(kallsyms)
    stext = [a for a, _, n in syms if n == '_stext']
    if not stext or stext[0] == 0:
        sys.exit('no _stext address in ' + kallsyms)
    base = stext[0]
    syms = sorted(s for s in syms if s[0] >= base)
    addrs = sorted({a for a, _, _ in syms})
    nxt = dict(zip(addrs, addrs[1:]))
    text_addr = base - shift
    text_size = addrs[-1] - base + 16
    text_off = 0x200000

    strtab = bytearray(b'\0')
    local, other = [], []
    for a, t, n in syms:
        bind = {'t': 0, 'T': 1, 'W': 2, 'w': 2}[t]
        ent = struct.pack('<IBBHQQ', len(strtab), bind << 4 | 2, 0, 2,
                          a - shift, nxt.get(a, a + 16) - a)
        strtab += n.encode() + b'\0'
        (local if bind == 0 else other).append(ent)
    symtab = struct.pack('<IBBHQQ', 0, 0, 0, 0, 0, 0) + b''.join(local + other)
    shstr = b'\0.notes\0.text\0.symtab\0.strtab\0.shstrtab\0'
    nm = {n: shstr.index(n.encode() + b'\0') for n in
          ('.notes', '.text', '.symtab', '.strtab', '.shstrtab')}

    notes_off = 0x1000
    sym_off = text_off + text_size
    sym_off += -sym_off % 8
    str_off = sym_off + len(symtab)
    shs_off = str_off + len(strtab)
    sh_off = shs_off + len(shstr)
    sh_off += -sh_off % 8
    ehdr = struct.pack('<16sHHIQQQIHHHHHH',
                       b'\x7fELF\x02\x01\x01' + bytes(9), 2, 62, 1,
                       text_addr, 64, sh_off, 0, 64, 56, 1, 64, 6, 5)
    phdr = struct.pack('<IIQQQQQQ', 1, 5, text_off, text_addr, text_addr - 0xffffffff80000000
                       if text_addr >= 0xffffffff80000000 else text_addr,
                       text_size, text_size, 0x200000)
    shdrs = (shdr(0, 0, 0, 0, 0, 0) +
             shdr(nm['.notes'], 7, 2, 0, notes_off, len(notes), align=4) +
             shdr(nm['.text'], 1, 6, text_addr, text_off, text_size, align=4096) +
             shdr(nm['.symtab'], 2, 0, 0, sym_off, len(symtab), link=4,
                  info=1 + len(local), align=8, ent=24) +
             shdr(nm['.strtab'], 3, 0, 0, str_off, len(strtab)) +
             shdr(nm['.shstrtab'], 3, 0, 0, shs_off, len(shstr)))
    with open(out, 'wb') as f:
        f.write(ehdr + phdr)
        f.seek(notes_off)
        f.write(notes)
        f.seek(sym_off)  # .text stays a hole: zeros that take no space
        f.write(symtab)
        f.write(strtab)
        f.write(shstr)
        f.seek(sh_off)
        f.write(shdrs)


main()
