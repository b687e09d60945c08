package io.sqlagent.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The load driver's options; the defaults are the goal of issue 4 (500 conversations of two
 * questions, 200 ms per model turn, a 512 MB heap).
 *
 * @param conversations concurrent virtual users, each holding one conversation
 * @param questions questions each asks in turn (the follow-ups continue the conversation)
 * @param turnLatency the scripted model's time per turn, before its first byte
 * @param heap the service's {@code -Xmx}
 * @param warmup conversations run (and discarded) before the measured run
 * @param ramp the time over which the users start, evenly; zero starts them together
 * @param serviceOptions extra JVM options for the service ({@code -Dname=value})
 * @param out where the JSON report goes
 */
record ChatLoadOptions(int conversations, int questions, Duration turnLatency, String heap, int warmup, Duration ramp,
        List<String> serviceOptions, Path out) {

    static final String USAGE = """
            options: --conversations N (500)  --questions N (2)  --turn-latency 200ms  --heap 512m
                     --warmup N (500)  --ramp 0ms  --service-opt -Dname=value (repeatable)  --out target/chat-load.json""";

    static ChatLoadOptions parse(String... args) {
        int conversations = 500;
        int questions = 2;
        Duration turnLatency = Duration.ofMillis(200);
        String heap = "512m";
        int warmup = 500;
        Duration ramp = Duration.ZERO;
        List<String> serviceOptions = new ArrayList<>();
        Path out = Path.of("target/chat-load.json");
        for (int index = 0; index < args.length; index++) {
            String name = args[index];
            if (index + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value\n" + USAGE);
            }
            String value = args[++index];
            switch (name) {
                case "--conversations" -> conversations = Integer.parseInt(value);
                case "--questions" -> questions = Integer.parseInt(value);
                case "--turn-latency" -> turnLatency = duration(value);
                case "--heap" -> heap = value;
                case "--warmup" -> warmup = Integer.parseInt(value);
                case "--ramp" -> ramp = duration(value);
                case "--service-opt" -> serviceOptions.add(value);
                case "--out" -> out = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option " + name + "\n" + USAGE);
            }
        }
        if (conversations < 1 || questions < 1 || warmup < 0) {
            throw new IllegalArgumentException("conversations and questions must be at least 1, warmup at least 0");
        }
        return new ChatLoadOptions(conversations, questions, turnLatency, heap, warmup, ramp, List.copyOf(serviceOptions), out);
    }

    /** {@code 200ms}, {@code 2s} or ISO-8601 ({@code PT0.2S}). */
    static Duration duration(String text) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        if (value.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
        }
        if (value.endsWith("s") && !value.startsWith("pt")) {
            return Duration.ofMillis(Math.round(Double.parseDouble(value.substring(0, value.length() - 1)) * 1000));
        }
        return Duration.parse(text.trim().toUpperCase(Locale.ROOT));
    }
}
