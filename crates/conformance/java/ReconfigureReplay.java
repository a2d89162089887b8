// The Java side of the reconfiguration scenarios (crates/conformance/tests/reconfigure/): replays a
// scenario through real log4j2 with real logger calls, applying the steps of its steps.json
// (reconfigure from another file, Configurator.setLevel, Configurator.setRootLevel) between
// the events. l4rs-replay applies the same steps; compare.py compares the two byte for byte.
//
// Usage: run-reconfigure.sh SCENARIO_DIR OUT_DIR (the contract of shared/oracle/SCENARIO.md,
// section 2). Events are real calls on the main thread: the scenarios print neither the time
// nor the location. Each event needs logger, level and message; the other fields of the format
// are accepted and ignored. steps.json is a JSON array of objects, each with "after" (the
// number of events logged before the step) and one of "reconfigure" (a file name in the
// scenario folder), "set_level" ({"logger", "level"}) or "set_root_level" (a level).

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;

public final class ReconfigureReplay {
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: run-reconfigure.sh SCENARIO_DIR OUT_DIR");
            System.exit(2);
        }
        Path scenario = Paths.get(args[0]).toAbsolutePath();
        Path out = Paths.get(args[1]);
        Files.createDirectories(out);
        out = out.toRealPath();
        Path seed = scenario.resolve("seed");
        if (Files.isDirectory(seed)) {
            copyTree(seed, out);
        }
        System.setProperty("out", out.toString());

        List<Object> events = new ArrayList<>();
        for (String line : Files.readAllLines(scenario.resolve("events.jsonl"), StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                events.add(new Json(line).value());
            }
        }
        List<Object> steps = new ArrayList<>();
        Path stepsFile = scenario.resolve("steps.json");
        if (Files.exists(stepsFile)) {
            steps = asList(new Json(Files.readString(stepsFile, StandardCharsets.UTF_8)).value());
        }

        // log4j 2.19 sends status messages to StatusConfiguration's default stream, System.out as
        // captured when that class is initialised (a reconfiguration uses it even without a
        // "status" attribute). Initialise it while System.out points at stderr, so stdout
        // carries only what Console appenders print, as the shared oracle does.
        java.io.PrintStream realOut = System.out;
        System.setOut(System.err);
        try {
            Class.forName("org.apache.logging.log4j.core.config.status.StatusConfiguration", true,
                    ReconfigureReplay.class.getClassLoader());
        } finally {
            System.setOut(realOut);
        }
        LoggerContext context = Configurator.initialize(null, scenario.resolve("log4j2.xml").toString());
        for (int index = 0; index <= events.size(); index++) {
            for (Object step : steps) {
                Map<String, Object> object = asMap(step);
                if (((Number) object.get("after")).intValue() == index) {
                    apply(context, scenario, object);
                }
            }
            if (index < events.size()) {
                Map<String, Object> event = asMap(events.get(index));
                Level level = Level.getLevel(((String) event.get("level")).toUpperCase(java.util.Locale.ROOT));
                LogManager.getLogger((String) event.get("logger")).log(level, (String) event.get("message"));
            }
        }
        LogManager.shutdown();
        System.out.flush();
        String meta = "{\"pid\": " + ProcessHandle.current().pid() + ", \"events\": " + events.size() + "}\n";
        Files.writeString(out.resolve("replay-meta.json"), meta, StandardCharsets.UTF_8);
    }

    private static void apply(LoggerContext context, Path scenario, Map<String, Object> step) {
        if (step.containsKey("reconfigure")) {
            context.setConfigLocation(scenario.resolve((String) step.get("reconfigure")).toUri());
        } else if (step.containsKey("set_level")) {
            Map<String, Object> target = asMap(step.get("set_level"));
            Configurator.setLevel((String) target.get("logger"), Level.getLevel((String) target.get("level")));
        } else if (step.containsKey("set_root_level")) {
            Configurator.setRootLevel(Level.getLevel((String) step.get("set_root_level")));
        } else {
            throw new IllegalArgumentException("unknown step " + step);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> asList(Object value) {
        return (List<Object>) value;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /** Just enough JSON for events.jsonl and steps.json: objects, arrays, strings, numbers, literals. */
    private static final class Json {
        private final String text;
        private int at;

        Json(String text) {
            this.text = text;
        }

        Object value() {
            skip();
            char c = text.charAt(at);
            if (c == '{') {
                Map<String, Object> map = new LinkedHashMap<>();
                at++;
                if (!endsAt('}')) {
                    do {
                        skip();
                        String key = string();
                        skip();
                        expect(':');
                        map.put(key, value());
                    } while (anotherBefore('}'));
                }
                return map;
            }
            if (c == '[') {
                List<Object> list = new ArrayList<>();
                at++;
                if (!endsAt(']')) {
                    do {
                        list.add(value());
                    } while (anotherBefore(']'));
                }
                return list;
            }
            if (c == '"') {
                return string();
            }
            for (String literal : new String[] {"true", "false", "null"}) {
                if (text.startsWith(literal, at)) {
                    at += literal.length();
                    return literal.equals("null") ? null : Boolean.valueOf(literal);
                }
            }
            int start = at;
            while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
                at++;
            }
            return Long.parseLong(text.substring(start, at));
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = text.charAt(at++);
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char escaped = text.charAt(at++);
                switch (escaped) {
                    case 'n': out.append('\n'); break;
                    case 't': out.append('\t'); break;
                    case 'r': out.append('\r'); break;
                    case 'b': out.append('\b'); break;
                    case 'f': out.append('\f'); break;
                    case 'u': out.append((char) Integer.parseInt(text.substring(at, at + 4), 16)); at += 4; break;
                    default: out.append(escaped);
                }
            }
        }

        /** Right after an object's or array's opening: true (past it) when `close` ends it at once. */
        private boolean endsAt(char close) {
            skip();
            if (text.charAt(at) == close) {
                at++;
                return true;
            }
            return false;
        }

        /** After a member or element: true (past the comma) when another follows, false (past it) at `close`. */
        private boolean anotherBefore(char close) {
            skip();
            if (text.charAt(at) == ',') {
                at++;
                return true;
            }
            expect(close);
            return false;
        }

        private void skip() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private void expect(char c) {
            if (text.charAt(at) != c) {
                throw new IllegalArgumentException("expected '" + c + "' at " + at + " in " + text);
            }
            at++;
        }
    }
}
