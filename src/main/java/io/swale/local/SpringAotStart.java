package io.swale.local;

import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import org.apache.commons.logging.Log;
import org.springframework.aot.AotDetector;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Local mode starts from the bean definitions that the build's AOT step wrote (Spring's
 * {@code spring.aot.enabled}): the start skips parsing the configuration classes and evaluating their conditions,
 * which took about a fifth of it (issue 18). The step evaluated those conditions once, for local mode as the jar
 * ships it; so the start uses its definitions only while everything they read reads the same
 * ({@link ConditionInputs}) and the output is this build's, and otherwise starts as before, saying what differs.
 * Only the service's own start ({@code SwaleApplication.main}) from its jar opts in: a test's context has other
 * sources. {@code swale.spring-aot=false} turns it off.
 */
public final class SpringAotStart implements EnvironmentPostProcessor, Ordered {
    private static volatile boolean allowed;

    private final Log log;

    public SpringAotStart(DeferredLogFactory logs) {
        this.log = logs.getLog(SpringAotStart.class);
    }

    /** Called by the service's main method only. */
    public static void allowForThisProcess() {
        allowed = true;
    }

    @Override
    public int getOrder() {
        // after every source of settings (files, SPRING_APPLICATION_JSON) is in place
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment env, SpringApplication application) {
        // the build's AOT step runs main() too, over the classes an earlier build generated
        if (!allowed || Boolean.getBoolean("spring.aot.processing") || AotDetector.useGeneratedArtifacts()
                || !switchedOn(env) || !wantsEmbedded(env)
                || application.getMainApplicationClass() == null) {
            return;
        }
        ClassLoader loader = application.getClassLoader();
        String main = application.getMainApplicationClass().getName();
        URL output = loader.getResource(ConditionInputs.RESOURCE);
        if (output == null || !ClassUtils.isPresent(main + "__ApplicationContextInitializer", loader)) {
            return;
        }
        String classes = Objects.toString(loader.getResource(main.replace('.', '/') + ".class"), "");
        if (!inOneJar(output.toString(), classes)) {
            log.debug("local mode: the build's AOT output (" + output + ") is not in the jar of " + classes
                    + "; starting without it");
            return;
        }
        Optional<Properties> inputs = ConditionInputs.load(output);
        if (inputs.isEmpty()) {
            return;
        }
        // compared as the beans will see them, once local mode's initializer has put its own settings first
        MapPropertySource embedded = new MapPropertySource("swaleEmbeddedPreview",
                LocalModeInitializer.embeddedProperties(env, LocalModeInitializer.NOT_STARTED));
        env.getPropertySources().addFirst(embedded);
        List<String> differences;
        try {
            differences = ConditionInputs.differences(inputs.get(), ConditionInputs.buildTime(loader), env,
                    profilesOnceStarted(env));
        } finally {
            env.getPropertySources().remove(embedded.getName());
        }
        if (differences.isEmpty()) {
            System.setProperty("spring.aot.enabled", "true");
            log.debug("local mode: starting from the bean definitions of the build's AOT step");
        } else {
            log.info("local mode: starting without the build's AOT bean definitions: "
                    + String.join("; ", differences));
        }
    }

    /**
     * Whether the AOT step's output and the application's classes come from one jar (the service jar, where the
     * output sits at the root and the classes under BOOT-INF/classes/, or its unpacked copy): a folder of classes
     * ({@code spring-boot:run}, an IDE) keeps an earlier package's output beside classes compiled since, which no
     * build time tells apart.
     */
    static boolean inOneJar(String output, String mainClass) {
        Optional<String> jar = archive(output);
        return jar.isPresent() && jar.equals(archive(mainClass));
    }

    /** The outermost jar a resource URL points into: {@code jar:file:…!/…} or {@code jar:nested:…/!…}. */
    private static Optional<String> archive(String url) {
        if (url.startsWith("jar:file:") && url.contains("!/")) {
            return Optional.of(url.substring("jar:file:".length(), url.indexOf("!/")));
        }
        if (url.startsWith("jar:nested:") && url.contains("/!")) {
            return Optional.of(url.substring("jar:nested:".length(), url.indexOf("/!")));
        }
        return Optional.empty();
    }

    private static boolean switchedOn(ConfigurableEnvironment env) {
        String value = env.getProperty("swale.spring-aot", "true").strip();
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException("swale.spring-aot=" + value + " is neither true nor false");
        }
        return Boolean.parseBoolean(value);
    }

    private static boolean wantsEmbedded(ConfigurableEnvironment env) {
        try {
            return LocalModeInitializer.wantsEmbedded(env);
        } catch (IllegalStateException e) {
            return false; // the start itself reports the bad setting
        }
    }

    /** The profiles local mode's initializer leaves active. */
    private static List<String> profilesOnceStarted(ConfigurableEnvironment env) {
        List<String> profiles = new ArrayList<>(Arrays.asList(env.getActiveProfiles()));
        if (LocalModeInitializer.keepsLocalProfile(env) && !profiles.contains("local")) {
            profiles.add("local");
        }
        return profiles;
    }
}
