// Validates rendered Kubernetes manifests offline, for scripts/check-deploy.sh.
//
//   node scripts/validate-manifests.mjs <node_modules dir> <rendered.yaml>...
//
// Built-in kinds: the JSON schema of npm `kubernetes-models` (types, required fields, formats), plus
// a strict pass that rejects fields the schema does not know (a typo such as `readOnlyRootFileSystem`
// passes plain schema validation). CRDs (ServiceMonitor, KEDA ScaledObject and TriggerAuthentication)
// have no schema here: apiVersion, kind and metadata are checked, and the few spec fields Swale's
// chart relies on. Then references across the rendered objects are checked (selectors, scale
// targets, ConfigMap and Secret keys, Service ports). Exits 1 on the first file with an error.
import { readFileSync, existsSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [nodeModules, ...files] = process.argv.slice(2);
if (!nodeModules || files.length === 0) {
  console.error("usage: validate-manifests.mjs <node_modules> <manifest.yaml>...");
  process.exit(2);
}
const modelsDir = join(nodeModules, "kubernetes-models");
const yaml = await import(pathToFileURL(join(nodeModules, "js-yaml", "dist", "js-yaml.mjs")).href);

const CRDS = {
  "monitoring.coreos.com/v1/ServiceMonitor": checkServiceMonitor,
  "keda.sh/v1alpha1/ScaledObject": checkScaledObject,
  "keda.sh/v1alpha1/TriggerAuthentication": checkTriggerAuthentication,
};
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

// ---- strict field check from the models' type declarations -------------------------------------
const interfaces = new Map(); // d.ts path -> { fields: Map(name -> type) } | null

function parseInterface(file) {
  if (interfaces.has(file)) return interfaces.get(file);
  interfaces.set(file, null);
  if (!existsSync(file)) return null;
  const text = readFileSync(file, "utf8");
  const imports = new Map();
  for (const m of text.matchAll(/import \{ (\w+) \} from "([^"]+)";/g)) {
    const target = m[2].startsWith(".") ? resolve(dirname(file), m[2]) : join(nodeModules, m[2]);
    imports.set(m[1], target.replace(/\.js$/, "") + ".d.ts");
  }
  const start = text.search(/^export interface I\w+( extends [\w, ]+)? \{$/m);
  if (start < 0) return null; // a type alias such as IntOrString or Quantity: nothing to walk
  const lines = text.slice(start).split("\n");
  const fields = new Map();
  for (let i = 1; i < lines.length && lines[i] !== "}"; i++) {
    const m = lines[i].match(/^ {4}"([^"]+)"\??: (.*)$/);
    if (!m) continue;
    const type = m[2].replace(/;$/, "");
    const arr = type.match(/^Array<(\w+)>$/);
    const name = arr ? arr[1] : type;
    fields.set(m[1], { array: !!arr, ref: imports.get(name) ?? null });
  }
  const parsed = { fields };
  interfaces.set(file, parsed);
  return parsed;
}

function unknownFields(value, file, path, out) {
  if (value === null || typeof value !== "object") return;
  const shape = parseInterface(file);
  if (!shape) return;
  for (const [key, child] of Object.entries(value)) {
    const field = shape.fields.get(key);
    if (!field) {
      out.push(`${path}/${key}: unknown field`);
      continue;
    }
    if (!field.ref) continue;
    if (field.array && Array.isArray(child)) {
      child.forEach((item, i) => unknownFields(item, field.ref, `${path}/${key}/${i}`, out));
    } else if (!field.array) {
      unknownFields(child, field.ref, `${path}/${key}`, out);
    }
  }
}

// ---- per-object checks ----------------------------------------------------------------------------
async function checkBuiltIn(doc) {
  const modulePath = join(modelsDir, doc.apiVersion, `${doc.kind}.js`);
  if (!existsSync(modulePath)) return [`no schema for ${doc.apiVersion} ${doc.kind} in kubernetes-models`];
  const mod = await import(pathToFileURL(modulePath).href);
  const Model = mod[doc.kind];
  const errors = [];
  try {
    new Model(doc).validate();
  } catch (e) {
    errors.push(...String(e.message).split(/,\s*(?=data\/)/).map((s) => s.replace(/^data/, "")));
  }
  unknownFields(doc, modulePath.replace(/\.js$/, ".d.ts"), "", errors);
  return errors;
}

