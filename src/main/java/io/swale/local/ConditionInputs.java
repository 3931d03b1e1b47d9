package io.swale.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.stream.Collectors;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

/**
 * What the build's AOT step let decide which beans local mode has: every property the conditions looked up while
 * the step evaluated them, with the value each had, and the active profiles. A start may use the beans the step
 * wrote down only while each of these reads the same (see {@link SpringAotStart}); a property set differently
 * (on the command line, in a file, in the environment) could have given other beans.
 *
 * <p>The names are caught by a property source put first while the step runs: each lookup passes through it,
 * whichever source answers.
 */
final class ConditionInputs {
    /** Where the build keeps them, next to the classes it generated. */
    static final String RESOURCE = "META-INF/swale/aot-condition-inputs.properties";
    static final String PROFILES_KEY = "swale.aot.profiles";
    /** Whether the step ran in local mode: run elsewise, its definitions are no local mode's. */
    static final String LOCAL_MODE_KEY = "swale.aot.local-mode";
    /**
     * The build's time ({@code META-INF/build-info.properties}, written by every build): a build that skipped the
     * step, or {@code spring-boot:run} over the classes, leaves the earlier step's output beside newer classes.
     */
    static final String BUILD_TIME_KEY = "swale.aot.build-time";
    private static final String BUILD_INFO = "META-INF/build-info.properties";
    private static final String VALUE_PREFIX = "value.";
    private static final String ABSENT_PREFIX = "absent.";

    /**
     * Read while the beans are defined but not a condition's input, and different at each start or between the
     * build and a start: local mode's own server addresses, the process id, the version (from the jar's manifest,
     * which the build's classes folder has not), the AOT switches, and {@code server.port}, which a condition reads
     * only to compare with {@code management.server.port} (kept).
     */
    private static final Set<String> PER_START = Set.of("spring.kafka.bootstrap-servers",
            "spring.data.redis.host", "spring.data.redis.port", "spring.application.pid",
            "spring.application.version", "spring.aot.processing", "spring.aot.enabled");

    /**
     * Read before the step's recorder is in place, by the application itself rather than a condition, yet they
     * decide its context: its type (web or not), its sources, initializers and listeners, lazy beans.
     */
    private static final List<String> READ_BEFORE = List.of("spring.main.web-application-type", "spring.main.sources",
            "spring.main.allow-bean-definition-overriding", "spring.main.allow-circular-references",
            "spring.main.lazy-initialization", "spring.main.cloud-platform", "context.initializer.classes",
            "context.listener.classes");

    private ConditionInputs() {
    }

    /** Put first in the environment while the AOT step runs; answers nothing, notes every name asked for. */
    static final class Recorder extends PropertySource<Set<String>> {
        static final String NAME = "swaleAotConditionInputs";

        Recorder() {
            super(NAME, new ConcurrentSkipListSet<>());
        }

        @Override
        public Object getProperty(String name) {
            getSource().add(name);
            return null;
        }
    }

    /**
     * The names asked for so far with their values now, the profiles and the build's time; the recorder leaves the
     * environment. Without a recorder (the step ran outside local mode) only that it did, and the build's time.
     */
    static Properties snapshot(ConfigurableEnvironment env, Optional<String> buildTime) {
        PropertySource<?> recorder = env.getPropertySources().remove(Recorder.NAME);
        Properties out = new Properties();
        buildTime.ifPresent(t -> out.setProperty(BUILD_TIME_KEY, t));
        out.setProperty(LOCAL_MODE_KEY, Boolean.toString(recorder instanceof Recorder));
        if (!(recorder instanceof Recorder r)) {
            return out;
        }
        Set<String> names = new TreeSet<>(r.getSource());
        names.addAll(READ_BEFORE);
        names.removeAll(PER_START);
        // a condition reads server.port only to compare it with management.server.port
        if (!env.containsProperty("management.server.port")) {
            names.remove("server.port");
        }
        for (String name : names) {
            String value = env.getProperty(name);
            if (value == null) {
                out.setProperty(ABSENT_PREFIX + name, "");
            } else {
                out.setProperty(VALUE_PREFIX + name, value);
            }
        }
        out.setProperty(PROFILES_KEY, String.join(",", env.getActiveProfiles()));
        return out;
    }

    /** This build's time, as its {@code build-info.properties} says. */
    static Optional<String> buildTime(ClassLoader loader) {
        return properties(loader, BUILD_INFO).map(p -> p.getProperty("build.time"));
    }

    static String format(Properties inputs) {
        StringWriter text = new StringWriter();
        try {
            inputs.store(text, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // sorted, and without the date line, so that two builds of the same sources write the same file
        return text.toString().lines().filter(l -> !l.startsWith("#")).sorted()
                .collect(Collectors.joining("\n", "", "\n"));
    }

    /** The inputs the build wrote, read from where the class loader found them. */
    static Optional<Properties> load(URL output) {
        try (InputStream in = output.openStream()) {
            return Optional.of(read(in));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<Properties> properties(ClassLoader loader, String resource) {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            return in == null ? Optional.empty() : Optional.of(read(in));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Properties read(InputStream in) throws IOException {
        Properties read = new Properties();
        read.load(in);
        return read;
    }

    /**
     * How this start's environment differs from the build's in what the conditions read, one line per difference;
     * none means the build's beans are this start's too. {@code profilesAfterStart} are the profiles the start will
     * have once local mode adds its own.
     */
    static List<String> differences(Properties inputs, Optional<String> buildTime, ConfigurableEnvironment env,
            List<String> profilesAfterStart) {
        List<String> found = new ArrayList<>();
        if (!"true".equals(inputs.getProperty(LOCAL_MODE_KEY))) {
            found.add("the build's AOT step did not run in local mode");
            return found;
        }
        String built = inputs.getProperty(BUILD_TIME_KEY);
        if (built == null || !buildTime.equals(Optional.of(built))) {
            found.add("the AOT step's output is of another build (" + built + ") than these classes ("
                    + buildTime.orElse("no build time") + ")");
            return found;
        }
        List<String> builtProfiles = Arrays.stream(inputs.getProperty(PROFILES_KEY, "").split(","))
                .filter(p -> !p.isEmpty()).toList();
        if (!builtProfiles.equals(profilesAfterStart)) {
            found.add("profiles " + profilesAfterStart + " (built with " + builtProfiles + ")");
        }
        for (String key : inputs.stringPropertyNames()) {
            if (key.startsWith(VALUE_PREFIX)) {
                String name = key.substring(VALUE_PREFIX.length());
                String now = env.getProperty(name);
                if (!inputs.getProperty(key).equals(now)) {
                    found.add(name + (now == null ? " unset" : " set differently"));
                }
            } else if (key.startsWith(ABSENT_PREFIX)) {
                String name = key.substring(ABSENT_PREFIX.length());
                if (env.containsProperty(name)) {
                    found.add(name + " set");
                }
            }
        }
        return found;
    }
}
