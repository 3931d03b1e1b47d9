package io.swale.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swale.periodic.RetentionJob;
import io.swale.run.RetentionPass;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import org.springframework.dao.DataAccessException;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A retention pass on demand (spec §12; interfaces §2 lists retention among the further endpoints): what the periodic
 * pass would remove now, removed now, with its report.
 */
@RestController
public class RetentionController {
    private final LockingTaskExecutor locks;
    private final RetentionPass retention;

    public RetentionController(LockingTaskExecutor locks, RetentionPass retention) {
        this.locks = locks;
        this.retention = retention;
    }

    @PostMapping("/api/v1/retention")
    @Operation(summary = "Runs a retention pass now: settled runs and request records older than the retention window "
            + "are removed, oldest first, as the periodic pass does")
    @ApiResponse(responseCode = "200", description = "`{\"runs\",\"requests\",\"stale\",\"error\",\"retention\"}`: "
            + "what the pass removed, the stale entries it dropped, and why it stopped early (null when it did not)")
    @ApiResponse(responseCode = "401", ref = OpenApiConfiguration.UNAUTHORIZED)
    @ApiResponse(responseCode = "503", ref = OpenApiConfiguration.UNAVAILABLE)
    public Map<String, Object> pass() {
        Optional<RetentionPass.Report> ran;
        try {
            ran = RetentionJob.runNow(locks, retention);
        } catch (DataAccessException e) {
            // the lock's store (Redis, through Spring Data) did not answer: nothing was removed
            throw new ApiErrors.Unavailable("Redis did not answer the retention pass's lock: " + e.getMessage(), e);
        }
        RetentionPass.Report report = ran.orElseThrow(() -> new ApiErrors.Unavailable(
                "a retention pass is running (the periodic one, or another request's): its removals are its own",
                null));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("runs", report.runs());
        out.put("requests", report.requests());
        out.put("stale", report.stale());
        out.put("error", report.error().orElse(null));
        out.put("retention", retention.retention().toString());
        return out;
    }
}
