package io.swale.periodic;

import io.swale.local.DefinitionDirectory;
import io.swale.run.Adoption;
import io.swale.run.DefinitionCatalog;
import io.swale.settings.SwaleProperties;
import java.nio.file.Path;
import java.util.Optional;
import org.springframework.stereotype.Component;

/** One sync pass: publish the local definitions folder (if any), then adopt changed pointers. */
@Component
public class SyncService {
    private final Adoption adoption;
    private final Optional<DefinitionDirectory> directory;

    public SyncService(Adoption adoption, DefinitionCatalog catalog, SwaleProperties props) {
        this.adoption = adoption;
        this.directory = props.examples().isBlank() ? Optional.empty()
                : Optional.of(new DefinitionDirectory(Path.of(props.examples()), catalog));
    }

    public Adoption.Report sync() {
        directory.ifPresent(DefinitionDirectory::publishAll);
        return adoption.sync();
    }
}
