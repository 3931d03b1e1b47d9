package io.swale.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The api role serves the admin API and the dashboard; a replica without it serves its probes and Actuator only.
 * Was: every replica served everything, whatever swale.roles said (the docs and the chart's api Deployment aside).
 */
class ApiRoleFilterTest {
    private static boolean passed(List<String> roles, String path) throws Exception {
        AtomicBoolean reached = new AtomicBoolean();
        MockHttpServletResponse response = new MockHttpServletResponse();
        new ApiRoleFilter(roles, "/actuator").doFilter(new MockHttpServletRequest("GET", path), response, (q, r) -> reached.set(true));
        if (!reached.get()) {
            assertThat(response.getStatus()).isEqualTo(404);
            assertThat(response.getContentAsString()).contains("swale.roles").contains("pool");
        }
        return reached.get();
    }

    @Test
    void aReplicaWithoutTheApiRoleServesOnlyItsProbesAndActuator() throws Exception {
        for (String path : List.of("/api/v1/graphs", "/api/v1/dashboard/graphs", "/", "/index.html", "/v3/api-docs",
                "/swagger-ui.html", "/actuatorx")) {
            assertThat(passed(List.of("pool"), path)).as(path).isFalse();
        }
        for (String path : List.of("/actuator/health/readiness", "/actuator/prometheus", "/actuator", "/livez",
                "/readyz", "/error")) {
            assertThat(passed(List.of("pool"), path)).as(path).isTrue();
        }
    }

    @Test
    void actuatorIsWhereManagementPutsIt() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        AtomicBoolean reached = new AtomicBoolean();
        new ApiRoleFilter(List.of("pool"), "/manage/").doFilter(new MockHttpServletRequest("GET", "/manage/health"),
                response, (q, r) -> reached.set(true));
        assertThat(reached).isTrue();
        new ApiRoleFilter(List.of("pool"), "/manage").doFilter(new MockHttpServletRequest("GET", "/actuator/health"),
                response, (q, r) -> reached.set(false));
        assertThat(reached).as("/actuator is not Actuator's path here").isTrue();
        assertThat(response.getStatus()).isEqualTo(404);
    }

    @Test
    void aReplicaWithTheApiRoleServesEverything() throws Exception {
        for (String path : List.of("/api/v1/graphs", "/", "/actuator/health")) {
            assertThat(passed(List.of("scheduler", "pool", "api"), path)).as(path).isTrue();
            assertThat(passed(List.of("api"), path)).as(path).isTrue();
        }
    }
}
