package io.swale.api;

import io.swale.settings.SwaleProperties;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The admin API and the dashboard are the {@code api} role's: a replica without it (a pool worker, a scheduler in
 * its own Deployment) answers only its probes and Actuator, so the API is served where the chart's Service and
 * Ingress send it and nowhere else, and a read open to anonymous callers is not open on every pod.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 15)
public class ApiRoleFilter extends OncePerRequestFilter {
    private final boolean servesApi;
    private final List<String> roles;
    /** What every replica serves, whatever its roles: probes, Actuator (metrics), and the error page. */
    private final List<String> everyRole;

    @Autowired
    public ApiRoleFilter(SwaleProperties props,
            @Value("${management.endpoints.web.base-path:/actuator}")
            String actuator) {
        this(props.roles(), actuator);
    }

    ApiRoleFilter(List<String> roles, String actuator) {
        this.roles = List.copyOf(roles);
        this.servesApi = roles.contains("api");
        this.everyRole = List.of(actuator.endsWith("/") ? actuator.substring(0, actuator.length() - 1) : actuator,
                "/livez", "/readyz", "/error");
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        if (servesApi) {
            return true;
        }
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return everyRole.stream().anyMatch(p -> path.equals(p) || path.startsWith(p + "/"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ProblemResponses.write(response, 404, "Not found", "this replica does not serve the admin API or the "
                + "dashboard: its roles are " + String.join(",", roles) + " (swale.roles), and the api role does",
                Optional.empty());
    }
}
