# Interleaved runs of one l4rs-bench row per process, one or two builds side by side; prints
# ops/ms, the process's CPU microseconds per event (user+sys over every event the row wrote,
# warm-up and the raw-bandwidth probe included), which a machine shared with other work
# disturbs less than ops/ms, and the CPUs it kept busy on average (CPU time over the process's
# wall time). On two cores, a row at ~2 CPUs is bound by CPU: no design that adds work per event
# can be faster than it.
#
# Usage: BENCH_NEW=... [BENCH_BASE=...] [BENCH_DIR=...] [BENCH_ROWS=Appender:mode,...]
#        [BENCH_ARGS="--warmup 2s --measure 5s"] python3 cpu-per-event.py ROUNDS
#        python3 cpu-per-event.py pairs < OUTPUT    new/base per row and round, the rounds
#                                                   where base ran first apart from the others
#        python3 cpu-per-event.py ratios ROW < OUTPUT  each build's other rows / its ROW
#                                                   (e.g. MemoryMappedFile), per round
# BENCH_ROWS defaults to the batched-flush comparison's six rows (File and RandomAccessFile,
# sync and both asynchronous modes). With BENCH_DISK_PROBE=1 each round starts by measuring the
# disk's durable write rate under BENCH_DIR (GNU dd, 3000 MiB, conv=fdatasync), to set beside
# the rows' write_mb_per_s. The builds alternate which runs first from round to round, so use an
# even number of rounds.
import os, resource, statistics, subprocess, sys, time
default_rows = ("File:async-logger,RandomAccessFile:async-logger,File:async-appender,"
                "RandomAccessFile:async-appender,File:sync,RandomAccessFile:sync")
rows = [tuple(r.split(":")) for r in os.environ.get("BENCH_ROWS", default_rows).split(",")]
builds = [b for b in ("base", "new") if "BENCH_" + b.upper() in os.environ]
extra = os.environ.get("BENCH_ARGS", "").split()
folder = os.environ.get("BENCH_DIR", "target/l4rs-bench/logs")


def read_runs(lines):
    """The runs of one output of this tool, in the order they ran: {(row, round): [(build,
    ops/ms, CPU µs per event, events), ...]}."""
    runs = {}
    for line in lines:
        if not line.startswith("round=") or " bin=" not in line:
            continue
        f = dict(kv.split("=", 1) for kv in line.split())
        key = (f["row"], int(f["round"]))
        runs.setdefault(key, []).append(
            (f["bin"], float(f["ops_per_ms"]), float(f["cpu_us_per_event"]), int(f["events"])))
    return runs


def pairs():
    """new/base of ops/ms, of CPU per event and of the events written (warm-up included) for
    each row and round of one two-build run read from stdin, with which build ran first; then
    the medians over the rounds each build led."""
    runs = read_runs(sys.stdin)
    summary = {}
    for (row, rnd), pair in sorted(runs.items()):
        if len(pair) > 2:
            sys.exit(f"cpu-per-event pairs: {row} has {len(pair)} runs in round {rnd}: "
                     "give it the output of one run")
        by = {b: values for b, *values in pair}
        if set(by) != {"base", "new"}:
            continue
        first = pair[0][0]
        ratios = [n / b for n, b in zip(by["new"], by["base"])]
        summary.setdefault(row, {}).setdefault(first, []).append(ratios)
        print(f"{row:32s} round={rnd} first={first:4s} new/base ops_per_ms={ratios[0]:.3f} "
              f"cpu_per_event={ratios[1]:.3f} events={ratios[2]:.3f}")
    if not summary:
        sys.exit("cpu-per-event pairs: no round with both a base and a new run")
    for row, led in summary.items():
        for first, ratios in sorted(led.items()):
            median = [statistics.median(r[i] for r in ratios) for i in range(3)]
            print(f"{row:32s} {first} first in {len(ratios)} round(s): median new/base "
                  f"ops_per_ms={median[0]:.3f} cpu_per_event={median[1]:.3f} events={median[2]:.3f}")


def ratios(reference):
    """Each build's ops/ms of every other row over its `reference` row's, per round, of one run
    read from stdin (the rows ran in BENCH_ROWS order, so a ratio also carries that order)."""
    ops = {(row, rnd, build): value for (row, rnd), runs in read_runs(sys.stdin).items()
           for build, value, _, _ in runs}
    if not any(row == reference for row, _, _ in ops):
        sys.exit(f"cpu-per-event ratios: no {reference} row in the input")
    others = sorted({row for row, _, _ in ops if row != reference})
    for build in ("base", "new"):
        for rnd in sorted({r for row, r, b in ops if row == reference and b == build}):
            base = ops[(reference, rnd, build)]
            print(build, f"round={rnd}", *(f"{row}/{reference}={ops[(row, rnd, build)] / base:.2f}"
                                            for row in others if (row, rnd, build) in ops))


def run(rounds):
    for rnd in range(rounds):
        if os.environ.get("BENCH_DISK_PROBE"):
            os.makedirs(folder, exist_ok=True)
            probe = os.path.join(folder, "dd-durable")
            dd = subprocess.run(["dd", "if=/dev/zero", "of=" + probe, "bs=1M", "count=3000", "conv=fdatasync"],
                                capture_output=True, text=True)
            if os.path.exists(probe):
                os.remove(probe)
            if dd.returncode != 0:
                sys.exit("cpu-per-event: dd failed: " + dd.stderr.strip())
            print(f"round={rnd} disk_durable: {dd.stderr.strip().splitlines()[-1]}", flush=True)
        for appender, mode in rows:
            # The two builds take turns going first: in A/A runs of one binary the second run of
            # the synchronous MemoryMappedFile row's pair was mostly the faster
            # (runs/order-in-interleaved-runs-2026-12-04.txt), and a fixed order would credit
            # that to the build that always runs second.
            for b in (builds if rnd % 2 == 0 else builds[::-1]):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.monotonic()
                out = subprocess.run([os.environ["BENCH_" + b.upper()], "--appender", appender, "--mode", mode,
                                      "--dir", folder] + extra,
                                     capture_output=True, text=True).stdout
                wall = time.monotonic() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                line = [l for l in out.splitlines() if l.startswith("RESULT")][0]
                f = dict(kv.split("=", 1) for kv in line.split()[1:])
                print(f"round={rnd} bin={b} row={f['appender']} ops_per_ms={float(f['ops_per_ms']):.1f} "
                      f"events={f['events']} cpu_us_per_event={cpu * 1e6 / int(f['events']):.3f} "
                      f"cpus={cpu / wall:.2f} write_mb_per_s={f['write_mb_per_s']} "
                      f"bg_alloc={f['background_alloc_bytes']} dropped={f['dropped']}",
                      flush=True)


if sys.argv[1] == "pairs":
    pairs()
elif sys.argv[1] == "ratios":
    ratios(sys.argv[2])
else:
    run(int(sys.argv[1]))
