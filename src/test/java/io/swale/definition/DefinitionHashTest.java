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
}