function checkMetadata(doc) {
  const errors = [];
  const md = doc.metadata;
  if (!md || typeof md !== "object") return ["metadata is missing"];
  if (typeof md.name !== "string" || md.name.length > 253 || !DNS_SUBDOMAIN.test(md.name)) {
    errors.push(`metadata.name ${JSON.stringify(md.name)} is not a DNS subdomain`);
  }
  if (["Service", "Deployment"].includes(doc.kind) && !(md.name.length <= 63 && DNS_LABEL.test(md.name))) {
    errors.push(`metadata.name ${JSON.stringify(md.name)} of a ${doc.kind} must be a DNS label (63 characters at most)`);
  }
  for (const [k, v] of Object.entries(md.labels ?? {})) {
    if (typeof v !== "string" || v.length > 63 || !LABEL_VALUE.test(v)) errors.push(`label ${k}=${JSON.stringify(v)} is not a valid label value`);
  }
  for (const [k, v] of Object.entries(md.annotations ?? {})) {
    if (typeof v !== "string") errors.push(`annotation ${k} must be a string`);
  }
  return errors;
}

function checkServiceMonitor(doc) {
  const s = doc.spec ?? {};
  const errors = [];
  if (!s.selector || typeof s.selector !== "object") errors.push("spec.selector is required");
  if (!Array.isArray(s.endpoints) || s.endpoints.length === 0) errors.push("spec.endpoints needs at least one endpoint");
  for (const [i, e] of (s.endpoints ?? []).entries()) {
    if (!e.port && !e.targetPort) errors.push(`spec.endpoints[${i}] needs port or targetPort`);
    const cred = e.authorization?.credentials;
    if (e.authorization && !(cred?.name && cred?.key)) errors.push(`spec.endpoints[${i}].authorization.credentials needs name and key`);
  }
  return errors;
}

function checkScaledObject(doc) {
  const s = doc.spec ?? {};
  const errors = [];
  if (!s.scaleTargetRef?.name) errors.push("spec.scaleTargetRef.name is required");
  if (!Array.isArray(s.triggers) || s.triggers.length === 0) errors.push("spec.triggers needs at least one trigger");
  for (const [i, t] of (s.triggers ?? []).entries()) {
    if (!t.type) errors.push(`spec.triggers[${i}].type is required`);
    for (const [k, v] of Object.entries(t.metadata ?? {})) {
      if (typeof v !== "string") errors.push(`spec.triggers[${i}].metadata.${k} must be a string (KEDA rejects other types)`);
    }
  }
  for (const k of ["minReplicaCount", "maxReplicaCount", "pollingInterval", "cooldownPeriod"]) {
    if (k in s && !Number.isInteger(s[k])) errors.push(`spec.${k} must be an integer`);
  }
  return errors;
}

function checkTriggerAuthentication(doc) {
  const errors = [];
  for (const [i, r] of (doc.spec?.secretTargetRef ?? []).entries()) {
    if (!(r.parameter && r.name && r.key)) errors.push(`spec.secretTargetRef[${i}] needs parameter, name and key`);
  }
  return errors;
}

// ---- references across the rendered objects -----------------------------------------------------
function matches(selector, labels) {
  return Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v);
}

