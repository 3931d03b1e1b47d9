package io.swale.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.security.web.SecurityFilterChain;

/** Outside the local profile the application refuses to start without a token unless told to run open. */
class SecurityConfigurationTest {
    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SecurityAutoConfiguration.class,
                    ServletWebSecurityAutoConfiguration.class))
            .withUserConfiguration(SecurityConfiguration.class);

    @Test
    void refusesToStartWithoutAToken() {
        runner.run(ctx -> {
            assertThat(ctx).hasFailed();
            assertThat(ctx.getStartupFailure()).rootCause().hasMessageContaining("swale.security.token")
                    .hasMessageContaining("swale.security.open=true");
        });
    }

    @Test
    void startsWithATokenOrWhenOpenOrLocal() {
        runner.withPropertyValues("swale.security.token=t").run(ctx -> assertThat(ctx).hasSingleBean(SecurityFilterChain.class));
        runner.withPropertyValues("swale.security.open=true").run(ctx -> assertThat(ctx).hasSingleBean(SecurityFilterChain.class));
        runner.withPropertyValues("spring.profiles.active=local").run(ctx -> assertThat(ctx).hasSingleBean(SecurityFilterChain.class));
    }
}
