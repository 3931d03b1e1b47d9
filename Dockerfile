# syntax=docker/dockerfile:1
# Swale image: one jar, roles chosen at run time by SWALE_ROLES (scheduler, pool, api; comma-separated).
#
#   docker build -t swale:0.1.0 .
#   TOKEN=$(openssl rand -hex 32)   # API clients send it as `Authorization: Bearer $TOKEN`
#   docker run --rm -e SWALE_ROLES=scheduler,pool,api -e SPRING_KAFKA_BOOTSTRAP_SERVERS=kafka:9092 \
#              -e SPRING_DATA_REDIS_HOST=redis -e SWALE_EMBEDDED=false \
#              -e SWALE_SECURITY_TOKEN="$TOKEN" -p 8080:8080 swale:0.1.0
# (outside local mode the service refuses to start without a token, or SWALE_SECURITY_OPEN=true)

ARG JDK_IMAGE=eclipse-temurin:21-jdk
ARG JRE_IMAGE=eclipse-temurin:21-jre

# ---- build: the Maven wrapper, dependencies in their own layer so source edits reuse them ----------
# -Pslim: the jar without local mode's embedded Kafka broker and redis-server (the image is always given
# addresses, SWALE_EMBEDDED=false), and without compiling the tests.
FROM ${JDK_IMAGE} AS build
WORKDIR /src
COPY .mvn/ .mvn/
COPY mvnw pom.xml ./
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q -ntp -Pslim dependency:go-offline
COPY src/ src/
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q -ntp -Pslim -DskipTests package \
 && cp target/swale-*.jar /tmp/app.jar \
 && java -Djarmode=tools -jar /tmp/app.jar extract --layers --launcher --destination /layers

# ---- run: a JRE, the four Boot layers from least to most often changed, a non-root user ------------
FROM ${JRE_IMAGE}
RUN groupadd --system --gid 10001 swale \
 && useradd --system --uid 10001 --gid swale --home-dir /app --no-create-home --shell /usr/sbin/nologin swale
WORKDIR /app
COPY --from=build /layers/dependencies/ ./
COPY --from=build /layers/spring-boot-loader/ ./
COPY --from=build /layers/snapshot-dependencies/ ./
COPY --from=build /layers/application/ ./
USER 10001:10001
ENV SWALE_ROLES=scheduler,pool,api \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75.0 -XX:+ExitOnOutOfMemoryError" \
    SERVER_PORT=8080
EXPOSE 8080
# No curl in the JRE image: ask the readiness group over bash's /dev/tcp.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /actuator/health/readiness HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && grep -q '\"status\":\"UP\"' <&3"]
ENTRYPOINT ["java", "org.springframework.boot.loader.launch.JarLauncher"]
