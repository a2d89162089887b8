// The Java side of the comparisons that no scenario can stage: log4j2's own parsers and calendar
// arithmetic asked about each line of stdin, one answer per line on stdout.
//
// Usage: run-java.sh Log4j2Answers periods|names|cron|size|age|glob|contextmap < QUESTIONS > ANSWERS
//
// periods: the period arithmetic of time-based rolling, PatternProcessor (the
//   `periods_against_log4j2` tests of crates/appenders/src/rolling/pattern/). A question is
//   five tab-separated fields: the JVM's default time zone for it (log4j2 2.19 computes periods
//   in that zone), the filePattern, the interval, modulate (true/false) and the instant in epoch
//   milliseconds. The answer: the next rollover and the time that names the file written until
//   then, tab-separated.
// names: the archive names of a filePattern (PatternProcessor.formatFileName; the
//   `names_against_log4j2` tests of crates/appenders/src/rolling/pattern/). A question is
//   four tab-separated fields: the JVM's default time zone, the filePattern, the time that
//   names the file (epoch milliseconds) and the index. The answer: the name, or "refused: "
//   and the exception where PatternProcessor cannot take the pattern.
// cron: CronExpression, which CronTriggeringPolicy schedules with (the
//   `schedules_against_log4j2` tests of crates/config/src/rolling/cron/). A question is three
//   tab-separated fields: a time zone, a cron expression and an instant. The answer: the first
//   instant after it that the expression fires at in that zone, "never" when it fires no more,
//   or "invalid" when log4j2 refuses the expression.
// size, age, glob: the values of rolling appenders (the `values_against_log4j2` tests of
//   crates/config/src/rolling/). size: a SizeBasedTriggeringPolicy size, answered with the bytes
//   FileSize.parse gives, or "invalid" where it falls back to its default. age: an
//   IfLastModified age, answered with Duration.parse's milliseconds, or "invalid". glob: an
//   IfFileName glob and a relative path, tab-separated, answered "match", "no" or "invalid"
//   (the JDK's PathMatcher, which IfFileName uses).
// contextmap: MutableThreadContextMapFilter (the `mutable_context_map_against_log4j2` test of
//   crates/filter/src/mutable_thread_context_map.rs). A question is a JSON file's location
//   (configLocation), then `key=value` context-map entries, tab-separated. The filter is built
//   with pollInterval 0, onMatch ACCEPT and onMismatch DENY (once per location), and asked about
//   an event carrying those entries. The answer: ACCEPT, DENY or NEUTRAL, or "refused: " and the
//   exception where log4j2 builds no filter.
//
// A malformed question ends the run with status 2, naming its line.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.text.ParseException;
import java.time.ZoneId;
import java.util.Date;
import java.util.TimeZone;
import java.util.regex.PatternSyntaxException;

import org.apache.logging.log4j.core.appender.rolling.FileSize;
import org.apache.logging.log4j.core.appender.rolling.PatternProcessor;
import org.apache.logging.log4j.core.appender.rolling.action.Duration;
import org.apache.logging.log4j.core.lookup.StrSubstitutor;
import org.apache.logging.log4j.core.util.CronExpression;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.filter.MutableThreadContextMapFilter;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.apache.logging.log4j.util.SortedArrayStringMap;

