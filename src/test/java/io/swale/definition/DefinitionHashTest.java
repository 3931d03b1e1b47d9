package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DefinitionHashTest {

    @Test
    void sha256OfAbc() {
        assertThat(DefinitionHash.of("abc".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(DefinitionHash.of("abc")).isEqualTo(DefinitionHash.of("abc".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void sixtyFourLowerCaseHexCharacters() {
        assertThat(DefinitionHash.of(new byte[0])).matches("[0-9a-f]{64}");
    }

    @Test
    void loadHashesTheExactBytes() {
        String text = "[graph]\nname = \"g\"\n[[node]]\nname = \"a\"\noperator = \"noop\"\n";
        DefinitionLoader loader = TestOperators.loader();
        Definition plain = loader.load(text, DefinitionFormat.TOML);
        Definition commented = loader.load(("# note\n" + text).getBytes(StandardCharsets.UTF_8), DefinitionFormat.TOML);
        assertThat(plain.hash()).isEqualTo(DefinitionHash.of(text.getBytes(StandardCharsets.UTF_8)));
        assertThat(plain.text()).isEqualTo(text);
        assertThat(commented.hash()).isNotEqualTo(plain.hash());
        assertThat(loader.load(text + " ", DefinitionFormat.TOML).hash()).isNotEqualTo(plain.hash());
    }

    @Test
    void aByteOrderMarkIsReadPastAndKeptInTheHashAndText() {
        String text = "[graph]\nname = \"g\"\n[[node]]\nname = \"a\"\noperator = \"noop\"\n";
        byte[] marked = ("\uFEFF" + text).getBytes(StandardCharsets.UTF_8);
        DefinitionLoader loader = TestOperators.loader();
        for (DefinitionFormat format : DefinitionFormat.values()) {
            String source = format == DefinitionFormat.TOML ? text : "graph:\n  name: g\nnode:\n  - name: a\n    operator: noop\n";
            byte[] bytes = ("\uFEFF" + source).getBytes(StandardCharsets.UTF_8);
            Definition d = loader.load(bytes, format);
            assertThat(d.graph().name()).as("%s", format).isEqualTo("g");
            assertThat(d.hash()).isEqualTo(DefinitionHash.of(bytes));
            // the stored text gives back the exact bytes, so a definition read back from the store hashes the same
            assertThat(d.text().getBytes(StandardCharsets.UTF_8)).isEqualTo(bytes);
        }
        assertThat(loader.load(marked, DefinitionFormat.TOML).hash()).isNotEqualTo(loader.load(text, DefinitionFormat.TOML).hash());
    }
}
