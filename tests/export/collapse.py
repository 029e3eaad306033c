#!/usr/bin/env python3
# Collapse `perf script` output into folded stacks, following the rules
# of Brendan Gregg's stackcollapse-perf.pl (written here from its
# documented behaviour, not from its code):
#  - a sample starts with a header line "comm pid[/tid] ... event:" and
#    its stack follows, one "addr symbol+off (dso)" line per frame, leaf
#    first, up to a blank line;
#  - the stack is printed root first, after the comm (spaces -> '_');
#  - "+0x..." offsets are dropped; an unknown symbol in a known dso
#    becomes "[dso basename]";
#  - a demangled argument list "(...)" is dropped, ';' becomes ':';
#  - only the first event seen is counted, each sample counts 1;
#  - output sorted, "stack count".
import re
import sys

HEADER = re.compile(r'^(\S.*?)\s+(\d+)(?:/(\d+))?\s+.*?(\S+):\s*$')
FRAME = re.compile(r'^\s*(\w+)\s*(.+) \((\S*)\)$')


def tidy(func):
    if '(' in func[1:]:
        i = func.find('(', 1)
        if not func.startswith('(anonymous namespace)', i):
            func = func[:i]
    return func.replace(';', ':')


def frame_name(raw, mod):
    raw = re.sub(r'\+0x[0-9a-f]+$', '', raw)
    if raw == '[unknown]' and mod != '[unknown]':
        base = mod.rsplit('/', 1)[-1]
        return '[%s]' % base
    return tidy(raw)


def main():
    counts = {}
    first_event = None
    comm = None
    event = None
    stack = []

    def flush():
        if comm is None or event != first_event:
            return
        key = ';'.join([comm.replace(' ', '_')] + stack[::-1])
        counts[key] = counts.get(key, 0) + 1

    for line in sys.stdin:
        line = line.rstrip('\n')
        if not line.strip():
            flush()
            comm, stack = None, []
            continue
        if comm is None:
            m = HEADER.match(line)
            if m:
                comm, event = m.group(1), m.group(4)
                if first_event is None:
                    first_event = event
            continue
        m = FRAME.match(line)
        if m:
            stack.append(frame_name(m.group(2), m.group(3)))
    flush()
    for k in sorted(counts):
        print('%s %d' % (k, counts[k]))


main()