function crossChecks(docs) {
  const errors = [];
  const by = (kind) => docs.filter((d) => d.kind === kind);
  const find = (kind, name) => docs.find((d) => d.kind === kind && d.metadata?.name === name);
  const deployments = by("Deployment");
  const podLabels = (d) => d.spec?.template?.metadata?.labels ?? {};
  const dataKeys = (d) => new Set([...Object.keys(d.data ?? {}), ...Object.keys(d.stringData ?? {})]);
  const refKey = (kind, ref, where) => {
    const target = find(kind, ref.name);
    if (target && ref.key !== undefined && !dataKeys(target).has(ref.key) && !ref.optional) {
      errors.push(`${where}: ${kind} ${ref.name} has no key ${ref.key}`);
    }
  };

  for (const d of deployments) {
    const where = `Deployment ${d.metadata.name}`;
    if (!matches(d.spec.selector?.matchLabels, podLabels(d))) errors.push(`${where}: selector does not match the pod labels`);
    const pod = d.spec.template.spec;
    const volumes = new Set((pod.volumes ?? []).map((v) => v.name));
    for (const v of pod.volumes ?? []) {
      if (v.configMap) refKey("ConfigMap", { name: v.configMap.name }, `${where} volume ${v.name}`);
      for (const item of v.configMap?.items ?? []) refKey("ConfigMap", { name: v.configMap.name, key: item.key, optional: v.configMap.optional }, `${where} volume ${v.name}`);
      for (const item of v.secret?.items ?? []) refKey("Secret", { name: v.secret.secretName, key: item.key, optional: v.secret.optional }, `${where} volume ${v.name}`);
    }
    for (const c of pod.containers ?? []) {
      const cw = `${where} container ${c.name}`;
      const ports = new Set((c.ports ?? []).map((p) => p.name));
      for (const probe of ["startupProbe", "livenessProbe", "readinessProbe"]) {
        const port = c[probe]?.httpGet?.port;
        if (typeof port === "string" && !ports.has(port)) errors.push(`${cw}: ${probe} uses unknown port ${port}`);
      }
      const mounts = c.volumeMounts ?? [];
      for (const m of mounts) if (!volumes.has(m.name)) errors.push(`${cw}: volumeMount ${m.name} has no volume`);
      const sc = { ...(pod.securityContext ?? {}), ...(c.securityContext ?? {}) };
      if (sc.runAsNonRoot !== true) errors.push(`${cw}: runAsNonRoot is not true`);
      if (c.securityContext?.readOnlyRootFilesystem !== true) errors.push(`${cw}: readOnlyRootFilesystem is not true`);
      if (!mounts.some((m) => m.mountPath === "/tmp")) errors.push(`${cw}: no writable /tmp mount`);
      const names = new Set();
      for (const e of c.env ?? []) {
        if (!ENV_NAME.test(e.name)) errors.push(`${cw}: env name ${e.name} is invalid`);
        if (names.has(e.name)) errors.push(`${cw}: env ${e.name} is set twice`);
        names.add(e.name);
        if (e.valueFrom?.secretKeyRef) refKey("Secret", e.valueFrom.secretKeyRef, `${cw} env ${e.name}`);
        if (e.valueFrom?.configMapKeyRef) refKey("ConfigMap", e.valueFrom.configMapKeyRef, `${cw} env ${e.name}`);
      }
      for (const f of c.envFrom ?? []) {
        const kind = f.configMapRef ? "ConfigMap" : "Secret";
        const ref = f.configMapRef ?? f.secretRef;
        const target = find(kind, ref.name);
        if (!target && !ref.optional) errors.push(`${cw}: envFrom ${kind} ${ref.name} is not rendered by the chart`);
        for (const k of target ? dataKeys(target) : []) {
          if (!ENV_NAME.test(k)) errors.push(`${cw}: envFrom ${kind} ${ref.name} key ${k} is not a valid env name`);
        }
      }
    }
  }
  for (const s of by("Service")) {
    if (s.spec?.selector && !deployments.some((d) => matches(s.spec.selector, podLabels(d)))) {
      errors.push(`Service ${s.metadata.name}: selector matches no Deployment's pods`);
    }
  }
  for (const p of by("PodDisruptionBudget")) {
    const n = deployments.filter((d) => matches(p.spec?.selector?.matchLabels, podLabels(d))).length;
    if (n !== 1) errors.push(`PodDisruptionBudget ${p.metadata.name}: selector matches ${n} Deployments, expected 1`);
  }
  const scaled = new Map();
  for (const o of [...by("HorizontalPodAutoscaler"), ...by("ScaledObject")]) {
    const ref = o.spec?.scaleTargetRef ?? {};
    const target = find(ref.kind ?? "Deployment", ref.name);
    if (!target) errors.push(`${o.kind} ${o.metadata.name}: scale target ${ref.name} is not rendered`);
    else if ("replicas" in target.spec) errors.push(`${o.kind} ${o.metadata.name}: Deployment ${ref.name} sets replicas, which fights the autoscaler`);
    if (scaled.has(ref.name)) errors.push(`Deployment ${ref.name} is scaled by both ${scaled.get(ref.name)} and ${o.kind}`);
    scaled.set(ref.name, o.kind);
    for (const t of o.spec?.triggers ?? []) {
      const auth = t.authenticationRef?.name;
      if (auth && !find("TriggerAuthentication", auth)) errors.push(`ScaledObject ${o.metadata.name}: TriggerAuthentication ${auth} is not rendered`);
    }
  }
  for (const a of by("TriggerAuthentication")) {
    for (const r of a.spec?.secretTargetRef ?? []) refKey("Secret", r, `TriggerAuthentication ${a.metadata.name}`);
  }
  for (const ing of by("Ingress")) {
    for (const rule of ing.spec?.rules ?? []) {
      for (const p of rule.http?.paths ?? []) {
        const svc = find("Service", p.backend?.service?.name);
        if (!svc) errors.push(`Ingress ${ing.metadata.name}: backend Service ${p.backend?.service?.name} is not rendered`);
        else if (p.backend.service.port?.name && !svc.spec.ports.some((x) => x.name === p.backend.service.port.name)) {
          errors.push(`Ingress ${ing.metadata.name}: Service ${svc.metadata.name} has no port ${p.backend.service.port.name}`);
        }
      }
    }
  }
  for (const sm of by("ServiceMonitor")) {
    const svcs = by("Service").filter((s) => matches(sm.spec?.selector?.matchLabels, s.metadata.labels));
    if (svcs.length === 0) errors.push(`ServiceMonitor ${sm.metadata.name}: selector matches no Service`);
    for (const e of sm.spec?.endpoints ?? []) {
      if (e.port && !svcs.some((s) => s.spec.ports.some((p) => p.name === e.port))) errors.push(`ServiceMonitor ${sm.metadata.name}: no selected Service has port ${e.port}`);
      const cred = e.authorization?.credentials;
      if (cred) refKey("Secret", cred, `ServiceMonitor ${sm.metadata.name}`);
    }
  }
  const seen = new Set();
  for (const d of docs) {
    const id = `${d.kind}/${d.metadata?.name}`;
    if (seen.has(id)) errors.push(`${id} is rendered twice`);
    seen.add(id);
  }
  return errors;
}

