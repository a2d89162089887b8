// The Java side of the cron schedule comparison (the `schedules_against_log4j2` tests of
// crates/config/src/rolling/): log4j2's own CronExpression, which CronTriggeringPolicy
// schedules with, asked about each line of stdin.
//
// Usage: run-java.sh CronSchedules < QUESTIONS > ANSWERS
// A question is one line of three tab-separated fields: a time zone, a cron expression and an
// instant in epoch milliseconds. The answer, one line per question, is the first instant after
// it that the expression fires at in that zone (getNextValidTimeAfter, epoch milliseconds),
// "never" when it fires no more, or "invalid" when log4j2 refuses the expression. A malformed
// question ends the run with status 2, naming its line.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.ZoneId;
import java.util.Date;
import java.util.TimeZone;

import org.apache.logging.log4j.core.util.CronExpression;

public final class CronSchedules {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        String line;
        int number = 0;
        while ((line = in.readLine()) != null) {
            number++;
            String[] fields = line.split("\t", -1);
            try {
                if (fields.length != 3) {
                    throw new IllegalArgumentException("expected 3 tab-separated fields, found " + fields.length);
                }
                // ZoneId.of rejects an unknown zone; TimeZone.getTimeZone alone would quietly take GMT.
                TimeZone zone = TimeZone.getTimeZone(ZoneId.of(fields[0]));
                long after = Long.parseLong(fields[2]);
                CronExpression expression;
                try {
                    expression = new CronExpression(fields[1]);
                } catch (ParseException e) {
                    out.println("invalid");
                    continue;
                }
                expression.setTimeZone(zone);
                Date next = expression.getNextValidTimeAfter(new Date(after));
                out.println(next == null ? "never" : Long.toString(next.getTime()));
            } catch (RuntimeException e) {
                out.flush();
                System.err.println("CronSchedules: line " + number + ": " + e);
                System.exit(2);
            }
        }
        out.flush();
    }
}
