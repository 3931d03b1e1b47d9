package io.swale.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Every queue: the events and triggers topics as well as the pools' dispatch topics. */
@RestController
@RequestMapping("/api/v1/queues")
@Tag(name = "pools", description = "Pools: slots, running, pending and delayed instances, consumer lag")
public class QueuesController {
    private final QueueViews views;

    public QueuesController(QueueViews views) {
        this.views = views;
    }

    @GetMapping
    @Operation(summary = "Every queue (events, triggers, pool.<pool>): its topic and consumer group, the group's lag "
            + "and consumed records, dead letters; a pool's pending, delayed and running instances too")
    @ApiResponse(responseCode = "200", description = "`[{\"queue\",\"topic\",\"group\",\"lag\",\"consumed\",\"deadLetters\"}]`; "
            + "`lag`, `consumed` and `deadLetters` are null with a `kafkaError` when Kafka did not answer")
    public List<Map<String, Object>> queues() {
        return views.queues();
    }
}
