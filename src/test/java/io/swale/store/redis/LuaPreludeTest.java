package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Each script carries the helpers of lib.lua it names, and the ones those name, and no other. */
class LuaPreludeTest {
    private static final String LIB = """
            -- helpers
            -- the clock
            local function clock()
              return redis.call('TIME')
            end
            local function now_ms()
              return (clock())
            end
            local ACTIVE = { pending = true }
            -- keys, in order
            local CAP, COUNT =
                KEYS[1], KEYS[2]
            local function held(name)
              return tonumber(redis.call('HGET', COUNT, name) or '0')
            end
            local function unused()
              return ACTIVE
            end
            """;

    @Test
    void aScriptGetsWhatItNamesAndWhatThatNames() {
        String prelude = LuaPrelude.of(LIB).select("local now = now_ms()\nreturn now");

        assertThat(prelude).contains("local function now_ms()", "local function clock()", "-- the clock")
                .doesNotContain("ACTIVE", "held", "unused", "CAP");
    }

    @Test
    void aDefinitionOfSeveralNamesComesWithAnyOfThem() {
        String prelude = LuaPrelude.of(LIB).select("return held(ARGV[1])");

        assertThat(prelude).contains("local CAP, COUNT =\n    KEYS[1], KEYS[2]", "-- keys, in order",
                "local function held(name)").doesNotContain("clock", "ACTIVE");
    }

    @Test
    void aNameInsideALongerNameIsNotAUse() {
        assertThat(LuaPrelude.of(LIB).select("local my_clock_x = 1\nreturn my_clock_x")).doesNotContain("function");
    }

    @Test
    void theDefinitionsKeepTheirOrder() {
        String prelude = LuaPrelude.of(LIB).select("return { unused(), now_ms() }");

        assertThat(prelude.indexOf("function clock")).isLessThan(prelude.indexOf("function now_ms"));
        assertThat(prelude.indexOf("function now_ms")).isLessThan(prelude.indexOf("local ACTIVE"));
        assertThat(prelude.indexOf("local ACTIVE")).isLessThan(prelude.indexOf("function unused"));
    }

    @Test
    void theClaimScriptLeavesOutWhatOnlyOthersUse() {
        String claim = new RedisScripts().claim.source();

        assertThat(claim).contains("local function clock()", "local function load_instance(",
                "local function save_instance(", "local function index_lease(", "local function run_cancelled(")
                .doesNotContain("local function all_idle(", "local function append_history(",
                        "local function run_state(");
    }
}
