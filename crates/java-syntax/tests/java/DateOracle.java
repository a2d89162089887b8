import java.util.Date;
import org.apache.logging.log4j.core.pattern.DatePatternConverter;

/**
 * Prints dates as log4j2's own %d converter prints them, for l4rs's differential test of date
 * patterns. Each input line is "hex(pattern) hex(zone) epochMillis" (UTF-8 in hexadecimal);
 * each output line is hex(the formatted date), or "E <exception>".
 */
public final class DateOracle {
    public static void main(String[] args) throws Exception {
        OracleLines.answerEach(DateOracle::format);
    }

    private static String format(String[] fields) {
        try {
            DatePatternConverter converter = DatePatternConverter.newInstance(
                new String[] {OracleLines.unhex(fields[0]), OracleLines.unhex(fields[1])});
            StringBuilder formatted = new StringBuilder();
            converter.format(new Date(Long.parseLong(fields[2])), formatted);
            return OracleLines.hex(formatted.toString());
        } catch (RuntimeException e) {
            return "E " + e.toString().replace('\n', ' ');
        }
    }
}
