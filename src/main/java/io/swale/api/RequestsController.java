package io.swale.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.swale.record.RequestJson;
import io.swale.record.RequestOutcome;
import io.swale.record.RequestRecord;
import io.swale.request.Requests;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.node.ObjectNode;

/** Request records: what a start, rerun or cancel did, by request id (spec §10). */
@RestController
@RequestMapping("/api/v1/requests")
@Tag(name = "requests", description = "Records of handled start, rerun and cancel requests")
public class RequestsController {
    private final Requests requests;

    public RequestsController(Requests requests) {
        this.requests = requests;
    }

    @GetMapping("/{id}")
    @Operation(summary = "The record of a request: the request, when it was handled, and its outcome")
    @ApiResponse(responseCode = "200", description = "`{\"id\",\"request\",\"handledAt\",\"outcome\"}`")
    @ApiResponse(responseCode = "400", ref = OpenApiConfiguration.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = OpenApiConfiguration.NOT_FOUND)
    public Map<String, Object> request(@PathVariable String id) {
        RequestRecord r = requests.find(Paths.requestId("id", id))
                .orElseThrow(() -> new ApiErrors.NotFound("no request record for id `" + id + "`"));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", r.id());
        out.put("request", RequestJson.request(r.request()));
        out.put("handledAt", RunViews.time(r.handledAtMs()));
        out.put("outcome", outcomeView(r.outcome()));
        return out;
    }

    /** An outcome as the API shows it: its stored form, with the API's camelCase {@code runId}. */
    static ObjectNode outcomeView(RequestOutcome o) {
        ObjectNode outcome = RequestJson.outcome(o);
        if (o instanceof RequestOutcome.Rerun x) {
            outcome.remove("run_id");
            outcome.put("runId", x.runId());
        }
        return outcome;
    }
}
