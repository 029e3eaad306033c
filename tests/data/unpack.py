#!/usr/bin/env python3
# Decompress test data kept xz-compressed in the repository (perf.data files
# shrink to a tenth) into OUTDIR, one file per input, without the ".xz".
# usage: unpack.py OUTDIR FILE.xz...
import lzma
import os
import sys


def main():
    out = sys.argv[1]
    for src in sys.argv[2:]:
        name = os.path.basename(src)
        if not name.endswith('.xz'):
            sys.exit('unpack.py: %s: not an .xz file' % src)
        dst = os.path.join(out, name[:-3])
        with lzma.open(src) as f:
            data = f.read()
        tmp = dst + '.tmp'
        with open(tmp, 'wb') as f:
            f.write(data)
        os.replace(tmp, dst)


main()
