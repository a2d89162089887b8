import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import org.apache.logging.log4j.core.pattern.DatePatternConverter;

/**
 * Prints dates as log4j2's own %d converter prints them, for l4rs's differential test of date
 * patterns. Each input line is "hex(pattern) hex(zone) epochMillis" (UTF-8 in hexadecimal);
 * each output line is hex(the formatted date), or "E <exception>".
 */
public final class DateOracle {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            String[] fields = line.split(" ", -1);
            try {
                DatePatternConverter converter = DatePatternConverter.newInstance(
                    new String[] {unhex(fields[0]), unhex(fields[1])});
                StringBuilder formatted = new StringBuilder();
                converter.format(new Date(Long.parseLong(fields[2])), formatted);
                out.append(hex(formatted.toString()));
            } catch (RuntimeException e) {
                out.append("E ").append(e.toString().replace('\n', ' '));
            }
            out.append('\n');
        }
        System.out.print(out);
        System.out.flush();
    }

    private static String hex(String text) {
        StringBuilder hex = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hex.append(String.format("%02x", b & 0xff));
        }
        return hex.toString();
    }

    private static String unhex(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
