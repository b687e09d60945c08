package io.sqlagent.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Stream;

import io.sqlagent.it.ServiceProcess;

/**
 * Watches the service while a phase runs: every 200 ms the heap used (the sum of
 * {@code jvm_memory_used_bytes{area="heap"}} from {@code /q/metrics}) and the resident set size;
 * at the end the GC, allocation and CPU (service, this driver, the whole machine) the phase cost.
 */
final class ServiceSampler implements AutoCloseable {

    static final long PERIOD_MILLIS = 200;
    private static final long CLOCK_TICKS = 100; // USER_HZ, the unit of /proc/<pid>/stat's times on Linux

    /** What the phase cost; CPU in seconds, memory in bytes. */
    record Totals(long peakHeapUsed, long peakLiveData, long peakRss, long rssHighWaterMark, int samples, double gcPauses,
            double gcPauseSeconds, double allocatedBytes, double serviceCpu, double postgresCpu, double driverCpu,
            double machineCpu, double seconds) {
    }

    /** The counters read at the start and at the end of a phase. */
    private record Counters(double gcPauses, double gcSeconds, double allocated, long serviceTicks, long postgresTicks,
            long driverTicks, long machineTicks, long nanos) {
    }

    private final ServiceProcess service;
    private final long pid;
    private final Optional<ProcessHandle> postmaster;
    private final Counters start;
    private final AtomicLong peakHeap = new AtomicLong();
    private final AtomicLong peakLive = new AtomicLong();
    private final AtomicLong peakRss = new AtomicLong();
    private final AtomicInteger samples = new AtomicInteger();
    private final Thread thread;
    private volatile boolean running = true;

    private ServiceSampler(ServiceProcess service, Optional<ProcessHandle> postmaster) throws InterruptedException {
        this.service = service;
        this.pid = service.jvm().pid();
        this.postmaster = postmaster;
        this.start = counters(metrics());
        this.thread = new Thread(this::sample, "service-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts sampling {@code service}; {@code postmaster} (with its backends) is counted as PostgreSQL's CPU. */
    static ServiceSampler start(ServiceProcess service, Optional<ProcessHandle> postmaster) throws InterruptedException {
        return new ServiceSampler(service, postmaster);
    }

    private void sample() {
        while (running) {
            try {
                String metrics = metrics();
                peakHeap.accumulateAndGet((long) sum(metrics, "jvm_memory_used_bytes", line -> line.contains("area=\"heap\"")),
                        Math::max);
                peakLive.accumulateAndGet((long) sum(metrics, "jvm_gc_live_data_size_bytes", line -> true), Math::max);
                peakRss.accumulateAndGet(status("VmRSS:"), Math::max);
                samples.incrementAndGet();
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Stops sampling and returns the phase's totals. */
    Totals finish() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join();
        Counters end = counters(metrics());
        return new Totals(peakHeap.get(), peakLive.get(), peakRss.get(), status("VmHWM:"), samples.get(),
                end.gcPauses() - start.gcPauses(), end.gcSeconds() - start.gcSeconds(), end.allocated() - start.allocated(),
                (end.serviceTicks() - start.serviceTicks()) / (double) CLOCK_TICKS,
                (end.postgresTicks() - start.postgresTicks()) / (double) CLOCK_TICKS,
                (end.driverTicks() - start.driverTicks()) / (double) CLOCK_TICKS,
                (end.machineTicks() - start.machineTicks()) / (double) CLOCK_TICKS,
                (end.nanos() - start.nanos()) / 1e9);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join();
    }

    private Counters counters(String metrics) {
        return new Counters(sum(metrics, "jvm_gc_pause_seconds_count", line -> true),
                sum(metrics, "jvm_gc_pause_seconds_sum", line -> true),
                sum(metrics, "jvm_gc_memory_allocated_bytes_total", line -> true),
                processTicks(Path.of("/proc/" + pid + "/stat")), postgresTicks(), processTicks(Path.of("/proc/self/stat")),
                machineBusyTicks(), System.nanoTime());
    }

    private String metrics() throws InterruptedException {
        return service.get("/q/metrics").filter(response -> response.statusCode() == 200).map(HttpResponse::body).orElse("");
    }

    /** The sum of a metric's samples (Prometheus text format) on lines that {@code filter} accepts. */
    static double sum(String metrics, String name, Predicate<String> filter) {
        double total = 0;
        for (String line : metrics.split("\n")) {
            if (line.startsWith(name) && (line.length() == name.length() || " {".indexOf(line.charAt(name.length())) >= 0)
                    && filter.test(line)) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    /** A {@code /proc/<pid>/status} line in bytes, or 0 once the process is gone. */
    private long status(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]) * 1024;
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return 0;
    }

    /** The postmaster's and its backends' CPU; a backend that exited meanwhile is not counted (the pools keep theirs). */
    private long postgresTicks() {
        return postmaster.stream().flatMap(p -> Stream.concat(Stream.of(p), p.descendants()))
                .mapToLong(p -> processTicks(Path.of("/proc/" + p.pid() + "/stat"))).sum();
    }

    /** User + system time of a process, in clock ticks. */
    private static long processTicks(Path stat) {
        try {
            String text = Files.readString(stat);
            String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException e) {
            return 0;
        }
    }

    /** CPU time of the whole machine that was not idle, in clock ticks (all cores). */
    private static long machineBusyTicks() {
        try {
            String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int index = 1; index < Math.min(fields.length, 9); index++) {
                if (index != 4 && index != 5) { // idle, iowait
                    busy += Long.parseLong(fields[index]);
                }
            }
            return busy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
