# Where the writing threads of an l4rs-bench row spend their time, per thread group (the
# producers "bench-N" counted together): the measurements of runs/mmf-faults-2026-12-03.txt.
#
# Beside a running row (python3 fault-profile.py SUBCOMMAND ... & l4rs-bench ...):
#   states NAME COUNT DELAY     thread states and wait channels, COUNT samples 50 ms apart from
#                               DELAY s on, of the newest process called NAME
#   counts NAME T0 T1           minor/major page faults per thread between T0 s and T1 s
# After a run:
#   share PERF_DATA             of `perf record -e cpu-clock -g`: each thread's samples, and the
#                               share inside a page fault, zeroing in ext4's read path, madvise
#   kinds < PERF_SCRIPT         of `perf script -F comm,time,trace` of exceptions:page_fault_user:
#                               faults by thread and kind, the queue writer's in runs of pages
#   regions < PERF_SCRIPT       the same recorded with `perf record -d` and printed with
#                               --show-mmap-events: the writer's faults by offset in their region
import bisect, collections, glob, re, subprocess, sys, time

# The queue's writer thread of the AsyncLogger rows, as the kernel names it (15 characters).
WRITER = "AsyncLoggerConf"
FAULT = re.compile(r"^\s*(\S+)\s+([\d.]+):\s+address=(0x[0-9a-f]+)\s+ip=\S+\s+error_code=(0x[0-9a-f]+)")
MMAP = re.compile(r"\s([\d.]+): PERF_RECORD_MMAP2 \S+ \[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0) .*memory-mapped-file")


# The benchmark's producer threads are called bench-0, bench-1, ... (the main thread is named
# after the binary, which may also start with "bench-").
PRODUCER = re.compile(r"bench-\d+$")


def group(comm):
    return "producers" if PRODUCER.match(comm) else comm


def newest(name):
    return subprocess.run(["pgrep", "-n", name], capture_output=True, text=True).stdout.strip()


def threads(pid):
    """(task path, thread name, fields after the name) of every thread of `pid`."""
    for task in glob.glob(f"/proc/{pid}/task/*"):
        try:
            stat = open(task + "/stat").read()
        except OSError:
            continue
        yield task, stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:].split()


def states(name, count, delay):
    time.sleep(delay)
    pid = newest(name)
    counts = collections.Counter()
    for _ in range(count):
        for task, comm, fields in threads(pid):
            try:
                wchan = open(task + "/wchan").read().strip() or "0"
            except OSError:
                continue
            comm = "bench-N (producers)" if PRODUCER.match(comm) else comm
            counts[(comm, fields[0], wchan)] += 1
        time.sleep(0.05)
    for (comm, state, wchan), c in counts.most_common(25):
        print(f"{c:7d} {comm:24s} {state} {wchan}")


def counts(name, t0, t1):
    time.sleep(t0)
    pid = newest(name)
    read = lambda: {task: (comm, int(f[7]), int(f[9])) for task, comm, f in threads(pid)}
    before = read()
    time.sleep(t1 - t0)
    totals = {}
    for task, (comm, minor, major) in read().items():
        if task in before:
            total = totals.setdefault(group(comm), [0, 0])
            total[0] += minor - before[task][1]
            total[1] += major - before[task][2]
    for comm, (minor, major) in sorted(totals.items()):
        print(f"  {comm:16s} minor {minor:8d}  major {major:8d}")


