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

    /** A value from a file or an environment variable often ends in a newline: it is not part of the URL. */
    @Test
    void controlsAndSpacesAroundAndTabsAndNewlinesWithinAreDropped() throws URISyntaxException {
        assertThat(OperatorUrls.parse("https://hooks.example/hook\n").toString()).isEqualTo("https://hooks.example/hook");
        assertThat(OperatorUrls.parse(" \thttps://hooks.example/a b\r\n").toString())
                .isEqualTo("https://hooks.example/a%20b");
        assertThat(OperatorUrls.parse("s3://land\ning/exports/\tday.csv").toString())
                .isEqualTo("s3://landing/exports/day.csv");
        assertThat(OperatorUrls.parse("file:///data/ready\n").getPath()).isEqualTo("/data/ready");
    }

    @Test
    void aWrongAuthorityStillDoesNotParse() {
        assertThatThrownBy(() -> OperatorUrls.parse("s3://my bucket/key")).isInstanceOf(URISyntaxException.class)
                .hasMessageContaining("my bucket");
        assertThatThrownBy(() -> OperatorUrls.parse("http://[::1/x")).isInstanceOf(URISyntaxException.class);
    }
}
