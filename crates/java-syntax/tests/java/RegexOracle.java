import java.nio.charset.StandardCharsets;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Answers what java.util.regex says about (mode, regex, input) triples, for l4rs's
 * differential test. Each input line is "mode hex(regex) hex(input)" with mode "find" or
 * "matches", or "replace hex(regex) hex(input) hex(replacement)", with UTF-8 text in
 * hexadecimal (so any character survives the trip). Each output line is "1" (a match), "0"
 * (no match), "R hex(result)" (replaceAll's result) or "E <description>"
 * (PatternSyntaxException).
 */
public final class RegexOracle {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            String[] fields = line.split(" ", -1);
            String regex = unhex(fields[1]);
            String input = unhex(fields[2]);
            try {
                Pattern pattern = Pattern.compile(regex);
                if (fields[0].equals("replace")) {
                    String replaced = pattern.matcher(input).replaceAll(unhex(fields[3]));
                    out.append("R ").append(hex(replaced));
                } else {
                    boolean found = fields[0].equals("matches")
                        ? pattern.matcher(input).matches()
                        : pattern.matcher(input).find();
                    out.append(found ? "1" : "0");
                }
            } catch (PatternSyntaxException e) {
                out.append("E ").append(e.getDescription().replace('\n', ' '));
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
