package io.swale.local;

import io.swale.definition.Definition;
import io.swale.definition.DefinitionFormat;
import io.swale.run.DefinitionCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Publishes every definition file of a folder (local profile). A missing folder is fine. */
public final class DefinitionDirectory {
    private static final Logger log = LoggerFactory.getLogger(DefinitionDirectory.class);
    private final Path dir;
    private final DefinitionCatalog catalog;

    public DefinitionDirectory(Path dir, DefinitionCatalog catalog) {
        this.dir = dir;
        this.catalog = catalog;
    }

    /** Returns how many files were published with a changed pointer. */
    public int publishAll() {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> DefinitionFormat.isDefinitionFileName(p.getFileName().toString())).sorted().toList();
        } catch (IOException e) {
            log.warn("cannot list definitions dir={} error={}", dir, e.toString());
            return 0;
        }
        int changed = 0;
        // two files of one graph would move its pointer back and forth on every pass: the first by name wins
        Map<String, Path> fileOfGraph = new HashMap<>();
        for (Path file : files) {
            try {
                DefinitionFormat format = DefinitionFormat.fromFileName(file.toString());
                Definition loaded = catalog.publishingLoader().load(Files.readAllBytes(file), format);
                String graph = loaded.graph().name();
                Path first = fileOfGraph.putIfAbsent(graph, file);
                if (first != null) {
                    log.warn("cannot publish file={} error=graph `{}` is defined by file={} too, which comes first by "
                            + "name", file, graph, first);
                    continue;
                }
                var published = catalog.publish(loaded, format);
                if (published.changed()) {
                    changed++;
                    log.info("published file={} graph={} definition={}", file, published.graph(), published.hash());
                }
            } catch (IOException | RuntimeException e) {
                log.warn("cannot publish file={} error={}", file, e.getMessage());
            }
        }
        return changed;
    }
}
