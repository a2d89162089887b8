import java.io.File;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AsyncAppender;
import org.apache.logging.log4j.core.async.AsyncLoggerConfig;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.jmx.RingBufferAdmin;

/**
 * l4rs-bench's log4j2 side: the log4j2 appender benchmark's workload on one log4j2 logger, run by
 * {@code l4rs-bench --vs-log4j2} in its own JVM between the l4rs rows.
 *
 * <pre>
 * java -Dbench.dir=DIR -cp BUILD:JARS L4rsLog4j2Harness --config FILE --logger NAME --label LABEL
 *      --files PATH[,PATH] --threads N --warmup-ms MS --measure-ms MS [--rate-per-thread R]
 * </pre>
 *
 * Prints one line {@code RESULT appender=LABEL threads=N ops_per_ms=... alloc_bytes_per_op=...
 * alloc_mb_per_s=... bytes_per_event=... write_mb_per_s=... ops=... seconds=... alloc_bytes=...
 * events=... bytes_written=... lib=log4j2 ...} (the raw figures after the derived ones, so the
 * Rust side recomputes everything the same way), or {@code SKIPPED ... reason="..."}.
 *
 * <p>The measurement is end to end, as on the Rust side: after the window the workers stop and
 * the harness waits until every asynchronous stage of the configuration is empty (the
 * AsyncLoggerConfig ring buffer of {@code <AsyncLogger>}s, each {@code <Async>} appender's
 * queue); {@code seconds} runs from the window's start to that point. {@code alloc_bytes} is the
 * workers' own allocation in the window; {@code background_alloc_bytes} that of every other
 * live thread from the window's start until drained.
 *
 * <p>With {@code --rate-per-thread R} (l4rs-bench {@code --latency}) each worker instead calls at
 * R calls per second on a fixed schedule from a common start, times every call of the window
 * from its scheduled start (so a stall also counts against the calls due behind it) into a
 * preallocated histogram of the same layout as l4rs-bench's ({@code latency/histogram.rs}), and
 * the harness prints {@code LATENCY appender=... threads=... lib=log4j2 rate_per_thread=...
 * due=... calls=... p50_ns=... ... max_ns=...} with the same keys.
 */
public final class L4rsLog4j2Harness {

    /** 100 characters, the same text the Rust side logs. */
    private static final String MESSAGE =
            "l4rs benchmark event: a fixed one-hundred-character message, logged at DEBUG level by every thread..";

    private static final double ERROR_SHARE = 0.2;
    private static final int DEPTH = 100;
    /** Counter slots are this many longs apart, so workers do not share cache lines. */
    private static final int STRIDE = 16;

    private static volatile boolean go = true;

    /** The histogram's layout: 2^7 buckets per power of two, as latency/histogram.rs. */
    private static final int SUB_BITS = 7;
    private static final int SUB_COUNT = 1 << SUB_BITS;
    private static final int BUCKETS = SUB_COUNT * (64 - SUB_BITS + 1);
    /** The reported percentiles and their keys, as latency/result.rs's PERCENTILES. */
    private static final double[] PERCENTILES = {50, 75, 90, 99, 99.5, 99.9, 99.95, 99.99, 99.995, 99.999, 100};
    private static final String[] PERCENTILE_KEYS = {"p50", "p75", "p90", "p99", "p99_5", "p99_9", "p99_95",
        "p99_99", "p99_995", "p99_999", "max"};
    /** A worker sleeps while more than this is left before its next call, else yields. */
    private static final long SLEEP_ABOVE_NS = 200_000;

    static int bucket(final long value) {
        if (value < SUB_COUNT) {
            return (int) Math.max(0, value);
        }
        final int msb = 63 - Long.numberOfLeadingZeros(value);
        final int shift = msb - SUB_BITS;
        final int mantissa = (int) (value >>> shift);
        return (shift + 1) * SUB_COUNT + mantissa - SUB_COUNT;
    }

