// Loads log4j2 XML configurations with the real log4j2 and prints what it built, one canonical
// line per item, for crates/config/tests/corpus.rs (through corpus_oracle/mod.rs) to compare with l4rs-config's reading.
//
// Usage: java -Djava.security.manager=allow -cp <this>:log4j-api.jar:log4j-core.jar \
//            ConfigDump SANDBOX_DIR FILE...
//
// Every file is built (XmlConfiguration.initialize(): plugins created, nothing started), so
// file appenders open their files: run with the working directory and ${sys:...} paths inside
// SANDBOX_DIR. A security manager refuses writes anywhere else; a file that tried one is
// flagged ("denied PATH") because log4j2 then built it differently.
//
// Output (stdout, UTF-8), per file, in this order:
//   file NAME
//   appender NAME TYPE layout=LAYOUT filter=FILTER        (sorted by name)
//   logger NAME async=BOOL level=LEVEL additive=BOOL parent=NAME filter=FILTER  (additive=- for the root)
//   ref LOGGER APPENDER level=LEVEL filter=FILTER          (after its logger, in order)
//   filter FILTER                                          (context-wide, when there is one)
//   denied PATH | error TEXT                               (when something went wrong)
//   end
// The root logger is printed as "logger <root>" first; the others follow sorted by name.
// Nothing else reaches stdout: log4j2's status messages are sent to stderr.

import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FilePermission;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.Permission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.async.AsyncLoggerConfig;
import org.apache.logging.log4j.core.config.AppenderRef;
import org.apache.logging.log4j.core.config.ConfigurationSource;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.xml.XmlConfiguration;
import org.apache.logging.log4j.core.filter.AbstractFilter;
import org.apache.logging.log4j.core.filter.CompositeFilter;
import org.apache.logging.log4j.core.filter.Filterable;
import org.apache.logging.log4j.core.filter.LevelRangeFilter;
import org.apache.logging.log4j.core.filter.ThresholdFilter;

public final class ConfigDump {
    /** How long one file may take before the whole run is abandoned. */
    private static final long PER_FILE_LIMIT_MS = 60_000;

