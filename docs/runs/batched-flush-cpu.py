# Interleaved runs of one l4rs-bench row per process, two builds side by side; prints ops/ms and
# the process's CPU microseconds per event (user+sys over every event the row wrote, warm-up and
# the raw-bandwidth probe included), which a machine shared with other work disturbs less than
# ops/ms. Usage: BENCH_BASE=... BENCH_NEW=... BENCH_DIR=... python3 batched-flush-cpu.py ROUNDS
import os, resource, subprocess, sys
rows = [("File", "async-logger"), ("RandomAccessFile", "async-logger"),
        ("File", "async-appender"), ("RandomAccessFile", "async-appender"),
        ("File", "sync"), ("RandomAccessFile", "sync")]
for rnd in range(int(sys.argv[1])):
    for appender, mode in rows:
        for b in ("base", "new"):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            out = subprocess.run([os.environ["BENCH_" + b.upper()], "--appender", appender, "--mode", mode,
                                  "--dir", os.environ.get("BENCH_DIR", "target/l4rs-bench/logs")],
                                 capture_output=True, text=True).stdout
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            line = [l for l in out.splitlines() if l.startswith("RESULT")][0]
            f = dict(kv.split("=", 1) for kv in line.split()[1:])
            print(f"round={rnd} bin={b} row={f['appender']} ops_per_ms={float(f['ops_per_ms']):.1f} "
                  f"events={f['events']} cpu_us_per_event={cpu * 1e6 / int(f['events']):.3f} "
                  f"bg_alloc={f['background_alloc_bytes']} dropped={f['dropped']}", flush=True)
