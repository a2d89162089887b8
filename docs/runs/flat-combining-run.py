#!/usr/bin/env python3
# Output lines: docs/runs/flat-combining-2026-12-02.txt. PEER is rust-peers' bench built from
# ../shared/anchors/rust-peers (cargo build --release --bin bench); L4RS_BIN an l4rs-bench release build
# of branch experiment/flat-combining (its L4RS_GW knob picks the variant; "off" is the current code).
"""Interleaved rounds: ideal-file (rust-peers) vs l4rs variants. usage: run.py ROUNDS OUT VARIANT..."""
import os, re, resource, subprocess, sys, statistics, time, shutil
rounds = int(sys.argv[1]); out = open(sys.argv[2], 'a'); variants = sys.argv[3:]
PEER = '/tmp/c18/peers/target/release/bench'
L4RS = os.environ.get('L4RS_BIN', '/tmp/c18/l4rs-bench')
W, M = os.environ.get('W', '1'), os.environ.get('M', '3')
DIR = '/tmp/c18/rundir'
def run(v):
    shutil.rmtree(DIR, ignore_errors=True); os.makedirs(DIR)
    env = dict(os.environ)
    if v == 'ideal-file':
        cmd = [PEER, 'ideal-file', '4', W, M, DIR + '/peer']
    else:
        # v = APPENDER:KNOBS  e.g. File:off  File:32,16,4
        app, knobs = v.split(':')
        env['L4RS_GW'] = knobs if knobs != 'default' else ''
        if knobs == 'default': env.pop('L4RS_GW')
        cmd = [L4RS, '--mode', 'sync', '--appender', app, '--warmup', W + 's', '--measure', M + 's', '--dir', DIR]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    perf = DIR + '.perf'
    p = subprocess.run(['perf', 'stat', '-x,', '-e', 'syscalls:sys_enter_write,context-switches', '-o', perf, 'nice', '-n', '5'] + cmd, env=env, capture_output=True, text=True, timeout=300)
    lines = [l for l in p.stdout.splitlines() if l.startswith('RESULT')]
    line = lines[0] if lines else 'NO RESULT ' + p.stdout[-300:] + p.stderr[-300:]
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = re.search(r'ops_per_ms=([0-9.]+)', line)
    ev = re.search(r' (?:events|total_ops)=([0-9]+)', line)
    cpu_us = cpu * 1e6 / int(ev.group(1)) if ev else None
    counts = {}
    for l in open(perf):
        f = l.strip().split(',')
        if len(f) > 2 and f[0].isdigit(): counts[f[2]] = int(f[0])
    evn = int(ev.group(1)) if ev else 0
    extra = ' '.join(f"{k.split(':')[-1]}_per_event={v / evn:.4f}" for k, v in counts.items()) if evn else ''
    return (float(m.group(1)) if m else None), extra + f" cpu_us_per_event={cpu_us and round(cpu_us, 3)} " + line
res = {v: [] for v in variants}
for r in range(rounds):
    ideal = None
    for v in variants:
        ops, line = run(v)
        load = open('/proc/loadavg').read().split()[0]
        if v == 'ideal-file': ideal = ops
        ratio = (ops / ideal) if (ops and ideal) else None
        res[v].append((ops, ratio))
        msg = f"round={r+1} variant={v} load={load} ops_per_ms={ops} ratio_to_ideal={ratio and round(ratio,3)} time={time.strftime('%H:%M:%S')} :: {line}"
        print(msg, flush=True); out.write(msg + '\n'); out.flush()
for v in variants:
    ops = [o for o, _ in res[v] if o]; rat = [x for _, x in res[v] if x]
    msg = f"MEDIAN variant={v} ops_per_ms={ops and statistics.median(ops):.1f} ratio_to_ideal={rat and statistics.median(rat):.3f} n={len(ops)}" if ops else f"MEDIAN variant={v} none"
    print(msg); out.write(msg + '\n')
