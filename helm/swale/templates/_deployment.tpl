{{/*
One Deployment of the Swale image. Called with a dict:
  root           the chart's root context
  name           object name
  component      scheduler, api or pool
  pool           the pool's name (pool Deployments only)
  roles          value of SWALE_ROLES
  spec           the component's values (replicas, resources, extraEnv, nodeSelector, ...)
  autoscaled     true when an HPA or a ScaledObject owns the replica count
  definitions    true to mount the definitions ConfigMap and point SWALE_EXAMPLES at it
  env            more env entries (list of EnvVar)
*/}}
{{- define "swale.deployment" -}}
{{- $root := .root }}
{{- $v := $root.Values }}
{{- $spec := .spec }}
{{- $sel := dict "root" $root "component" .component "pool" .pool }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .name }}
  labels:
    {{- include "swale.componentLabels" $sel | nindent 4 }}
spec:
  {{- if not .autoscaled }}
  replicas: {{ $spec.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "swale.componentSelectorLabels" $sel | nindent 6 }}
  template:
    metadata:
      annotations:
        checksum/config: {{ include (print $root.Template.BasePath "/configmap.yaml") $root | sha256sum }}
        {{- if include "swale.chartSecretNeeded" $root }}
        checksum/secret: {{ include (print $root.Template.BasePath "/secret.yaml") $root | sha256sum }}
        {{- end }}
        {{- with $v.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      labels:
        {{- include "swale.componentLabels" $sel | nindent 8 }}
        {{- with $v.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "swale.serviceAccountName" $root }}
      automountServiceAccountToken: {{ $v.serviceAccount.automountServiceAccountToken }}
      {{- with $v.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      securityContext:
        {{- toYaml $v.podSecurityContext | nindent 8 }}
      terminationGracePeriodSeconds: {{ $spec.terminationGracePeriodSeconds }}
      containers:
        - name: swale
          image: {{ include "swale.image" $root | quote }}
          imagePullPolicy: {{ $v.image.pullPolicy }}
          securityContext:
            {{- toYaml $v.securityContext | nindent 12 }}
          ports:
            - name: http
              containerPort: 8080
              protocol: TCP
          envFrom:
            - configMapRef:
                name: {{ include "swale.configMapName" $root }}
          env:
            - name: SWALE_ROLES
              value: {{ .roles | quote }}
            {{- if not (or (hasKey $spec.extraEnv "JAVA_TOOL_OPTIONS") (hasKey $v.config.extraEnv "JAVA_TOOL_OPTIONS")) }}
            # The heap is a share of this container's limit; config.javaToolOptions comes after, so it may override it.
            # A JAVA_TOOL_OPTIONS in extraEnv replaces the whole of it.
            - name: JAVA_TOOL_OPTIONS
              value: {{ printf "-XX:MaxRAMPercentage=%s %s" (toString $spec.heapPercentage) $v.config.javaToolOptions | trim | quote }}
            {{- end }}
            {{- if .pool }}
            # This Deployment serves its own pool only, never also the default pool.
            - name: SWALE_WORKER_POOLS
              value: {{ .pool | quote }}
            # Running attempts may finish until 30 s before the pod is killed; the rest then give their lease back
            # and are dispatched again, which takes up to 10 s for an attempt to stop and 10 s for Kafka to take
            # its dispatch, within the shutdown phase's own limit (the grace period less 5 s).
            - name: SWALE_WORKER_SHUTDOWN_GRACE
              value: {{ printf "%ds" (max 1 (sub (int $spec.terminationGracePeriodSeconds) 30)) | quote }}
            {{- end }}
            {{- if $v.config.kafka.consumer.staticMembership }}
            # Static group membership: each consumer's group.instance.id is the pod name (plus -0, -1, …).
            - name: SWALE_KAFKA_CONSUMER_GROUP_INSTANCE_ID
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
            {{- end }}
            # Let running attempts finish (or hand back their lease) before the pod is killed.
            - name: SPRING_LIFECYCLE_TIMEOUT_PER_SHUTDOWN_PHASE
              value: {{ printf "%ds" (max 5 (sub (int $spec.terminationGracePeriodSeconds) 5)) | quote }}
            {{- if not $v.security.open }}
            - name: SWALE_SECURITY_TOKEN
              valueFrom:
                secretKeyRef:
                  name: {{ include "swale.tokenSecretName" $root }}
                  key: {{ include "swale.tokenSecretKey" $root }}
            {{- end }}
            {{- if or $v.redis.password $v.redis.existingSecret }}
            - name: SPRING_DATA_REDIS_PASSWORD
              valueFrom:
                secretKeyRef:
                  name: {{ include "swale.redisSecretName" $root }}
                  key: {{ if $v.redis.existingSecret }}{{ $v.redis.existingSecretPasswordKey }}{{ else }}redis-password{{ end }}
            {{- end }}
            {{- if and (eq $v.redis.mode "sentinel") (or $v.redis.sentinel.password $v.redis.existingSecret) }}
            - name: SPRING_DATA_REDIS_SENTINEL_PASSWORD
              valueFrom:
                secretKeyRef:
                  name: {{ include "swale.redisSecretName" $root }}
                  key: {{ if $v.redis.existingSecret }}{{ $v.redis.sentinel.existingSecretPasswordKey }}{{ else }}redis-sentinel-password{{ end }}
                  optional: {{ if $v.redis.existingSecret }}true{{ else }}false{{ end }}
            {{- end }}
            {{- if $v.kafka.sasl.enabled }}
            - name: SWALE_KAFKA_SASL_USERNAME
              valueFrom:
                secretKeyRef:
                  name: {{ include "swale.kafkaSaslSecretName" $root }}
                  key: {{ include "swale.kafkaSaslUsernameKey" $root }}
            - name: SWALE_KAFKA_SASL_PASSWORD
              valueFrom:
                secretKeyRef:
                  name: {{ include "swale.kafkaSaslSecretName" $root }}
                  key: {{ include "swale.kafkaSaslPasswordKey" $root }}
            - name: SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG
              value: {{ printf "%s required username=\"$(SWALE_KAFKA_SASL_USERNAME)\" password=\"$(SWALE_KAFKA_SASL_PASSWORD)\";" (include "swale.kafkaSaslLoginModule" $root) | quote }}
            {{- end }}
            {{- if .definitions }}
            - name: SWALE_EXAMPLES
              value: {{ $v.definitions.mountPath | quote }}
            {{- end }}
            {{- with .env }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
            {{- range $k, $val := $spec.extraEnv }}
            - name: {{ $k }}
              value: {{ $val | toString | quote }}
            {{- end }}
          startupProbe:
            httpGet:
              path: /actuator/health/liveness
              port: http
            periodSeconds: {{ $v.probes.startup.periodSeconds }}
            failureThreshold: {{ $v.probes.startup.failureThreshold }}
            timeoutSeconds: {{ $v.probes.startup.timeoutSeconds }}
            {{- if hasKey $v.probes.startup "initialDelaySeconds" }}
            initialDelaySeconds: {{ $v.probes.startup.initialDelaySeconds }}
            {{- end }}
          livenessProbe:
            httpGet:
              path: /actuator/health/liveness
              port: http
            periodSeconds: {{ $v.probes.liveness.periodSeconds }}
            failureThreshold: {{ $v.probes.liveness.failureThreshold }}
            timeoutSeconds: {{ $v.probes.liveness.timeoutSeconds }}
            {{- if hasKey $v.probes.liveness "initialDelaySeconds" }}
            initialDelaySeconds: {{ $v.probes.liveness.initialDelaySeconds }}
            {{- end }}
          readinessProbe:
            httpGet:
              path: /actuator/health/readiness
              port: http
            periodSeconds: {{ $v.probes.readiness.periodSeconds }}
            failureThreshold: {{ $v.probes.readiness.failureThreshold }}
            timeoutSeconds: {{ $v.probes.readiness.timeoutSeconds }}
            {{- if hasKey $v.probes.readiness "initialDelaySeconds" }}
            initialDelaySeconds: {{ $v.probes.readiness.initialDelaySeconds }}
            {{- end }}
          resources:
            {{- toYaml $spec.resources | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            {{- if .definitions }}
            - name: definitions
              mountPath: {{ $v.definitions.mountPath }}
              readOnly: true
            {{- end }}
            {{- if and $v.kafka.tls.enabled $v.kafka.tls.caSecret }}
            - name: kafka-ca
              mountPath: /etc/swale/kafka-ca
              readOnly: true
            {{- end }}
            {{- with $v.extraVolumeMounts }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: {{ $v.tmpSizeLimit }}
        {{- if .definitions }}
        - name: definitions
          configMap:
            name: {{ include "swale.definitionsConfigMapName" $root }}
        {{- end }}
        {{- if and $v.kafka.tls.enabled $v.kafka.tls.caSecret }}
        - name: kafka-ca
          secret:
            secretName: {{ $v.kafka.tls.caSecret }}
            items:
              - key: {{ $v.kafka.tls.caKey }}
                path: {{ $v.kafka.tls.caKey }}
        {{- end }}
        {{- with $v.extraVolumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with (default $v.nodeSelector $spec.nodeSelector) }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with (default $v.tolerations $spec.tolerations) }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with (default $v.affinity $spec.affinity) }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $v.topologySpreadConstraints }}
      topologySpreadConstraints:
        {{- tpl (toYaml .) $root | nindent 8 }}
      {{- end }}
{{- end }}
