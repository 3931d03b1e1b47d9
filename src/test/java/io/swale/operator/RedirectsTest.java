package io.swale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.Test;

/** Which request a 3xx leads to (spec §8.5), decided without a server. */
class RedirectsTest {
    private static HttpResponse<Void> answer(HttpRequest request, int status, String location) {
        HttpHeaders headers = HttpHeaders.of(location == null ? Map.of() : Map.of("Location", List.of(location)),
                (a, b) -> true);
        return new HttpResponse<>() {
            @Override
            public int statusCode() {
                return status;
            }

            @Override
            public HttpRequest request() {
                return request;
            }

            @Override
            public Optional<HttpResponse<Void>> previousResponse() {
                return Optional.empty();
            }

            @Override
            public HttpHeaders headers() {
                return headers;
            }

            @Override
            public Void body() {
                return null;
            }

            @Override
            public Optional<SSLSession> sslSession() {
                return Optional.empty();
            }

            @Override
            public URI uri() {
                return request.uri();
            }

            @Override
            public HttpClient.Version version() {
                return HttpClient.Version.HTTP_1_1;
            }
        };
    }

    private static Optional<URI> next(String from, int status, String location) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(from)).header("X-Api-Key", "k").build();
        return Redirects.next(request, answer(request, status, location)).map(HttpRequest::uri);
    }

    @Test
    void aQueryAloneKeepsThePath() {
        assertThat(next("http://h/api/items?page=1", 302, "?page=2")).contains(URI.create("http://h/api/items?page=2"));
        assertThat(next("http://h/api/items", 302, "other")).contains(URI.create("http://h/api/other"));
        assertThat(next("http://h/api/items", 301, "//g/x")).contains(URI.create("http://g/x"));
    }

    /** The headers written for an https URL (an API key) would go in clear text: the 3xx is the final response. */
    @Test
    void neverFromHttpsToHttp() {
        assertThat(next("https://h/a", 302, "http://h/b")).isEmpty();
        assertThat(next("https://h/a", 302, "https://g/b")).contains(URI.create("https://g/b"));
        assertThat(next("http://h/a", 302, "https://h/b")).contains(URI.create("https://h/b"));
    }

    @Test
    void onlyTheRedirectCodesWithAnHttpLocationAreFollowed() {
        assertThat(next("http://h/a", 302, null)).isEmpty();
        assertThat(next("http://h/a", 300, "/b")).isEmpty();
        assertThat(next("http://h/a", 304, "/b")).isEmpty();
        assertThat(next("http://h/a", 308, "ftp://h/b")).isEmpty();
        assertThat(next("http://h/a", 307, "/b")).contains(URI.create("http://h/b"));
    }
}
