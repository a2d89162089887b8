import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * What every oracle of tests/java/ does the same way: reading the cases from stdin, one a line
 * with its fields separated by spaces, answering each on a line of stdout, and the hexadecimal
 * UTF-8 encoding that carries any text both ways.
 */
final class OracleLines {
    /** How one oracle answers one case: its fields in, the answer's line (without '\n') out. */
    interface Answer {
        String to(String[] fields);
    }

    private OracleLines() {}

    /** Answers every line of stdin with `answer`, and prints the answers once stdin ends. */
    static void answerEach(Answer answer) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            out.append(answer.to(line.split(" ", -1))).append('\n');
        }
        System.out.print(out);
        System.out.flush();
    }

    /** The UTF-8 bytes of `text` in hexadecimal, two digits each. */
    static String hex(String text) {
        StringBuilder hex = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hex.append(String.format("%02x", b & 0xff));
        }
        return hex.toString();
    }

    /** The text {@link #hex} encoded. */
    static String unhex(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