def share(data):
    out = subprocess.run(["perf", "script", "-i", data, "-F", "comm,ip,sym"], capture_output=True, text=True).stdout
    stats = collections.defaultdict(lambda: [0, 0, 0, 0])
    for block in out.split("\n\n"):
        lines = block.strip().split("\n")
        if not lines or not lines[0].strip():
            continue
        s = stats[group(lines[0].split()[0])]
        s[0] += 1
        s[1] += "asm_exc_page_fault" in block
        s[2] += "zero_user_segments" in block
        s[3] += "madvise" in block
    total = sum(s[0] for s in stats.values())
    print(f"{data}: {total} samples")
    for comm, (n, fault, zero, madv) in sorted(stats.items(), key=lambda kv: -kv[1][0]):
        print(f"  {comm:16s} {n:6d} ({100*n/total:4.1f}%)  in a page fault {100*fault/max(n,1):4.1f}%  "
              f"zeroing in ext4's read path {100*zero/max(n,1):4.1f}%  in madvise {100*madv/max(n,1):4.1f}%")


def writer_faults(lines):
    """(time, address) of the writer's write faults on absent pages (error code 0x6)."""
    for m in filter(None, map(FAULT.search, lines)):
        if m.group(1) == WRITER and int(m.group(4), 16) == 0x6:
            yield float(m.group(2)), int(m.group(3), 16)


def kinds(lines):
    lines = list(lines)
    found = collections.Counter()
    for m in filter(None, map(FAULT.search, lines)):
        code = int(m.group(4), 16)
        found[(group(m.group(1)), "present" if code & 1 else "not-present", "write" if code & 2 else "read")] += 1
    runs, prev, start, n = [], None, None, 0
    for _, address in writer_faults(lines):
        page = address & ~0xFFF
        if prev is not None and 0 < page - prev <= 4 * 4096:
            n += 1
        else:
            if start is not None:
                runs.append((start, n))
            start, n = page, 1
        prev = page
    runs.append((start, n))
    for (comm, present, access), count in found.most_common():
        print(f"  {count:7d} {comm} {present} {access}")
    lengths = sorted(r[1] for r in runs)
    big = [r for r in runs if r[1] >= 64]
    print(f"  writer's absent-page write faults: {sum(lengths)} in {len(runs)} runs; median run {lengths[len(lengths)//2]} pages, max {lengths[-1]}")
    print(f"  runs of 64 pages or more: {len(big)}, holding {sum(r[1] for r in big)} faults; their first pages (a region's mapping "
          f"reuses the address of the one before): {collections.Counter(hex(s) for s, _ in big).most_common(3)}")


def regions(lines):
    lines = list(lines)
    maps = [(float(m.group(1)), int(m.group(2), 16), int(m.group(3), 16)) for m in filter(None, map(MMAP.search, lines))]
    times = [t for t, _, _ in maps]
    offsets = []
    for t, address in writer_faults(lines):
        i = bisect.bisect_right(times, t) - 1
        while i >= 0 and not maps[i][1] <= address < maps[i][1] + maps[i][2]:
            i -= 1  # the latest mapping at or before the fault that covers its address
        offsets.append(address - maps[i][1] if i >= 0 else None)
    inside = [o for o in offsets if o is not None]
    print("  by 256 KiB of region offset:", sorted(collections.Counter(o >> 18 for o in inside).items())[:40])
    print(f"  regions mapped: {len(maps)}; writer's absent-page write faults: {len(offsets)}")
    buckets = {"first 1 MiB of a region": sum(o < 1 << 20 for o in inside),
               "1-4 MiB": sum(1 << 20 <= o < 4 << 20 for o in inside),
               "beyond 4 MiB": sum(o >= 4 << 20 for o in inside),
               "outside the log's mappings": len(offsets) - len(inside)}
    for name, count in buckets.items():
        print(f"  {name:28s} {count:7d} ({100 * count / max(len(offsets), 1):4.1f}%)")


command, args = sys.argv[1], sys.argv[2:]
if command == "states":
    states(args[0], int(args[1]), float(args[2]))
elif command == "counts":
    counts(args[0], float(args[1]), float(args[2]))
elif command == "share":
    share(args[0])
elif command == "kinds":
    kinds(sys.stdin)
elif command == "regions":
    regions(sys.stdin)
else:
    sys.exit(f"fault-profile: unknown subcommand {command}")