    static long highestIn(final int bucket) {
        if (bucket < SUB_COUNT) {
            return bucket;
        }
        final int shift = bucket / SUB_COUNT - 1;
        final long mantissa = SUB_COUNT + bucket % SUB_COUNT;
        final long top = ((mantissa + 1) << shift) - 1;
        return top < 0 ? Long.MAX_VALUE : top;
    }

    /** The value at {@code percentile} of the merged counts, capped at the exact maximum. */
    static long valueAt(final long[] counts, final long total, final long max, final double percentile) {
        if (total == 0) {
            return 0;
        }
        if (percentile >= 100) {
            return max;
        }
        final long rank = Math.max(1, Math.min(total, (long) Math.ceil(percentile / 100.0 * total - 1e-6)));
        long seen = 0;
        for (int b = 0; b < counts.length; b++) {
            seen += counts[b];
            if (seen >= rank) {
                return Math.min(highestIn(b), max);
            }
        }
        return max;
    }

    private static void waitUntil(final long start, final long dueNs) {
        while (true) {
            final long left = dueNs - (System.nanoTime() - start);
            if (left <= 0) {
                return;
            }
            if (left > SLEEP_ABOVE_NS) {
                LockSupport.parkNanos(left - SLEEP_ABOVE_NS / 2);
            } else {
                Thread.yield();
            }
        }
    }

    /**
     * Writes the log files' dirty pages to the disk and waits, as latency/settle.rs does for l4rs:
     * the flat-out warm-up must not leave its write-back to stall the timed window, since a faster
     * library would otherwise be judged by how much more its own warm-up wrote.
     */
    private static void writeBack(final String[] files) {
        for (final String file : files) {
            if (file.isEmpty()) {
                continue;
            }
            try (FileChannel channel = FileChannel.open(Paths.get(file), StandardOpenOption.READ)) {
                channel.force(true);
            } catch (IOException e) {
                // A file the configuration never created has nothing to write back.
            }
        }
    }

