// The Java side of the rollover period comparison (the `periods_against_log4j2` tests of
// crates/appenders/src/rolling/): log4j2's own PatternProcessor, the period arithmetic of its
// time-based rolling, asked about each line of stdin.
//
// Usage: run-java.sh RolloverPeriods < QUESTIONS > ANSWERS
// A question is one line of five tab-separated fields: the JVM's default time zone for this
// question (log4j2 2.19 computes periods in it), the filePattern, the interval, modulate
// (true/false) and the instant in epoch milliseconds. The answer, one line per question, is
// the next rollover and the time that names the file written until then (epoch milliseconds,
// tab-separated). A malformed question ends the run with status 2, naming its line.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.TimeZone;

import org.apache.logging.log4j.core.appender.rolling.PatternProcessor;

public final class RolloverPeriods {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        String line;
        int number = 0;
        while ((line = in.readLine()) != null) {
            number++;
            String[] fields = line.split("\t", -1);
            try {
                if (fields.length != 5) {
                    throw new IllegalArgumentException("expected 5 tab-separated fields, found " + fields.length);
                }
                // ZoneId.of rejects an unknown zone; TimeZone.getTimeZone alone would quietly take GMT.
                TimeZone.setDefault(TimeZone.getTimeZone(ZoneId.of(fields[0])));
                PatternProcessor processor = new PatternProcessor(fields[1]);
                long next = processor.getNextTime(Long.parseLong(fields[4]), Integer.parseInt(fields[2]),
                        Boolean.parseBoolean(fields[3]));
                out.println(next + "\t" + processor.getNextFileTime());
            } catch (RuntimeException e) {
                out.flush();
                System.err.println("RolloverPeriods: line " + number + ": " + e);
                System.exit(2);
            }
        }
        out.flush();
    }
}