public final class Log4j2Answers {
    public static void main(String[] args) throws IOException {
        String mode = args.length == 1 ? args[0] : "";
        if (!java.util.Arrays.asList("periods", "names", "cron", "size", "age", "glob", "contextmap").contains(mode)) {
            System.err.println("usage: run-java.sh Log4j2Answers periods|names|cron|size|age|glob|contextmap < QUESTIONS");
            System.exit(2);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        String line;
        int number = 0;
        while ((line = in.readLine()) != null) {
            number++;
            String[] fields = line.split("\t", -1);
            try {
                out.println(answer(mode, fields));
            } catch (RuntimeException e) {
                out.flush();
                System.err.println("Log4j2Answers: line " + number + ": " + e);
                System.exit(2);
            }
        }
        out.flush();
    }

    private static String answer(String mode, String[] fields) {
        switch (mode) {
            case "periods":
                return period(fields);
            case "names":
                expect(fields, 4);
                TimeZone.setDefault(zone(fields[0]));
                PatternProcessor names;
                try {
                    names = new PatternProcessor(fields[1]);
                } catch (RuntimeException e) {
                    // log4j2 cannot build a rolling appender with this pattern.
                    return "refused: " + e;
                }
                names.setPrevFileTime(Long.parseLong(fields[2]));
                StringBuilder name = new StringBuilder();
                names.formatFileName(new StrSubstitutor(), name, Integer.parseInt(fields[3]));
                return name.toString();
            case "cron":
                return cron(fields);
            case "contextmap":
                return contextMap(fields);
            case "size":
                expect(fields, 1);
                long bytes = FileSize.parse(fields[0], Long.MIN_VALUE);
                return bytes == Long.MIN_VALUE ? "invalid" : Long.toString(bytes);
            case "age":
                expect(fields, 1);
                try {
                    return Long.toString(Duration.parse(fields[0]).toMillis());
                } catch (IllegalArgumentException e) {
                    return "invalid";
                }
            default:
                expect(fields, 2);
                PathMatcher matcher;
                try {
                    matcher = FileSystems.getDefault().getPathMatcher("glob:" + fields[0]);
                } catch (PatternSyntaxException e) {
                    return "invalid";
                }
                return matcher.matches(Paths.get(fields[1])) ? "match" : "no";
        }
    }

    private static final java.util.Map<String, Object> CONTEXT_MAP_FILTERS = new java.util.HashMap<>();

    private static String contextMap(String[] fields) {
        Object built = CONTEXT_MAP_FILTERS.computeIfAbsent(fields[0], location -> {
            try {
                return MutableThreadContextMapFilter.newBuilder()
                        .setConfigLocation(location)
                        .setPollInterval(0)
                        .setConfiguration(new DefaultConfiguration())
                        .setOnMatch(Filter.Result.ACCEPT)
                        .setOnMismatch(Filter.Result.DENY)
                        .build();
            } catch (RuntimeException e) {
                return "refused: " + e;
            }
        });
        if (built instanceof String) {
            return (String) built;
        }
        SortedArrayStringMap context = new SortedArrayStringMap();
        for (int i = 1; i < fields.length; i++) {
            int equals = fields[i].indexOf('=');
            context.putValue(fields[i].substring(0, equals), fields[i].substring(equals + 1));
        }
        LogEvent event = Log4jLogEvent.newBuilder().setLoggerName("x").setLevel(Level.INFO)
                .setMessage(new SimpleMessage("m")).setContextData(context).build();
        return ((Filter) built).filter(event).name();
    }

    // ZoneId.of rejects an unknown zone; TimeZone.getTimeZone alone would quietly take GMT.
    private static TimeZone zone(String id) {
        return TimeZone.getTimeZone(ZoneId.of(id));
    }

    private static void expect(String[] fields, int count) {
        if (fields.length != count) {
            throw new IllegalArgumentException("expected " + count + " tab-separated fields, found " + fields.length);
        }
    }

    private static String period(String[] fields) {
        expect(fields, 5);
        TimeZone.setDefault(zone(fields[0]));
        PatternProcessor processor = new PatternProcessor(fields[1]);
        long next = processor.getNextTime(Long.parseLong(fields[4]), Integer.parseInt(fields[2]),
                Boolean.parseBoolean(fields[3]));
        return next + "\t" + processor.getNextFileTime();
    }

    private static String cron(String[] fields) {
        expect(fields, 3);
        CronExpression expression;
        try {
            expression = new CronExpression(fields[1]);
        } catch (ParseException e) {
            return "invalid";
        }
        expression.setTimeZone(zone(fields[0]));
        Date next = expression.getNextValidTimeAfter(new Date(Long.parseLong(fields[2])));
        return next == null ? "never" : Long.toString(next.getTime());
    }
}
