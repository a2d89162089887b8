import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;

/**
 * The Java side of crates/conformance/tests/jdbc_rows.rs: starts log4j2 with the configuration
 * named by the first argument (a JDBC appender writing through a real driver) and logs the
 * events that test logs with l4rs, one per line of standard input ("LEVEL|n|message", where n
 * goes into the thread context as "n"), then stops log4j2 so that buffered rows are written.
 */
public final class JdbcRows {
    public static void main(String[] args) throws Exception {
        System.setProperty("log4j2.configurationFile", args[0]);
        Logger logger = LogManager.getLogger("app");
        java.io.BufferedReader input = new java.io.BufferedReader(
                new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
        for (String line; (line = input.readLine()) != null; ) {
            String[] parts = line.split("\\|", 3);
            ThreadContext.put("n", parts[1]);
            logger.log(org.apache.logging.log4j.Level.getLevel(parts[0]), parts[2]);
        }
        ThreadContext.clearMap();
        LogManager.shutdown();
    }
}
