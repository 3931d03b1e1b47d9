package io.swale.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.swale.config.ConfiguredPools;
import io.swale.definition.Definition;
import io.swale.definition.DefinitionFormat;
import io.swale.definition.ShellWarnings;
import io.swale.kafka.PoolTopics;
import io.swale.periodic.SyncService;
import io.swale.run.DefinitionCatalog;
import io.swale.settings.SwaleProperties;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Publishing and validating definitions. */
@RestController
@RequestMapping("/api/v1/definitions")
@Tag(name = "definitions", description = "Publish and validate definitions")
public class DefinitionsController {
    private static final Logger log = LoggerFactory.getLogger(DefinitionsController.class);
    private final DefinitionCatalog catalog;
    private final SyncService sync;
    private final SwaleProperties props;
    private final PoolTopics poolTopics;
    private final ConfiguredPools pools;

    public DefinitionsController(DefinitionCatalog catalog, SyncService sync, SwaleProperties props,
            PoolTopics poolTopics, ConfiguredPools pools) {
        this.catalog = catalog;
        this.sync = sync;
        this.props = props;
        this.poolTopics = poolTopics;
        this.pools = pools;
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Publish a definition (TOML, or YAML with Content-Type application/yaml)")
    @ApiResponse(responseCode = "201", description = "`{\"graph\",\"hash\",\"changed\"}`")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "401", ref = OpenApiConfiguration.UNAUTHORIZED)
    @ApiResponse(responseCode = "409", ref = OpenApiConfiguration.CONFLICT)
    @ApiResponse(responseCode = "422", ref = OpenApiConfiguration.UNPROCESSABLE)
    public Map<String, Object> publish(HttpServletRequest request,
            @RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String contentType) {
        DefinitionCatalog.Published p = catalog.publish(body(request), DefinitionFormat.fromContentType(contentType),
                this::createTopics);
        if (props.hasRole("scheduler")) {
            // A scheduler replica adopts at once rather than at the next sync interval.
            try {
                if (sync.sync().isEmpty()) {
                    log.info("published graph={} definition={}: a sync pass elsewhere held the lock, the next pass "
                            + "adopts it", p.graph(), p.hash());
                }
            } catch (RuntimeException e) {
                // the publish is stored: answering 503 would have its retry report changed=false for this change
                log.warn("published graph={} definition={}: the adoption pass failed, the next pass adopts it error={}",
                        p.graph(), p.hash(), e.toString());
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("graph", p.graph());
        out.put("hash", p.hash());
        out.put("changed", p.changed());
        return out;
    }

    /** The topics of every pool the definition gets served, before it is stored: a failure stores nothing. */
    private void createTopics(Definition d) {
        for (String pool : d.graph().pools()) {
            if (!pools.willServe(pool)) {
                continue;
            }
            try {
                poolTopics.ensure(pool);
            } catch (RuntimeException e) {
                throw new ApiErrors.Unavailable("the topics of pool `" + pool + "` could not be created, nothing was "
                        + "stored: " + e.getMessage(), e);
            }
        }
    }

    @PostMapping("/validate")
    @Operation(summary = "Check a definition without storing it")
    @ApiResponse(responseCode = "200", description = "`{\"graph\",\"nodes\",\"edges\",\"warnings\"}`: warnings "
            + "are lines about what loads but is unsafe, such as an unquoted upstream output in a shell command")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "401", ref = OpenApiConfiguration.UNAUTHORIZED)
    @ApiResponse(responseCode = "422", ref = OpenApiConfiguration.UNPROCESSABLE)
    public Map<String, Object> validate(HttpServletRequest request,
            @RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String contentType) {
        Definition d = catalog.publishingLoader().load(body(request), DefinitionFormat.fromContentType(contentType));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("graph", d.graph().name());
        out.put("nodes", d.graph().nodes().size());
        out.put("edges", d.graph().edgeCount());
        out.put("warnings", ShellWarnings.of(d.graph()));
        return out;
    }

    /**
     * The exact bytes sent, whatever the content type: the hash is of these bytes, and a form content type
     * (what `curl --data-binary` sends by default) must not be decoded as form fields.
     */
    private static byte[] body(HttpServletRequest request) {
        byte[] body;
        try {
            body = request.getInputStream().readAllBytes();
        } catch (RequestLimitsFilter.BodyTooLarge e) {
            throw new ApiErrors.TooLarge(e.getMessage());
        } catch (IOException e) {
            throw new ApiErrors.BadRequest("body", "the body could not be read: " + e.getMessage());
        }
        // an empty body is a definition without its `graph` table: the loader's 422 names it (interfaces §2)
        return body;
    }
}
