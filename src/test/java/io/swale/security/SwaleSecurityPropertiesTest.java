package io.swale.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.core.context.SecurityContextHolder;

class SwaleSecurityPropertiesTest {

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
    }

    /** Was: a token from a file (a Kubernetes secret made with --from-file) kept its newline, and no request matched it. */
    @Test
    void aTokenReadWithATrailingNewlineMatchesTheTokenSent() throws Exception {
        SwaleSecurityProperties props = new SwaleSecurityProperties("s3cret\n", false, true);
        assertThat(props.token()).isEqualTo("s3cret");

        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/graphs/g/runs/p/cancel");
        request.addHeader("Authorization", "Bearer s3cret");
        new BearerTokenFilter(props.token()).doFilter(request, new MockHttpServletResponse(), new MockFilterChain());
        assertThat(SecurityContextHolder.getContext().getAuthentication()).isNotNull()
                .satisfies(a -> assertThat(a.isAuthenticated()).isTrue());
    }

    @Test
    void aControlCharacterWithinTheTokenStopsTheStartNamingIt() {
        assertThatThrownBy(() -> new SwaleSecurityProperties("ab\u0007cd", false, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("swale.security.token").hasMessageContaining("index 2");
    }

    @Test
    void aTokenOfWhitespaceOnlyCountsAsNone() {
        assertThat(new SwaleSecurityProperties(" \n", false, true).token()).isEmpty();
    }
}
