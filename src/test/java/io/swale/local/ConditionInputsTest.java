package io.swale.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class ConditionInputsTest {
    private static final Optional<String> BUILT = Optional.of("2026-12-07T18:00:00.000Z");

    /** As Spring Boot prepares it: the sources seen through its attached source, relaxed names included. */
    private static StandardEnvironment environment(Map<String, Object> settings) {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources().addFirst(new MapPropertySource("settings", settings));
        ConfigurationPropertySources.attach(env);
        return env;
    }

    /** What the build's step would write after the conditions read these names from this environment. */
    private static Properties recorded(StandardEnvironment env, String... names) {
        env.getPropertySources().addFirst(new ConditionInputs.Recorder());
        for (String name : names) {
            env.getProperty(name);
        }
        return ConditionInputs.snapshot(env, BUILT);
    }

    @Test
    void theRecorderNotesEveryNameAskedForWithoutAnsweringAndLeavesWithTheSnapshot() {
        StandardEnvironment env = environment(Map.of("management.endpoints.web.exposure.include", "health"));
        env.setActiveProfiles("local");
        env.getPropertySources().addFirst(new ConditionInputs.Recorder());
        assertThat(env.getProperty("management.endpoints.web.exposure.include")).as("the sources behind it answer")
                .isEqualTo("health");
        env.getProperty("spring.jmx.enabled");
        env.getProperty("server.port");

        Properties inputs = ConditionInputs.snapshot(env, BUILT);
        assertThat(env.getPropertySources().contains(ConditionInputs.Recorder.NAME)).isFalse();
        assertThat(inputs).containsEntry("value.management.endpoints.web.exposure.include", "health")
                .containsEntry("absent.spring.jmx.enabled", "")
                .containsEntry(ConditionInputs.PROFILES_KEY, "local")
                .containsEntry(ConditionInputs.LOCAL_MODE_KEY, "true")
                .containsEntry(ConditionInputs.BUILD_TIME_KEY, BUILT.get())
                // read by the application before any condition: recorded though no lookup passed the recorder
                .containsEntry("absent.spring.main.web-application-type", "")
                // differs at every start, and a condition reads it only against management.server.port, unset
                .doesNotContainKey("absent.server.port");
    }

    @Test
    void serverPortIsKeptWhenTheManagementPortWasSet() {
        Properties inputs = recorded(environment(Map.of("management.server.port", "9090")), "management.server.port",
                "server.port");
        assertThat(inputs).containsEntry("value.management.server.port", "9090").containsKey("absent.server.port");
    }

    @Test
    void theSameSettingsProfilesAndBuildShowNoDifference() {
        Properties inputs = recorded(environment(Map.of("spring.threads.virtual.enabled", "false")),
                "spring.threads.virtual.enabled", "spring.jmx.enabled");
        StandardEnvironment start = environment(Map.of("spring.threads.virtual.enabled", "false", "server.port", "0"));
        assertThat(ConditionInputs.differences(inputs, BUILT, start, List.of())).isEmpty();
    }

    @Test
    void eachSettingReadDifferentlyIsNamedInAnyOfItsForms() {
        StandardEnvironment built = environment(Map.of("spring.threads.virtual.enabled", "false",
                "management.endpoints.web.exposure.include", "health"));
        built.setActiveProfiles("local");
        Properties inputs = recorded(built, "spring.threads.virtual.enabled",
                "management.endpoints.web.exposure.include", "spring.jmx.enabled");

        StandardEnvironment start = environment(Map.of("spring.jmx.enabled", "true",
                "spring.main.web-application-type", "none"));
        // an environment variable's form binds to the same name
        start.getPropertySources().addLast(new SystemEnvironmentPropertySource("env",
                Map.of("MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE", "health,beans")));
        assertThat(ConditionInputs.differences(inputs, BUILT, start, List.of("local", "prod")))
                .containsExactlyInAnyOrder("profiles [local, prod] (built with [local])",
                        "spring.threads.virtual.enabled unset",
                        "management.endpoints.web.exposure.include set differently", "spring.jmx.enabled set",
                        "spring.main.web-application-type set");
    }

    @Test
    void anotherBuildsOutputOrOneMadeOutsideLocalModeIsNotUsed() {
        StandardEnvironment env = environment(Map.of());
        Properties inputs = recorded(env);
        assertThat(ConditionInputs.differences(inputs, Optional.of("2026-12-07T19:00:00.000Z"), env, List.of()))
                .singleElement().asString().contains("another build");
        assertThat(ConditionInputs.differences(inputs, Optional.empty(), env, List.of())).hasSize(1);

        Properties elsewhere = ConditionInputs.snapshot(environment(Map.of()), BUILT);
        assertThat(elsewhere).containsEntry(ConditionInputs.LOCAL_MODE_KEY, "false");
        assertThat(ConditionInputs.differences(elsewhere, BUILT, env, List.of())).singleElement().asString()
                .contains("did not run in local mode");
    }

    @Test
    void onlyOutputInTheSameJarAsTheApplicationsClassesIsUsed() {
        String nestedMain = "jar:nested:/srv/swale.jar/!BOOT-INF/classes/!/io/swale/SwaleApplication.class";
        // the service jar: the output at its root (on the JVM's class path), the classes nested
        assertThat(SpringAotStart.inOneJar("jar:file:/srv/swale.jar!/" + ConditionInputs.RESOURCE, nestedMain))
                .isTrue();
        assertThat(SpringAotStart.inOneJar("jar:file:/srv/unpacked/swale.jar!/" + ConditionInputs.RESOURCE,
                "jar:file:/srv/unpacked/swale.jar!/io/swale/SwaleApplication.class")).isTrue();
        // a folder of classes (spring-boot:run, an IDE), or the output found in another jar, or none
        assertThat(SpringAotStart.inOneJar("file:/work/target/classes/" + ConditionInputs.RESOURCE,
                "file:/work/target/classes/io/swale/SwaleApplication.class")).isFalse();
        assertThat(SpringAotStart.inOneJar("jar:file:/srv/other.jar!/" + ConditionInputs.RESOURCE, nestedMain))
                .isFalse();
        assertThat(SpringAotStart.inOneJar("", nestedMain)).isFalse();
    }

    @Test
    void theWrittenFormReadsBackAsWrittenAndIsSorted() throws Exception {
        Properties inputs = new Properties();
        inputs.setProperty("value.b", "x=y:z \u00e9");
        inputs.setProperty("absent.a[0]", "");
        inputs.setProperty(ConditionInputs.PROFILES_KEY, "local");
        String text = ConditionInputs.format(inputs);
        assertThat(text.lines().toList()).isSorted();
        Properties read = new Properties();
        read.load(new StringReader(text));
        assertThat(read).isEqualTo(inputs);
    }
}
