package io.swale.api;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;

/**
 * Request bodies are read as written: a number or boolean where the API wants text, or a number or text where it
 * wants a boolean, is a 400 naming the field. In JSON a partition is a plain string (spec §3): {@code 20260901} is
 * not the partition {@code "20260901"}, as the start request already says by reading its keys as JSON values.
 */
@Configuration(proxyBeanMethods = false)
class ApiJson {
    /** Advice in Jackson's coercion errors meant for programmers, not for the API's clients. */
    static final String COERCION_HINT = " (but could if coercion was enabled using `CoercionConfig`)";

    @Bean
    JsonMapperBuilderCustomizer requestBodiesAsWritten() {
        return builder -> builder
                .withCoercionConfig(LogicalType.Textual, c -> c
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Boolean, c -> c
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail));
    }
}
