package io.swale.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class ConditionInputsTest {

    private static StandardEnvironment environment(Map<String, Object> settings) {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources().addFirst(new MapPropertySource("settings", settings));
        return env;
    }

    /** What the build's step would write after the conditions read these names from this environment. */
    private static Properties recorded(StandardEnvironment env, String... names) {
        env.getPropertySources().addFirst(new ConditionInputs.Recorder());
        for (String name : names) {
            env.getProperty(name);
        }
        return ConditionInputs.snapshot(env);
    }

    @Test
    void theRecorderNotesEveryNameAskedForWithoutAnsweringAndLeavesWithTheSnapshot() {
        StandardEnvironment env = environment(Map.of("management.server.port", "9090"));
        env.setActiveProfiles("local");
        env.getPropertySources().addFirst(new ConditionInputs.Recorder());
        assertThat(env.getProperty("management.server.port")).as("the sources behind it answer").isEqualTo("9090");
        env.getProperty("spring.jmx.enabled");
        env.getProperty("server.port");

        Properties inputs = ConditionInputs.snapshot(env);
        assertThat(env.getPropertySources().contains(ConditionInputs.Recorder.NAME)).isFalse();
        assertThat(inputs).containsEntry("value.management.server.port", "9090")
                .containsEntry("absent.spring.jmx.enabled", "")
                .containsEntry(ConditionInputs.PROFILES_KEY, "local")
                // differs at every start, and no condition reads it alone
                .doesNotContainKey("absent.server.port");
    }

    @Test
    void theSameSettingsAndProfilesShowNoDifference() {
        Properties inputs = recorded(environment(Map.of("spring.threads.virtual.enabled", "false")),
                "spring.threads.virtual.enabled", "spring.jmx.enabled");
        StandardEnvironment start = environment(Map.of("spring.threads.virtual.enabled", "false", "server.port", "0"));
        assertThat(ConditionInputs.differences(inputs, start, List.of())).isEmpty();
    }

    @Test
    void eachSettingReadDifferentlyIsNamed() {
        StandardEnvironment built = environment(Map.of("spring.threads.virtual.enabled", "false",
                "management.endpoints.web.exposure.include", "health"));
        built.setActiveProfiles("local");
        Properties inputs = recorded(built, "spring.threads.virtual.enabled",
                "management.endpoints.web.exposure.include", "spring.jmx.enabled");

        StandardEnvironment start = environment(Map.of("management.endpoints.web.exposure.include", "health,beans",
                "spring.jmx.enabled", "true"));
        assertThat(ConditionInputs.differences(inputs, start, List.of("local", "prod"))).containsExactlyInAnyOrder(
                "profiles [local, prod] (built with [local])",
                "spring.threads.virtual.enabled unset",
                "management.endpoints.web.exposure.include set differently",
                "spring.jmx.enabled set");
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
