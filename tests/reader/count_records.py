#!/usr/bin/env python3
"""Count perf.data records by type, independently of perfkit's C reader.

A deliberately small second implementation (framing only), used to check
our counts on files the real perf 6.1 refuses (attr size 152, pipe-mode
zstd, COMPRESSED2).  Compressed payloads are unpacked by the zstd command
line tool; their records are counted as well as the compressed records
themselves, as perf does.  Prints "TYPE COUNT" lines sorted by type.
"""
import struct
import subprocess
import sys

COMPRESSED, COMPRESSED2 = 81, 83
AUXTRACE, TRACING_DATA = 71, 66


def frame(buf, off, end, counts, packed, pipe):
    while off + 8 <= end:
        typ, _misc, size = struct.unpack_from("<IHH", buf, off)
        if size < 8:
            raise SystemExit(f"bad record size {size} at {off:#x}")
        if off + size > end:
            raise SystemExit(f"record at {off:#x} runs past the end")
        counts[typ] = counts.get(typ, 0) + 1
        if typ == COMPRESSED:
            packed.append(bytes(buf[off + 8:off + size]))
        elif typ == COMPRESSED2:
            (n,) = struct.unpack_from("<Q", buf, off + 8)
            packed.append(bytes(buf[off + 16:off + 16 + n]))
        nxt = off + size
        if typ == AUXTRACE:
            (n,) = struct.unpack_from("<Q", buf, off + 8)
            nxt += n
        elif typ == TRACING_DATA and pipe:
            (n,) = struct.unpack_from("<I", buf, off + 8)
            nxt += (n + 7) & ~7
        off = nxt
    return off


def main(path):
    buf = open(path, "rb").read()
    if buf[:8] != b"PERFILE2":
        raise SystemExit("only little-endian PERFILE2 files are handled here")
    (hsize,) = struct.unpack_from("<Q", buf, 8)
    counts, packed = {}, []
    if hsize == 16:
        frame(buf, 16, len(buf), counts, packed, True)
    else:
        data_off, data_size = struct.unpack_from("<QQ", buf, 40)
        frame(buf, data_off, data_off + data_size, counts, packed, False)
    if packed:
        # perf flushes but never ends its zstd stream, so the tool reports
        # a "premature end" after writing everything: use what it wrote
        out = subprocess.run(["zstd", "-d", "-c", "-q"], input=b"".join(packed),
                             capture_output=True).stdout
        frame(out, 0, len(out), counts, [], False)
    for typ in sorted(counts):
        print(typ, counts[typ])


if __name__ == "__main__":
    main(sys.argv[1])
