package io.swale.api;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document's frame: the bearer scheme, and the error responses every endpoint refers to, all
 * {@code application/problem+json} with the field at fault where there is one.
 */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfiguration {
    public static final String BAD_REQUEST = "#/components/responses/BadRequest";
    public static final String UNAUTHORIZED = "#/components/responses/Unauthorized";
    public static final String NOT_FOUND = "#/components/responses/NotFound";
    public static final String CONFLICT = "#/components/responses/Conflict";
    public static final String RERUN_REFUSED = "#/components/responses/RerunRefused";
    public static final String UNPROCESSABLE = "#/components/responses/Unprocessable";
    public static final String UNAVAILABLE = "#/components/responses/Unavailable";

    @Bean
    OpenAPI swaleOpenApi(ObjectProvider<BuildProperties> build) {
        String version = build.getIfAvailable() == null ? "dev" : build.getIfAvailable().getVersion();
        return new OpenAPI()
                .info(new Info().title("Swale admin API").version(version)
                        .description("Graphs, runs, requests, pools, dead letters and backfills. Errors are "
                                + "application/problem+json. Outside the local profile, POST endpoints need "
                                + "`Authorization: Bearer <swale.security.token>`."))
                .components(new Components()
                        .addSecuritySchemes("bearer", new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer"))
                        .addResponses("BadRequest", problem("A path, query, header or body parameter is invalid; "
                                + "`field` names it", true))
                        .addResponses("Unauthorized", problem("No valid bearer token (outside the local profile)", false))
                        .addResponses("NotFound", problem("The graph, run, node, pool, channel or record does not exist", false))
                        .addResponses("Conflict", problem("Refused: the run is not active, or the request conflicts", false))
                        .addResponses("RerunRefused", problem("`outcome` is active (with `runId`), not_ready or "
                                + "no_record (with `node`), or refused (a cancel that came later overtook the rerun)", false))
                        .addResponses("Unprocessable", problem("Invalid definition (`problems` lists every fault), "
                                + "or an Idempotency-Key reused for another request", false))
                        .addResponses("Unavailable", problem("A transient failure (Redis, Kafka, contention): "
                                + "nothing was recorded, retry with the same Idempotency-Key", false)))
                .addSecurityItem(new SecurityRequirement().addList("bearer"));
    }

    private static ApiResponse problem(String description, boolean withField) {
        ObjectSchema schema = new ObjectSchema();
        schema.addProperty("type", new StringSchema());
        schema.addProperty("title", new StringSchema());
        schema.addProperty("status", new IntegerSchema());
        schema.addProperty("detail", new StringSchema());
        schema.addProperty("instance", new StringSchema());
        if (withField) {
            schema.addProperty("field", new StringSchema().description("the parameter at fault"));
        }
        return new ApiResponse().description(description)
                .content(new Content().addMediaType("application/problem+json", new MediaType().schema(schema)));
    }
}
