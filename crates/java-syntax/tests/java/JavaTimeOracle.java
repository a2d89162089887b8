import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * Reads times of day and zone ids as log4j2's TimeFilter reads them, for l4rs's differential
 * test of its java.time readers. Each input line is "time hex(text)" or "zone hex(id)"; each
 * output line is the second of the day, or the zone's offset in seconds at each of the
 * instants that follow the id on the line, or "E <exception>".
 */
public final class JavaTimeOracle {
    private static final DateTimeFormatter TIME_FILTER_FORM = DateTimeFormatter.ofPattern("HH:mm:ss");

    public static void main(String[] args) throws Exception {
        OracleLines.answerEach(JavaTimeOracle::answer);
    }

    private static String answer(String[] fields) {
        try {
            String text = OracleLines.unhex(fields[1]);
            if (fields[0].equals("time")) {
                return Integer.toString(LocalTime.parse(text, TIME_FILTER_FORM).toSecondOfDay());
            }
            ZoneId zone = ZoneId.of(text);
            StringBuilder offsets = new StringBuilder();
            for (int i = 2; i < fields.length; i++) {
                Instant instant = Instant.ofEpochMilli(Long.parseLong(fields[i]));
                offsets.append(i > 2 ? " " : "").append(zone.getRules().getOffset(instant).getTotalSeconds());
            }
            return offsets.toString();
        } catch (RuntimeException e) {
            return "E " + e.toString().replace('\n', ' ');
        }
    }
}
