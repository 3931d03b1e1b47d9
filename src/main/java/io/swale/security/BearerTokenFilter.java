package io.swale.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/** Authenticates a request whose {@code Authorization: Bearer <token>} matches the configured token. */
final class BearerTokenFilter extends OncePerRequestFilter {
    static final String OPERATOR = "swale-operator";
    private final byte[] token;

    BearerTokenFilter(String token) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            byte[] given = header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
            if (MessageDigest.isEqual(given, token)) {
                SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                        OPERATOR, null, List.of(new SimpleGrantedAuthority("ROLE_OPERATOR"))));
            }
        }
        chain.doFilter(request, response);
    }
}
