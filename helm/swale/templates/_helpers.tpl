{{/* Name of the chart, overridable. */}}
{{- define "swale.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name: the release name, with the chart name appended unless it already holds it. */}}
{{- define "swale.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "swale.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "swale.selectorLabels" -}}
app.kubernetes.io/name: {{ include "swale.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "swale.labels" -}}
helm.sh/chart: {{ include "swale.chart" . }}
{{ include "swale.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: swale
{{- end }}

{{/* Labels that pick the pods of one component: dict "root" . "component" "scheduler|api|pool" "pool" name */}}
{{- define "swale.componentSelectorLabels" -}}
{{ include "swale.selectorLabels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- if .pool }}
swale.io/pool: {{ .pool | quote }}
{{- end }}
{{- end }}

{{- define "swale.componentLabels" -}}
{{ include "swale.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- if .pool }}
swale.io/pool: {{ .pool | quote }}
{{- end }}
{{- end }}

{{/* Kubernetes name of a pool's objects: underscores are not allowed in names. */}}
{{- define "swale.poolFullname" -}}
{{- printf "%s-pool-%s" (include "swale.fullname" .root) (.name | replace "_" "-") | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "swale.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "swale.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "swale.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "swale.configMapName" -}}
{{- printf "%s-config" (include "swale.fullname" .) }}
{{- end }}

{{- define "swale.secretName" -}}
{{- include "swale.fullname" . }}
{{- end }}

{{- define "swale.definitionsConfigMapName" -}}
{{- if .Values.definitions.existingConfigMap }}
{{- .Values.definitions.existingConfigMap }}
{{- else }}
{{- printf "%s-definitions" (include "swale.fullname" .) }}
{{- end }}
{{- end }}

{{- define "swale.hasDefinitions" -}}
{{- if or .Values.definitions.existingConfigMap .Values.definitions.files }}true{{- end }}
{{- end }}

{{/* Secret name and key of the API token, or nothing when the API runs open. */}}
{{- define "swale.tokenSecretName" -}}
{{- default (include "swale.secretName" .) .Values.security.existingSecret }}
{{- end }}

{{- define "swale.tokenSecretKey" -}}
{{- if .Values.security.existingSecret }}{{ .Values.security.existingSecretKey }}{{ else }}api-token{{ end }}
{{- end }}

{{/* The token the chart's Secret holds: the given one, the one already installed, or a new one. */}}
{{- define "swale.apiToken" -}}
{{- if .Values.security.token }}
{{- .Values.security.token }}
{{- else }}
{{- if not (hasKey .Values.security "generatedToken") }}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "swale.secretName" .) }}
{{- if and $existing $existing.data (hasKey $existing.data "api-token") }}
{{- $_ := set .Values.security "generatedToken" (index $existing.data "api-token" | b64dec) }}
{{- else }}
{{- $_ := set .Values.security "generatedToken" (randAlphaNum 48) }}
{{- end }}
{{- end }}
{{- .Values.security.generatedToken }}
{{- end }}
{{- end }}

{{/* "true" when some pool scales with KEDA on a Kafka that needs TLS or SASL. */}}
{{- define "swale.kedaAuth" -}}
{{- if or .Values.kafka.sasl.enabled .Values.kafka.tls.enabled }}
{{- range (include "swale.pools" . | fromYaml).pools }}
{{- if .keda.enabled }}true{{ end }}
{{- end }}
{{- end }}
{{- end }}

{{/* KEDA's name of a SASL mechanism: PLAIN is `plaintext` there, SCRAM-SHA-256 `scram_sha256`. */}}
{{- define "swale.kedaSasl" -}}
{{- if eq .Values.kafka.sasl.mechanism "PLAIN" }}plaintext
{{- else }}{{ .Values.kafka.sasl.mechanism | lower | replace "-" "_" | replace "scram_sha_" "scram_sha" }}
{{- end }}
{{- end }}

{{- define "swale.chartSecretNeeded" -}}
{{- $s := .Values.security }}
{{- $r := .Values.redis }}
{{- $k := .Values.kafka }}
{{- if or (and (not $s.open) (not $s.existingSecret)) (and (not $r.existingSecret) (or $r.password $r.sentinel.password)) (and $k.sasl.enabled (not $k.sasl.existingSecret)) (include "swale.kedaAuth" .) }}true{{- end }}
{{- end }}

{{- define "swale.redisSecretName" -}}
{{- default (include "swale.secretName" .) .Values.redis.existingSecret }}
{{- end }}

{{- define "swale.kafkaSaslSecretName" -}}
{{- default (include "swale.secretName" .) .Values.kafka.sasl.existingSecret }}
{{- end }}

{{- define "swale.kafkaSaslUsernameKey" -}}
{{- if .Values.kafka.sasl.existingSecret }}{{ .Values.kafka.sasl.existingSecretUsernameKey }}{{ else }}kafka-sasl-username{{ end }}
{{- end }}

{{- define "swale.kafkaSaslPasswordKey" -}}
{{- if .Values.kafka.sasl.existingSecret }}{{ .Values.kafka.sasl.existingSecretPasswordKey }}{{ else }}kafka-sasl-password{{ end }}
{{- end }}

{{/* Kafka security.protocol from the TLS and SASL switches. */}}
{{- define "swale.kafkaSecurityProtocol" -}}
{{- if and .Values.kafka.tls.enabled .Values.kafka.sasl.enabled }}SASL_SSL
{{- else if .Values.kafka.sasl.enabled }}SASL_PLAINTEXT
{{- else if .Values.kafka.tls.enabled }}SSL
{{- else }}PLAINTEXT
{{- end }}
{{- end }}

{{- define "swale.kafkaSaslLoginModule" -}}
{{- $m := .Values.kafka.sasl.mechanism }}
{{- if eq $m "PLAIN" }}org.apache.kafka.common.security.plain.PlainLoginModule
{{- else if or (eq $m "SCRAM-SHA-256") (eq $m "SCRAM-SHA-512") }}org.apache.kafka.common.security.scram.ScramLoginModule
{{- else }}{{ fail (printf "kafka.sasl.mechanism must be PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512, got %q" $m) }}
{{- end }}
{{- end }}

{{/* A pool entry merged over poolDefaults (the entry's keys win, nested maps merge). */}}
{{- define "swale.pool" -}}
{{- $pool := mergeOverwrite (deepCopy .root.Values.poolDefaults) (deepCopy .pool) }}
{{- toYaml $pool }}
{{- end }}

{{/* Pool names as a JSON object for swale.pools: {"<name>": {"slots": n}} */}}
{{- define "swale.poolsJson" -}}
{{- $out := dict }}
{{- range .pools }}
{{- $_ := set $out .name (dict "slots" (int .slots)) }}
{{- end }}
{{- dict "swale" (dict "pools" $out) | toJson }}
{{- end }}

{{/* Every pool merged over the defaults, checked, as a YAML list under "pools". */}}
{{- define "swale.pools" -}}
{{- $seen := dict }}
{{- $pools := list }}
{{- range .Values.pools }}
{{- if not .name }}{{ fail "every entry of pools needs a name" }}{{ end }}
{{- if not (regexMatch "^[a-z0-9_]+$" .name) }}{{ fail (printf "pool name %q must match [a-z0-9_]+" .name) }}{{ end }}
{{- $k8sName := .name | replace "_" "-" }}
{{- if hasKey $seen $k8sName }}{{ fail (printf "pool %q is listed twice (underscores and dashes name the same objects)" .name) }}{{ end }}
{{- $_ := set $seen $k8sName true }}
{{- $p := include "swale.pool" (dict "root" $ "pool" .) | fromYaml }}
{{- if lt (int $p.slots) 1 }}{{ fail (printf "pool %q: slots must be at least 1" .name) }}{{ end }}
{{- if and $p.autoscaling.enabled $p.keda.enabled }}{{ fail (printf "pool %q: enable either autoscaling (HPA) or keda, not both" .name) }}{{ end }}
{{- $pools = append $pools $p }}
{{- end }}
{{- dict "pools" $pools | toYaml }}
{{- end }}