    /**
     * The fixed-rate run, as l4rs-bench's latency/record.rs: every worker first logs flat out for
     * the warm-up (a fixed low rate would leave the JIT cold for many seconds), then, once the
     * queues are drained and the files written back ({@link #writeBack}), calls on its schedule and
     * records every call of the window; then the drain and the LATENCY line.
     */
    private static void latency(final Logger logger, final Throwable error, final int workers, final double rate,
            final long warmupMs, final long measureMs, final Configuration configuration, final RingBufferAdmin ring,
            final String head, final String label, final LoggerContext context, final String[] files)
            throws InterruptedException {
        final double interval = 1e9 / rate;
        final long end = (long) Math.ceil(measureMs * 1e6 / interval);
        final long warmUntil = System.nanoTime() + warmupMs * 1_000_000L;
        final CyclicBarrier barrier = new CyclicBarrier(workers + 1);
        final long[] startHolder = new long[1];
        final long[][] histograms = new long[workers][BUCKETS];
        final long[] totals = new long[workers];
        final long[] maxima = new long[workers];
        final Thread[] pool = new Thread[workers];
        for (int w = 0; w < workers; w++) {
            final int index = w;
            final long seed = 0x5DEECE66DL * (w + 1);
            pool[w] = new Thread(() -> {
                final SplittableRandom coin = new SplittableRandom(seed);
                final long[] counts = histograms[index];
                long total = 0;
                long max = 0;
                while (System.nanoTime() < warmUntil) {
                    if (coin.nextDouble() < ERROR_SHARE) {
                        logger.debug(MESSAGE, error);
                    } else {
                        logger.debug(MESSAGE);
                    }
                }
                try {
                    barrier.await();
                    barrier.await();
                } catch (InterruptedException | BrokenBarrierException e) {
                    return;
                }
                final long start = startHolder[0];
                for (long call = 0; call < end && go; call++) {
                    final long due = (long) (call * interval);
                    waitUntil(start, due);
                    if (coin.nextDouble() < ERROR_SHARE) {
                        logger.debug(MESSAGE, error);
                    } else {
                        logger.debug(MESSAGE);
                    }
                    final long took = Math.max(0, System.nanoTime() - start - due);
                    counts[bucket(took)]++;
                    total++;
                    max = Math.max(max, took);
                }
                totals[index] = total;
                maxima[index] = max;
            }, "bench-" + w);
            pool[w].setDaemon(true);
        }
        for (final Thread t : pool) {
            t.start();
        }
        try {
            barrier.await();
            final long warmDrainLimit = System.nanoTime() + 60_000_000_000L;
            while (waiting(configuration, ring) > 0 && System.nanoTime() < warmDrainLimit) {
                LockSupport.parkNanos(20_000);
            }
            writeBack(files);
            // Published to the workers by the barrier.
            startHolder[0] = System.nanoTime() + 5_000_000L;
            barrier.await();
        } catch (BrokenBarrierException e) {
            System.out.println("SKIPPED " + head + " reason=" + quote("a worker left the warm-up: " + e));
            return;
        }
        final long joinLimit = System.currentTimeMillis() + measureMs + 60_000;
        for (final Thread t : pool) {
            t.join(Math.max(1, joinLimit - System.currentTimeMillis()));
            if (t.isAlive()) {
                System.out.println("SKIPPED " + head + " reason=" + quote("worker " + t.getName()
                        + " did not finish its schedule within 60 s of the window's end"));
                System.out.flush();
                Runtime.getRuntime().halt(3);
            }
        }
        final long drainLimit = System.nanoTime() + 60_000_000_000L;
        while (waiting(configuration, ring) > 0 && System.nanoTime() < drainLimit) {
            LockSupport.parkNanos(20_000);
        }
        Configurator.shutdown(context);
        final long[] merged = new long[BUCKETS];
        long total = 0;
        long max = 0;
        for (int w = 0; w < workers; w++) {
            for (int b = 0; b < BUCKETS; b++) {
                merged[b] += histograms[w][b];
            }
            total += totals[w];
            max = Math.max(max, maxima[w]);
        }
        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "LATENCY appender=%s threads=%d lib=log4j2 rate_per_thread=%.0f due=%d calls=%d",
                label, workers, rate, end * workers, total));
        for (int i = 0; i < PERCENTILES.length; i++) {
            line.append(' ').append(PERCENTILE_KEYS[i]).append("_ns=")
                    .append(valueAt(merged, total, max, PERCENTILES[i]));
        }
        System.out.println(line);
        System.out.flush();
    }

    /** 100 real calls down, then the exception: with main below, 101 frames. */
    private static IllegalStateException dive(final int remaining) {
        if (remaining <= 1) {
            return new IllegalStateException("failure raised one hundred calls down, for the benchmark");
        }
        final IllegalStateException found = dive(remaining - 1);
        if (found == null) {
            throw new AssertionError();
        }
        return found;
    }

    private static String option(final String[] args, final String name, final String fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        if (fallback == null) {
            System.err.println("L4rsLog4j2Harness: missing " + name);
            System.exit(2);
        }
        return fallback;
    }

    private static long totalSize(final String[] files) {
        long sum = 0;
        for (final String f : files) {
            if (!f.isEmpty()) {
                sum += new File(f).length();
            }
        }
        return sum;
    }

    private static long[] gcSnapshot() {
        long count = 0;
        long millis = 0;
        for (final GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, bean.getCollectionCount());
            millis += Math.max(0, bean.getCollectionTime());
        }
        return new long[] {count, millis};
    }

    private static long allocated(final com.sun.management.ThreadMXBean threads, final long[] ids) {
        long sum = 0;
        for (final long bytes : threads.getThreadAllocatedBytes(ids)) {
            sum += Math.max(0, bytes);
        }
        return sum;
    }

    private static long sum(final AtomicLongArray counts, final int workers) {
        long total = 0;
        for (int i = 0; i < workers; i++) {
            total += counts.get(i * STRIDE);
        }
        return total;
    }

    /** Every live thread but the workers (the asynchronous stages' threads among them). */
    private static long[] otherThreads(final java.lang.management.ThreadMXBean threads, final long[] workers) {
        final Set<Long> skip = new HashSet<>();
        for (final long id : workers) {
            skip.add(id);
        }
        final List<Long> others = new ArrayList<>();
        for (final long id : threads.getAllThreadIds()) {
            if (!skip.contains(id)) {
                others.add(id);
            }
        }
        final long[] ids = new long[others.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = others.get(i);
        }
        return ids;
    }

    /**
     * How many events are still waiting in the configuration's asynchronous stages. The
     * disruptor's remaining capacity only grows back once its handler has finished an event,
     * so 0 means written; an Async appender's queue gives up an event as its thread takes it, so
     * at most one event per Async appender may still be in its appender's hands (microseconds).
     */
    private static long waiting(final Configuration config, final RingBufferAdmin ring) {
        long waiting = 0;
        if (ring != null) {
            waiting += ring.getBufferSize() - ring.getRemainingCapacity();
        }
        for (final Appender appender : config.getAppenders().values()) {
            if (appender instanceof AsyncAppender) {
                waiting += ((AsyncAppender) appender).getQueueSize();
            }
        }
        return waiting;
    }

    private static String quote(final String text) {
        return "\"" + String.valueOf(text).replace('"', '\'').replace('\n', ' ') + "\"";
    }

    public static void main(final String[] args) throws Exception {
        final String config = option(args, "--config", null);
        final String loggerName = option(args, "--logger", null);
        final String label = option(args, "--label", loggerName);
        final String[] files = option(args, "--files", "").split(",");
        final int workers = Integer.parseInt(option(args, "--threads", "4"));
        final long warmupMs = Long.parseLong(option(args, "--warmup-ms", "2000"));
        final long measureMs = Long.parseLong(option(args, "--measure-ms", "5000"));
        final double ratePerThread = Double.parseDouble(option(args, "--rate-per-thread", "0"));
        final String head = "appender=" + label + " threads=" + workers + " lib=log4j2";

        final Throwable error = dive(DEPTH);
        System.out.println("INFO java=" + System.getProperty("java.version") + " log4j="
                + LoggerContext.class.getPackage().getImplementationVersion() + " cpus="
                + Runtime.getRuntime().availableProcessors() + " throwable_frames="
                + error.getStackTrace().length);

        final long sizeBefore = totalSize(files);
        final LoggerContext context = Configurator.initialize("l4rs-bench-" + label, null,
                new File(config).toURI());
        if (context == null) {
            System.out.println("SKIPPED " + head + " reason=" + quote("log4j2 could not load " + config));
            return;
        }
        final LoggerConfig owner = context.getConfiguration().getLoggerConfig(loggerName);
        if (owner.getAppenders().isEmpty() && !owner.isAdditive()) {
            System.out.println("SKIPPED " + head + " reason=" + quote("logger " + loggerName + " has no appender"));
            Configurator.shutdown(context);
            return;
        }
        final Logger logger = context.getLogger(loggerName);
        final Configuration configuration = context.getConfiguration();
        RingBufferAdmin ring = null;
        for (final LoggerConfig candidate : configuration.getLoggers().values()) {
            // Asking for the delegate creates the disruptor, so only when some config is async.
            if (candidate instanceof AsyncLoggerConfig) {
                ring = configuration.getAsyncLoggerConfigDelegate()
                        .createRingBufferAdmin(context.getName(), candidate.getName());
                break;
            }
        }

        if (ratePerThread > 0) {
            latency(logger, error, workers, ratePerThread, warmupMs, measureMs, configuration, ring, head, label,
                    context, files);
            return;
        }
        final AtomicLongArray counts = new AtomicLongArray(workers * STRIDE);
        final Thread[] pool = new Thread[workers];
        final long[] ids = new long[workers];
        for (int w = 0; w < workers; w++) {
            final int slot = w * STRIDE;
            final long seed = 0x5DEECE66DL * (w + 1);
            pool[w] = new Thread(() -> {
                final SplittableRandom coin = new SplittableRandom(seed);
                long done = 0;
                while (go) {
                    if (coin.nextDouble() < ERROR_SHARE) {
                        logger.debug(MESSAGE, error);
                    } else {
                        logger.debug(MESSAGE);
                    }
                    counts.lazySet(slot, ++done);
                }
            }, "bench-" + w);
            pool[w].setDaemon(true);
            ids[w] = pool[w].getId();
        }
        final com.sun.management.ThreadMXBean threadBean =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        threadBean.setThreadAllocatedMemoryEnabled(true);
        for (final Thread t : pool) {
            t.start();
        }

        Thread.sleep(warmupMs);
        final long[] others = otherThreads(threadBean, ids);
        final long ops0 = sum(counts, workers);
        final long alloc0 = allocated(threadBean, ids);
        final long background0 = allocated(threadBean, others);
        final long[] gc0 = gcSnapshot();
        final long start = System.nanoTime();
        Thread.sleep(measureMs);
        final long ops1 = sum(counts, workers);
        final long alloc1 = allocated(threadBean, ids);
        final long end = System.nanoTime();
        go = false;

        for (final Thread t : pool) {
            t.join(30_000);
            if (t.isAlive()) {
                // log4j 2.19's MemoryMappedFile spins forever when it cannot unmap (missing
                // --add-opens); its shutdown hook would wait on the same lock, so halt.
                System.out.println("SKIPPED " + head + " reason=" + quote("worker " + t.getName()
                        + " did not stop within 30 s: the appender is stuck"));
                System.out.flush();
                Runtime.getRuntime().halt(3);
            }
        }
        // The drain, inside the measured time: until the asynchronous stages are empty.
        final long drainLimit = System.nanoTime() + 60_000_000_000L;
        while (waiting(configuration, ring) > 0) {
            if (System.nanoTime() > drainLimit) {
                System.out.println("SKIPPED " + head + " reason="
                        + quote("the asynchronous queues did not drain within 60 s"));
                System.out.flush();
                Runtime.getRuntime().halt(3);
            }
            LockSupport.parkNanos(20_000);
        }
        final long drained = System.nanoTime();
        final long background1 = allocated(threadBean, others);
        final long[] gc1 = gcSnapshot();
        final long events = sum(counts, workers);
        // Stopping flushes and closes (the memory-mapped file is truncated to its content).
        Configurator.shutdown(context);

        final double seconds = (drained - start) / 1e9;
        final double windowSeconds = (end - start) / 1e9;
        final long ops = ops1 - ops0;
        final long allocBytes = alloc1 - alloc0;
        final long written = totalSize(files) - sizeBefore;
        final double bytesPerEvent = events == 0 ? 0 : (double) written / events;
        final double mb = 1024.0 * 1024.0;
        System.out.println(String.format(Locale.ROOT,
                "RESULT appender=%s threads=%d ops_per_ms=%.3f alloc_bytes_per_op=%.1f alloc_mb_per_s=%.1f"
                        + " bytes_per_event=%.1f write_mb_per_s=%.1f ops=%d seconds=%.3f alloc_bytes=%d events=%d"
                        + " bytes_written=%d lib=log4j2 window_seconds=%.3f background_alloc_bytes=%d"
                        + " gc_count=%d gc_ms=%d",
                label, workers, ops / (seconds * 1000.0), ops == 0 ? 0.0 : (double) allocBytes / ops,
                allocBytes / mb / windowSeconds, bytesPerEvent, bytesPerEvent * ops / seconds / mb, ops,
                seconds, allocBytes, events, written, windowSeconds, Math.max(0, background1 - background0),
                gc1[0] - gc0[0], gc1[1] - gc0[1]));
        System.out.flush();
    }
}
