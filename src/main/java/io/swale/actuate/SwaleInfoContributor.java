package io.swale.actuate;

import io.swale.config.ConfiguredPools;
import io.swale.settings.SwaleProperties;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.info.BuildProperties;

/** {@code info.swale}: version, roles, and pools with their slots. */
public final class SwaleInfoContributor implements InfoContributor {
    private final SwaleProperties props;
    private final ConfiguredPools pools;
    private final Optional<BuildProperties> build;

    public SwaleInfoContributor(SwaleProperties props, ConfiguredPools pools, Optional<BuildProperties> build) {
        this.props = props;
        this.pools = pools;
        this.build = build;
    }

    @Override
    public void contribute(Info.Builder builder) {
        Map<String, Object> swale = new LinkedHashMap<>();
        swale.put("version", build.map(BuildProperties::getVersion)
                .or(() -> Optional.ofNullable(SwaleInfoContributor.class.getPackage().getImplementationVersion()))
                .orElse("dev"));
        swale.put("roles", props.roles());
        swale.put("pools", pools.pools());
        builder.withDetail("swale", swale);
    }
}
