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
        OracleLines.answerEach(RegexOracle::answer);
    }

    private static String answer(String[] fields) {
        String regex = OracleLines.unhex(fields[1]);
        String input = OracleLines.unhex(fields[2]);
        try {
            Pattern pattern = Pattern.compile(regex);
            if (fields[0].equals("replace")) {
                String replaced = pattern.matcher(input).replaceAll(OracleLines.unhex(fields[3]));
                return "R " + OracleLines.hex(replaced);
            }
            boolean found = fields[0].equals("matches")
                ? pattern.matcher(input).matches()
                : pattern.matcher(input).find();
            return found ? "1" : "0";
        } catch (PatternSyntaxException e) {
            return "E " + e.getDescription().replace('\n', ' ');
        }
    }
}
