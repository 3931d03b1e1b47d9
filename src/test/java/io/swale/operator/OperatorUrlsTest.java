package io.swale.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URISyntaxException;
import org.junit.jupiter.api.Test;

class OperatorUrlsTest {

    @Test
    void whatOnlyALenientParserTakesIsPercentEncodedAfterTheAuthority() throws URISyntaxException {
        assertThat(OperatorUrls.parse("https://reports.example/files/Q3 summary.pdf").toString())
                .isEqualTo("https://reports.example/files/Q3%20summary.pdf");
        assertThat(OperatorUrls.parse("s3://landing/a|b/{c}/100%/x?q=\"é\"#f#g").toString())
                .isEqualTo("s3://landing/a%7Cb/%7Bc%7D/100%25/x?q=%22%C3%A9%22#f%23g");
        assertThat(OperatorUrls.parse("s3://landing/exports/Q3 summary.csv").getPath())
                .as("the key is the name as written").isEqualTo("/exports/Q3 summary.csv");
    }

    @Test
    void aUrlThatParsesIsLeftAsItIs() throws URISyntaxException {
        assertThat(OperatorUrls.parse("http://h:8080/a%20b?x=1&y=%2F").toString()).isEqualTo("http://h:8080/a%20b?x=1&y=%2F");
    }

    @Test
    void aWrongAuthorityStillDoesNotParse() {
        assertThatThrownBy(() -> OperatorUrls.parse("s3://my bucket/key")).isInstanceOf(URISyntaxException.class)
                .hasMessageContaining("my bucket");
        assertThatThrownBy(() -> OperatorUrls.parse("http://[::1/x")).isInstanceOf(URISyntaxException.class);
    }
}