    private static volatile String current = "";
    private static volatile long startedAt = 0;

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: ConfigDump SANDBOX_DIR FILE...");
            System.exit(2);
        }
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        // log4j2 prints status messages to System.out once a file sets `status`.
        System.setOut(System.err);
        Sandbox sandbox = new Sandbox(new File(args[0]).getCanonicalPath());
        System.setSecurityManager(sandbox);
        startWatchdog();
        for (int i = 1; i < args.length; i++) {
            File file = new File(args[i]);
            current = file.getName();
            startedAt = System.currentTimeMillis();
            List<String> lines = new ArrayList<>();
            sandbox.denied.clear();
            try {
                dump(file, lines);
            } catch (Throwable t) {
                lines.add("error " + oneLine(t.toString()));
            }
            out.println("file " + file.getName());
            for (String line : lines) {
                out.println(line);
            }
            for (String path : sandbox.denied) {
                out.println("denied " + path);
            }
            out.println("end");
        }
        out.flush();
        // Managers and schedulers the configurations created must not keep the JVM alive.
        System.exit(0);
    }

    private static void dump(File file, List<String> lines) throws IOException {
        LoggerContext context = new LoggerContext("corpus-" + file.getName());
        XmlConfiguration config;
        try (FileInputStream in = new FileInputStream(file)) {
            config = new XmlConfiguration(context, new ConfigurationSource(in, file));
        }
        config.initialize();
        for (Map.Entry<String, Appender> entry : new TreeMap<>(config.getAppenders()).entrySet()) {
            Appender appender = entry.getValue();
            Filter filter = appender instanceof Filterable ? ((Filterable) appender).getFilter() : null;
            lines.add("appender " + entry.getKey() + " " + pluginName(appender.getClass())
                    + " layout=" + layout(appender.getLayout()) + " filter=" + filter(filter));
        }
        logger(lines, "<root>", config.getRootLogger());
        for (Map.Entry<String, LoggerConfig> entry : new TreeMap<>(config.getLoggers()).entrySet()) {
            if (!entry.getKey().isEmpty()) {
                logger(lines, entry.getKey(), entry.getValue());
            }
        }
        if (config.getFilter() != null) {
            lines.add("filter " + filter(config.getFilter()));
        }
        for (Appender appender : config.getAppenders().values()) {
            try {
                appender.stop();
            } catch (Throwable ignored) {
                // Only releasing files: what log4j2 built is already recorded.
            }
        }
    }

    private static void logger(List<String> lines, String name, LoggerConfig logger) {
        LoggerConfig parent = logger.getParent();
        String parentName = parent == null ? "-" : parent.getName().isEmpty() ? "<root>" : parent.getName();
        lines.add("logger " + name + " async=" + (logger instanceof AsyncLoggerConfig)
                + " level=" + level(logger.getLevel()) + " additive=" + additive(name, logger)
                + " parent=" + parentName + " filter=" + filter(logger.getFilter()));
        java.util.Set<String> referenced = new java.util.HashSet<>();
        for (AppenderRef ref : logger.getAppenderRefs()) {
            referenced.add(ref.getRef());
            lines.add("ref " + name + " " + ref.getRef() + " level=" + level(ref.getLevel())
                    + " filter=" + filter(ref.getFilter()));
        }
        // The default configuration's root gets its console attached without an AppenderRef.
        for (String attached : new TreeMap<>(logger.getAppenders()).keySet()) {
            if (!referenced.contains(attached)) {
                lines.add("ref " + name + " " + attached + " level=- filter=-");
            }
        }
    }

    /** The root has no parent, so its additivity means nothing (log4j2 defaults it to false). */
    private static String additive(String name, LoggerConfig logger) {
        return name.equals("<root>") ? "-" : Boolean.toString(logger.isAdditive());
    }

    private static String level(Level level) {
        return level == null ? "-" : level.name();
    }

    private static String layout(Layout<?> layout) {
        return layout == null ? "-" : pluginName(layout.getClass());
    }

    /** A filter as `Name(details,onMatch,onMismatch)`; `Filters[...]` for a composite. */
    private static String filter(Filter filter) {
        if (filter == null) {
            return "-";
        }
        if (filter instanceof CompositeFilter) {
            List<String> parts = new ArrayList<>();
            for (Filter child : ((CompositeFilter) filter).getFiltersArray()) {
                parts.add(filter(child));
            }
            return "Filters[" + String.join(",", parts) + "]";
        }
        StringBuilder text = new StringBuilder(pluginName(filter.getClass())).append('(');
        if (filter instanceof ThresholdFilter) {
            text.append(level(((ThresholdFilter) filter).getLevel())).append(',');
        } else if (filter instanceof LevelRangeFilter) {
            LevelRangeFilter range = (LevelRangeFilter) filter;
            text.append(level(range.getMinLevel())).append("..").append(level(range.getMaxLevel())).append(',');
        }
        if (filter instanceof AbstractFilter) {
            text.append(filter.getOnMatch()).append(',').append(filter.getOnMismatch());
        }
        return text.append(')').toString();
    }

    private static String pluginName(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            Plugin plugin = c.getAnnotation(Plugin.class);
            if (plugin != null) {
                return plugin.name();
            }
        }
        return type.getName();
    }

    private static String oneLine(String text) {
        return text.replace('\n', ' ').replace('\r', ' ');
    }

    private static void startWatchdog() {
        Thread watchdog = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException e) {
                    return;
                }
                long started = startedAt;
                if (started != 0 && System.currentTimeMillis() - started > PER_FILE_LIMIT_MS) {
                    System.err.println("ConfigDump: " + current + " took over " + PER_FILE_LIMIT_MS + " ms; giving up");
                    Runtime.getRuntime().halt(3);
                }
            }
        }, "ConfigDump-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** Refuses writes and deletions outside one directory; everything else is allowed. */
    private static final class Sandbox extends SecurityManager {
        private final String root;
        final List<String> denied = new java.util.concurrent.CopyOnWriteArrayList<>();

        Sandbox(String root) {
            this.root = root;
        }

        @Override
        public void checkPermission(Permission permission) {
            if (!(permission instanceof FilePermission)) {
                return;
            }
            String actions = permission.getActions();
            if (!actions.contains("write") && !actions.contains("delete")) {
                return;
            }
            String path = permission.getName();
            File file = new File(path);
            String absolute = file.isAbsolute() ? file.getAbsolutePath() : new File(System.getProperty("user.dir"), path).getAbsolutePath();
            String normal = new File(absolute).toPath().normalize().toString();
            if (normal.equals(root) || normal.startsWith(root + File.separator) || normal.startsWith("/dev/")) {
                return;
            }
            denied.add(normal);
            throw new SecurityException("ConfigDump: no writing outside " + root + ": " + normal);
        }

        @Override
        public void checkPermission(Permission permission, Object context) {
            checkPermission(permission);
        }
    }
}
