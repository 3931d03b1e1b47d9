package io.swale.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** Spec §13: 2 for an invalid argument (a bad `--retention` or `--pool`), 1 for any other failed start. */
class ServiceExitTest {

    @Test
    void aStartThatFailedBindingASettingExitsTwo() {
        BindException bad = org.assertj.core.api.Assertions.catchThrowableOfType(BindException.class, () -> new Binder(
                new MapConfigurationPropertySource(Map.of("swale.default-slots", "four"))).bind("swale.default-slots",
                Integer.class));
        assertThat(bad).isNotNull();
        assertThat(ServiceExit.codeOf(new BeanCreationException("swaleProperties", "could not bind", bad)))
                .isEqualTo(ServiceExit.BAD_SETTING);
    }

    @Test
    void anyOtherFailedStartExitsOne() {
        assertThat(ServiceExit.codeOf(new BeanCreationException("kafkaAdmin", "no broker",
                new IllegalStateException("swale.security.token is not set")))).isEqualTo(ServiceExit.START_FAILED);
        assertThat(ServiceExit.codeOf(new IllegalStateException("port in use"))).isEqualTo(ServiceExit.START_FAILED);
    }
}
