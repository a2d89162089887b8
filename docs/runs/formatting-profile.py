# Sums the perf samples (cpu-clock at 2000 Hz: 500 us each) of the formatting (l4rs_layout and
# EventSnapshot::render) and of the copies (memmove), on the queue's thread and on the producers,
# per event the row wrote (warm-up included), from `perf report --sort comm,sym -n --stdio`.
# Usage: python3 formatting-profile.py EVENTS < REPORT
import re, sys
events = int(sys.argv[1])
sums = {}
for line in sys.stdin:
    m = re.match(r"\s+[\d.]+%\s+(\d+)\s+(\S+)\s+\[[.k]\]\s+(.*)", line)
    if not m:
        continue
    samples, comm, sym = int(m.group(1)), m.group(2), m.group(3)
    thread = "queue thread" if comm.startswith("AsyncLogger") else (
        "producers" if re.fullmatch(r"bench-\d+", comm) else None)
    if thread is None:
        continue
    kind = ("formatting" if sym.startswith("l4rs_layout::") or "EventSnapshot::render" in sym
            else "copying (memmove)" if "memmove" in sym else None)
    if kind:
        sums[(thread, kind)] = sums.get((thread, kind), 0) + samples
for (thread, kind), samples in sorted(sums.items()):
    print(f"{thread:12s} {kind:18s} samples={samples:5d} us_per_event={samples * 500 / events:.3f}")