// ---- main -----------------------------------------------------------------------------------------
// The strict pass reads the package's declaration files: prove it still understands them.
{
  const probe = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "probe" },
    spec: { selector: {}, template: { spec: { containers: [{ name: "c", securityContext: { readOnlyRootFileSystem: true } }] } } } };
  const found = (await checkBuiltIn(probe)).filter((e) => e.includes("unknown field"));
  if (found.length !== 1) {
    console.error(`the strict field check cannot read kubernetes-models' declarations (found ${JSON.stringify(found)})`);
    process.exit(1);
  }
}
let failed = false;
for (const file of files) {
  const docs = yaml.loadAll(readFileSync(file, "utf8")).filter((d) => d && typeof d === "object");
  const counts = new Map();
  const problems = [];
  const crds = new Set();
  for (const doc of docs) {
    const id = `${doc.kind ?? "?"} ${doc.metadata?.name ?? "?"}`;
    const key = `${doc.apiVersion}/${doc.kind}`;
    let errors;
    if (typeof doc.apiVersion !== "string" || typeof doc.kind !== "string") {
      errors = ["apiVersion and kind are required"];
    } else if (CRDS[key]) {
      crds.add(doc.kind);
      errors = [...checkMetadata(doc), ...CRDS[key](doc)];
    } else if (/\.(coreos\.com|keda\.sh)\//.test(key)) {
      errors = [`unexpected custom resource ${key}`];
    } else {
      errors = [...checkMetadata(doc), ...(await checkBuiltIn(doc))];
    }
    counts.set(doc.kind, (counts.get(doc.kind) ?? 0) + 1);
    for (const e of errors) problems.push(`${id}: ${e}`);
  }
  problems.push(...crossChecks(docs));
  const summary = [...counts].map(([k, n]) => `${k}×${n}`).join(" ");
  if (problems.length) {
    failed = true;
    console.error(`FAIL ${file}: ${docs.length} objects (${summary})`);
    for (const p of problems) console.error(`  - ${p}`);
  } else {
    const shallow = crds.size ? `; CRDs checked for apiVersion/kind/metadata and key spec fields only: ${[...crds].join(", ")}` : "";
    console.log(`ok   ${file}: ${docs.length} objects valid (${summary})${shallow}`);
  }
}
process.exit(failed ? 1 : 0);
