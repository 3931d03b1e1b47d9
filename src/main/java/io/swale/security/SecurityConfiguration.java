package io.swale.security;

import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.http.HttpMethod;
import org.springframework.security.authorization.AuthenticatedAuthorizationManager;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;

/**
 * Outside the {@code local} profile, mutating endpoints and every Actuator endpoint but health need
 * {@code Authorization: Bearer <swale.security.token>}; reads of the admin API stay open unless
 * {@code swale.security.anonymous-reads=false}, except a definition's published source, which always needs the token; the OpenAPI document, health, the dashboard's static files
 * and its session probe stay open. Without a token the application refuses to start unless {@code swale.security.open=true}.
 * The local profile (bound to 127.0.0.1) is open.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(SwaleSecurityProperties.class)
public class SecurityConfiguration {
    private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);
    /** Tells the dashboard whether it needs the token; answers without one. */
    public static final String SESSION = "/api/v1/dashboard/session";
    /** The published definition text: operators may put literal credentials in it, so it needs the token even where reads are open. */
    public static final String DEFINITION_SOURCE = "/api/v1/dashboard/graphs/*/definition";

    @Bean
    SecurityFilterChain swaleSecurity(HttpSecurity http, SwaleSecurityProperties props, Environment env) throws Exception {
        http.csrf(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
        boolean local = env.acceptsProfiles(Profiles.of("local"));
        if (local || props.open()) {
            if (!local) {
                log.warn("swale.security.open=true: every endpoint is open to anyone who can reach this port");
            }
            return http.authorizeHttpRequests(a -> a.anyRequest().permitAll()).build();
        }
        if (props.token().isBlank()) {
            throw new IllegalStateException("swale.security.token is not set: outside the local profile, mutating "
                    + "endpoints and Actuator need a bearer token (set swale.security.token, or swale.security.open=true "
                    + "to run without authentication)");
        }
        return http
                .addFilterBefore(new BearerTokenFilter(props.token()), AnonymousAuthenticationFilter.class)
                .authorizeHttpRequests(a -> a
                        // the probe groups are served on the main port too (/livez, /readyz): a probe pointed
                        // there has no token either
                        .requestMatchers("/actuator/health", "/actuator/health/**", "/livez", "/readyz").permitAll()
                        .requestMatchers("/actuator", "/actuator/**").authenticated()
                        // the dashboard's static files hold no data: it asks for the token itself
                        .requestMatchers(HttpMethod.GET, "/", "/*.html", "/assets/**").permitAll()
                        .requestMatchers(HttpMethod.GET, SESSION, "/v3/api-docs", "/v3/api-docs/**",
                                "/swagger-ui.html", "/swagger-ui/**").permitAll()
                        .requestMatchers(DEFINITION_SOURCE).authenticated()
                        .requestMatchers(HttpMethod.GET, "/api/**").access(reads(props))
                        .requestMatchers(HttpMethod.HEAD, "/api/**").access(reads(props))
                        .requestMatchers("/error").permitAll()
                        .anyRequest().authenticated())
                .exceptionHandling(e -> e.authenticationEntryPoint((request, response, ex) -> {
                    // a token sent and refused is told apart from none sent: a stale token is then found at once
                    boolean sent = request.getHeader("Authorization") != null;
                    response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
                    response.setHeader("WWW-Authenticate", sent ? "Bearer realm=\"swale\", error=\"invalid_token\""
                            : "Bearer realm=\"swale\"");
                    response.setContentType("application/problem+json");
                    String detail = sent ? "the Authorization header was refused: it is not `Bearer` and this service's"
                            + " token (swale.security.token)" : "this endpoint needs Authorization: Bearer <token>";
                    response.getOutputStream().write(("{\"type\":\"about:blank\",\"title\":\"Unauthorized\",\"status\":401,"
                            + "\"detail\":\"" + detail + "\",\"instance\":\""
                            + request.getRequestURI().replace("\"", "") + "\"}").getBytes(StandardCharsets.UTF_8));
                }))
                .build();
    }

    private static AuthorizationManager<RequestAuthorizationContext> reads(SwaleSecurityProperties props) {
        return props.anonymousReads() ? (auth, ctx) -> new AuthorizationDecision(true)
                : AuthenticatedAuthorizationManager.authenticated();
    }
}
