// Offline checks of deploy/k8s: no cluster, no kubectl, no network (tests/deploy/run.sh runs it).
//
//   node validate_k8s.mjs [--k8s-dir DIR] [--kustomized OVERLAY=FILE]... [--self-test]
//
// It renders the base and each overlay itself (render.mjs, the part of Kustomize they use) and
// checks every rendered document:
//  - against Kubernetes' API schemas (kubernetes-models' validators), and strictly: a field the
//    API does not have (a misspelt `readinesProbe`) is an error, as with kubectl's
//    --validate=strict, where the schemas alone would let it through;
//  - the CloudNativePG Cluster against schemas/cnpg-cluster.schema.json (written here from
//    CloudNativePG's API reference: the fields deploy/k8s uses, strict the same way; the
//    operator's own admission rules are not evaluated);
//  - against the project itself: each flag passed is one the binary defines (ABSL_FLAG in
//    services/), every file a flag names is mounted, every host:port a flag names is a Service
//    port that reaches a container port, probes and Services reach the ports the programs
//    listen on, selectors match, every referenced ConfigMap and Secret exists, the grace
//    period outlasts the shutdown, the database has connections for every pool at the
//    autoscalers' maxima, and the container build files agree with the manifests and with
//    deploy/build.sh.
// --kustomized checks `kubectl kustomize OVERLAY` output the same way and compares it with this
// script's own rendering. --self-test breaks a copy of deploy/k8s in known ways and fails unless
// each break is caught. Failures name the file and the field; the exit status is 1 if any.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import YAML from 'yaml';
import { ObjectMeta } from '@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta';
import { relativeTo, render, sameAsKustomize } from './render.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const nodeModules = join(here, 'node_modules');
const rel = (file) => relativeTo(root, file);

// Secrets the manifests use but do not make. CloudNativePG's <cluster>-app is found from the
// Cluster itself (secretKeys in checkRendering).
// prettier-ignore
const kExternalSecrets = new Map([
  ['boneyard-tokens', { keys: ['operator_token', 'results_token'], madeBy: 'hand: README.md says how' }],
]);
// prettier-ignore
const kCnpgAppKeys = ['username', 'password', 'host', 'port', 'dbname', 'uri', 'jdbc-uri',
  'fqdn-uri', 'fqdn-jdbc-uri', 'pgpass'];
// Abseil's own flags, which every binary takes.
// prettier-ignore
const kAbseilFlags = ['flagfile', 'fromenv', 'tryfromenv', 'undefok', 'help', 'helpfull',
  'helpshort', 'helppackage', 'version', 'only_check_args', 'helpon', 'helpmatch'];
// Flags whose 0 means "one per core of the machine", which in a container is the node's.
const kThreadFlags = ['workers', 'bot_workers', 'play_queues'];
const kPgSuperuserReserved = 3; // PostgreSQL's superuser_reserved_connections default
const kPgMargin = 10; // CloudNativePG's instance manager, and a person with psql
const kGraceMargin = 5; // seconds for what follows --shutdown_grace (commits, lease)

// ---------------------------------------------------------------- the project's sources

const flagCache = new Map();
// The flags boneyard-SERVICE defines: its main.cc, the shared ones and Abseil's.
function definedFlags(service) {
  if (flagCache.has(service)) return flagCache.get(service);
  const flags = new Set(kAbseilFlags);
  for (const file of [`services/${service}/main.cc`, 'services/common/flags.cc']) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/ABSL_FLAG\(\s*(?:[^,<>]|<[^<>]*>)+,\s*(\w+)\s*,/g))
      flags.add(m[1]);
  }
  flagCache.set(service, flags);
  return flags;
}

function flagDefault(service, name) {
  const text =
    readFileSync(join(root, `services/${service}/main.cc`), 'utf8') +
    readFileSync(join(root, 'services/common/flags.cc'), 'utf8');
  const m = new RegExp(`ABSL_FLAG\\(\\s*[^,]+,\\s*${name}\\s*,\\s*([^,]+),`).exec(text);
  return m ? m[1].trim() : undefined;
}

// deploy/build.sh's --programs list.
function builtPrograms() {
  const m = /^programs=\(([^)]*)\)/m.exec(readFileSync(join(root, 'deploy/build.sh'), 'utf8'));
  return new Set(m ? m[1].trim().split(/\s+/) : []);
}

// Where the build puts programs and the web pages, relative to the source tree.
function buildLayout() {
  const top = readFileSync(join(root, 'CMakeLists.txt'), 'utf8');
  const build = readFileSync(join(root, 'deploy/build.sh'), 'utf8');
  const web = readFileSync(join(root, 'services/web/CMakeLists.txt'), 'utf8');
  const tree = /cmake -S \. -B (\S+)/.exec(build)?.[1];
  const bin = /set\(CMAKE_RUNTIME_OUTPUT_DIRECTORY \$\{CMAKE_BINARY_DIR\}\/(\S+)\)/.exec(top)?.[1];
  const assets = /set\(BONEYARD_WEB_ASSETS_DIR \$\{CMAKE_CURRENT_BINARY_DIR\}\/(\S+) /.exec(
    web,
  )?.[1];
  return {
    bin: tree && bin ? `${tree}/${bin}` : undefined,
    webAssets: tree && assets ? `${tree}/services/web/${assets}` : undefined,
  };
}

// Abseil durations: 10s, 1m30s, 500ms.
function seconds(duration) {
  const units = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, ns: 1e-9 };
  let total = 0;
  const re = /(\d+(?:\.\d+)?)(h|ms|us|ns|m|s)/gy;
  let m;
  let end = 0;
  while ((m = re.exec(duration)) !== null) {
    total += Number(m[1]) * units[m[2]];
    end = re.lastIndex;
  }
  return end === duration.length && end > 0 ? total : NaN;
}

function cpuCores(quantity) {
  if (quantity === undefined) return undefined;
  const s = String(quantity);
  return s.endsWith('m') ? Number(s.slice(0, -1)) / 1000 : Number(s);
}

// ---------------------------------------------------------------- schemas

const dtsCache = new Map();
// What a kubernetes-models declaration file says: its imports, exported aliases and each
// interface's fields with their types.
function parseDts(file) {
  if (dtsCache.has(file)) return dtsCache.get(file);
  const text = readFileSync(file, 'utf8');
  const imports = new Map();
  for (const m of text.matchAll(/^import \{ ([^}]+) \} from "([^"]+)";$/gm)) {
    for (const name of m[1].split(',')) imports.set(name.trim(), m[2]);
  }
  const aliases = new Map();
  for (const m of text.matchAll(/^export \{ (.+) \};$/gm)) {
    for (const part of m[1].split(',')) {
      const [local, , alias] = part.trim().split(/\s+/);
      aliases.set(alias, local);
    }
  }
  const interfaces = new Map();
  for (const m of text.matchAll(
    /^export interface (\w+)(?: extends [\w, ]+)? \{\n([\s\S]*?)^\}/gm,
  )) {
    interfaces.set(
      m[1],
      new Map([...m[2].matchAll(/^ {4}"([^"]+)"\??: (.+?);?$/gm)].map((p) => [p[1], p[2]])),
    );
  }
  const parsed = { file, imports, aliases, interfaces };
  dtsCache.set(file, parsed);
  return parsed;
}

function resolveType(dts, alias) {
  let target = dts;
  const spec = dts.imports.get(alias);
  if (spec !== undefined) {
    target = parseDts(
      spec.startsWith('.')
        ? resolve(dirname(dts.file), `${spec}.d.ts`)
        : join(nodeModules, `${spec}.d.ts`),
    );
  }
  const fields = target.interfaces.get(target.aliases.get(alias));
  return fields ? { dts: target, fields, alias } : null; // null: a scalar alias (Quantity...)
}

// The fields of `obj` that its type (a kubernetes-models interface) does not have.
function unknownFields(obj, type, path, out) {
  for (const [key, value] of Object.entries(obj)) {
    if (!type.fields.has(key)) {
      out.push(`${path}${path ? '.' : ''}${key}`);
      continue;
    }
    const m = /^(Array<)?(IIoK8s\w+)>?$/.exec(type.fields.get(key));
    const child =
      m && value !== null && typeof value === 'object' ? resolveType(type.dts, m[2]) : null;
    if (!child) continue;
    if (m[1] && Array.isArray(value)) {
      value.forEach(
        (v, i) =>
          v && typeof v === 'object' && unknownFields(v, child, `${path}.${key}[${i}]`, out),
      );
    } else if (!m[1] && !Array.isArray(value)) {
      unknownFields(value, child, `${path}${path ? '.' : ''}${key}`, out);
    }
  }
}

function ajvErrors(errors) {
  return (errors ?? []).map((e) => {
    const at = e.instancePath.slice(1).replaceAll('/', '.') || '(document)';
    const extra = e.params?.additionalProperty ? ` "${e.params.additionalProperty}"` : '';
    return `${at}: ${e.message}${extra}`;
  });
}

// Kubernetes' own schemas have no additionalProperties: false (the API server prunes), so a
// misspelt field would pass. Every object schema that lists its properties gets it here.
function strictSchema(schema) {
  if (Array.isArray(schema)) return schema.map(strictSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, strictSchema(v)]));
  if (
    out.properties &&
    out.additionalProperties === undefined &&
    !out['x-kubernetes-preserve-unknown-fields']
  ) {
    out.additionalProperties = false;
  }
  return out;
}

let cnpgValidate;
function cnpgSchema() {
  if (!cnpgValidate) {
    const schema = JSON.parse(readFileSync(join(here, 'schemas/cnpg-cluster.schema.json'), 'utf8'));
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    cnpgValidate = { validate: ajv.compile(strictSchema(schema)), source: schema.$comment };
  }
  return cnpgValidate;
}

const modelCache = new Map();
async function k8sModel(apiVersion, kind) {
  const key = `${apiVersion}/${kind}`;
  if (!modelCache.has(key)) {
    let model = null;
    try {
      model = (await import(`kubernetes-models/${apiVersion}/${kind}`))[kind] ?? null;
    } catch {
      model = null;
    }
    modelCache.set(key, model);
  }
  return modelCache.get(key);
}

// ---------------------------------------------------------------- one rendering

function labelsMatch(selector, labels) {
  return (
    Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v) &&
    Object.keys(selector ?? {}).length > 0
  );
}

function imageService(image) {
  const name = basename(image.split('@')[0]).split(':')[0];
  return name.startsWith('boneyard-') ? name.slice('boneyard-'.length) : null;
}

// The container build file of boneyard-SERVICE, in stages of instructions.
function readContainerfile(file) {
  const text = readFileSync(file, 'utf8');
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages = [];
  for (const line of lines) {
    const [op, ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (op.toUpperCase() === 'FROM') {
      const [image, as, name] = args.split(/\s+/);
      stages.push({ image, name: as?.toUpperCase() === 'AS' ? name : undefined, steps: [] });
    } else if (stages.length > 0) {
      stages.at(-1).steps.push({ op: op.toUpperCase(), args });
    }
  }
  const froms = [...text.matchAll(/^FROM .*$/gm)].map((m) => m.index);
  return { file, stages, builderText: froms.length > 1 ? text.slice(froms[0], froms[1]) : '' };
}

// Runs every check on one set of rendered documents. `label` names it in the output; `docs`
// are {obj, file, sources?, patchedBy?}; fail(file, field, message) records a failure.
async function checkRendering(label, docs, k8sDir, fail, say, stats) {
  const where = (doc) =>
    rel(doc.file) +
    (doc.patchedBy?.length ? ` (as patched by ${doc.patchedBy.map(rel).join(', ')})` : '');
  const byKind = (kind) => docs.filter((d) => d.obj.kind === kind);
  const named = (kind, name) => byKind(kind).find((d) => d.obj.metadata?.name === name);
  const deployments = byKind('Deployment');
  const services = byKind('Service');
  const pdbs = byKind('PodDisruptionBudget');
  const hpas = byKind('HorizontalPodAutoscaler');
  const clusters = byKind('Cluster');
  const check = async (title, fn) => {
    let n = 0;
    const counting = (file, field, message) => {
      n += 1;
      fail(file, field, message);
    };
    const summary = await fn(counting);
    stats[n === 0 ? 'passed' : 'failed'] += 1;
    say(
      `  ${n === 0 ? 'ok  ' : 'FAIL'} ${title}${summary ? `: ${summary}` : ''}${n ? ` (${n} failure${n > 1 ? 's' : ''})` : ''}`,
    );
  };

  await check('schemas', async (f) => {
    let k8s = 0;
    let cnpg = 0;
    for (const doc of docs) {
      const { apiVersion, kind } = doc.obj;
      const name = `${kind}/${doc.obj.metadata?.name}`;
      if (apiVersion === 'postgresql.cnpg.io/v1' && kind === 'Cluster') {
        const { validate } = cnpgSchema();
        if (!validate(doc.obj))
          ajvErrors(validate.errors).forEach((e) =>
            f(where(doc), `${name} ${e.split(': ')[0]}`, e.split(': ').slice(1).join(': ')),
          );
        try {
          new ObjectMeta(doc.obj.metadata).validate();
        } catch (e) {
          ajvErrors(e.errors).forEach((x) => f(where(doc), `${name} metadata`, x));
        }
        const unknown = [];
        unknownFields(
          doc.obj.metadata ?? {},
          resolveType(
            parseDts(
              join(nodeModules, '@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta.d.ts'),
            ),
            'IIoK8sApimachineryPkgApisMetaV1ObjectMeta',
          ),
          'metadata',
          unknown,
        );
        unknown.forEach((p) => f(where(doc), `${name} ${p}`, 'no such field in ObjectMeta'));
        cnpg += 1;
        continue;
      }
      const Model = await k8sModel(apiVersion, kind);
      if (!Model) {
        f(
          where(doc),
          `${name} apiVersion`,
          `${apiVersion} ${kind} is neither a Kubernetes type nor CloudNativePG's Cluster`,
        );
        continue;
      }
      try {
        new Model(doc.obj).validate();
      } catch (e) {
        const errors = ajvErrors(e.errors);
        (errors.length ? errors : [e.message]).forEach((x) =>
          f(where(doc), `${name} ${x.split(': ')[0]}`, x.split(': ').slice(1).join(': ')),
        );
      }
      const dts = parseDts(join(nodeModules, 'kubernetes-models', apiVersion, `${kind}.d.ts`));
      const unknown = [];
      unknownFields(
        doc.obj,
        { dts, fields: dts.interfaces.get(`I${kind}`), alias: kind },
        '',
        unknown,
      );
      unknown.forEach((p) =>
        f(where(doc), `${name} ${p}`, `no such field in ${apiVersion} ${kind}`),
      );
      k8s += 1;
    }
    return (
      `${k8s} Kubernetes documents (kubernetes-models, unknown fields refused), ` +
      `${cnpg} CloudNativePG Cluster (${cnpg ? cnpgSchema().source.split(',')[0] : 'none'})`
    );
  });

  await check('selectors, labels and targets', (f) => {
    for (const doc of deployments) {
      const { spec } = doc.obj;
      if (!labelsMatch(spec.selector?.matchLabels, spec.template?.metadata?.labels)) {
        f(
          where(doc),
          `Deployment/${doc.obj.metadata.name} spec.selector.matchLabels`,
          "not among the pod template's labels",
        );
      }
    }
    const selected = (selector) =>
      deployments.filter((d) => labelsMatch(selector, d.obj.spec.template?.metadata?.labels));
    for (const doc of services) {
      const hits = selected(doc.obj.spec.selector);
      if (hits.length !== 1)
        f(
          where(doc),
          `Service/${doc.obj.metadata.name} spec.selector`,
          `selects ${hits.length} Deployments, not 1`,
        );
    }
    for (const doc of pdbs) {
      const hits = selected(doc.obj.spec.selector?.matchLabels);
      if (hits.length !== 1)
        f(
          where(doc),
          `PodDisruptionBudget/${doc.obj.metadata.name} spec.selector`,
          `selects ${hits.length} Deployments, not 1`,
        );
    }
    for (const doc of hpas) {
      const ref = doc.obj.spec.scaleTargetRef;
      if (
        ref.kind !== 'Deployment' ||
        ref.apiVersion !== 'apps/v1' ||
        !named('Deployment', ref.name)
      ) {
        f(
          where(doc),
          `HorizontalPodAutoscaler/${doc.obj.metadata.name} spec.scaleTargetRef`,
          `no Deployment ${ref.name}`,
        );
      }
    }
    for (const doc of deployments) {
      const name = doc.obj.metadata.name;
      const labels = doc.obj.spec.template?.metadata?.labels;
      if (!services.some((s) => labelsMatch(s.obj.spec.selector, labels)))
        f(where(doc), `Deployment/${name}`, 'no Service selects it');
      if (!pdbs.some((p) => labelsMatch(p.obj.spec.selector?.matchLabels, labels)))
        f(where(doc), `Deployment/${name}`, 'no PodDisruptionBudget covers it');
      if (!hpas.some((h) => h.obj.spec.scaleTargetRef?.name === name))
        f(where(doc), `Deployment/${name}`, 'no HorizontalPodAutoscaler scales it');
    }
    return `${deployments.length} Deployments, ${services.length} Services, ${pdbs.length} PodDisruptionBudgets, ${hpas.length} HorizontalPodAutoscalers`;
  });

  await check('replicas, disruption budgets and autoscalers', (f) => {
    for (const doc of hpas) {
      const { spec } = doc.obj;
      const name = `HorizontalPodAutoscaler/${doc.obj.metadata.name}`;
      const target = named('Deployment', spec.scaleTargetRef?.name);
      if ((spec.minReplicas ?? 1) > spec.maxReplicas)
        f(where(doc), `${name} spec.minReplicas`, 'above maxReplicas');
      if (!target) continue;
      if (target.obj.spec.replicas !== undefined) {
        f(
          where(target),
          `Deployment/${target.obj.metadata.name} spec.replicas`,
          'set while an autoscaler owns the count: every apply would reset it',
        );
      }
      if (
        spec.metrics?.some((m) => m.resource?.name === 'cpu') &&
        target.obj.spec.template.spec.containers.some(
          (c) => c.resources?.requests?.cpu === undefined,
        )
      ) {
        f(
          where(target),
          `Deployment/${target.obj.metadata.name} resources.requests.cpu`,
          'missing: CPU utilization is measured against it',
        );
      }
      const pdb = pdbs.find((p) =>
        labelsMatch(p.obj.spec.selector?.matchLabels, target.obj.spec.template.metadata.labels),
      );
      const min = pdb?.obj.spec.minAvailable;
      if (typeof min === 'number' && min >= (spec.minReplicas ?? 1)) {
        f(
          where(pdb),
          `PodDisruptionBudget/${pdb.obj.metadata.name} spec.minAvailable`,
          `${min} with as few as ${spec.minReplicas ?? 1} replicas: no node drain could ever evict one`,
        );
      }
    }
    for (const doc of pdbs) {
      const s = doc.obj.spec;
      if ((s.minAvailable === undefined) === (s.maxUnavailable === undefined)) {
        f(
          where(doc),
          `PodDisruptionBudget/${doc.obj.metadata.name} spec`,
          'needs exactly one of minAvailable and maxUnavailable',
        );
      }
    }
    return hpas
      .map(
        (h) =>
          `${h.obj.spec.scaleTargetRef.name.replace('boneyard-', '')} ${h.obj.spec.minReplicas ?? 1}-${h.obj.spec.maxReplicas}`,
      )
      .join(', ');
  });

  // Per container: its flags (ENTRYPOINT, then args with each --flagfile read in place), ports,
  // files and security settings.
  const workloads = [];
  const programs = builtPrograms();
  const layout = buildLayout();
  const builderTexts = new Map();
  await check('container build files', (f) => {
    for (const doc of deployments) {
      const pod = doc.obj.spec.template.spec;
      for (const [i, c] of pod.containers.entries()) {
        const field = `Deployment/${doc.obj.metadata.name} spec.template.spec.containers[${i}]`;
        const service = imageService(c.image ?? '');
        const file = join(k8sDir, 'containers', `${service}.Containerfile`);
        if (
          !service ||
          !existsSync(file) ||
          !existsSync(join(root, `services/${service}/main.cc`))
        ) {
          f(
            where(doc),
            `${field}.image`,
            `"${c.image}" is no boneyard-SERVICE with ${service ? rel(file) : 'a container file'} and services/SERVICE/main.cc`,
          );
          continue;
        }
        const cf = readContainerfile(file);
        builderTexts.set(rel(file), cf.builderText);
        const [builder, runtime] = [cf.stages[0], cf.stages.at(-1)];
        const binary = `boneyard-${service}`;
        if (
          cf.stages.length !== 2 ||
          builder.image !== 'debian:bookworm' ||
          builder.name !== 'builder' ||
          runtime.image !== 'debian:bookworm-slim'
        ) {
          f(
            rel(file),
            'FROM',
            'expected a builder stage FROM debian:bookworm AS builder, then FROM debian:bookworm-slim',
          );
        }
        const runs =
          builder?.steps
            .filter((s) => s.op === 'RUN')
            .map((s) => s.args)
            .join('\n') ?? '';
        if (!/deploy\/setup\.sh/.test(runs) || !/deploy\/build\.sh --programs/.test(runs)) {
          f(
            rel(file),
            'RUN (builder)',
            'must build with deploy/setup.sh and deploy/build.sh --programs',
          );
        }
        if (!programs.has(binary))
          f(rel(file), 'COPY', `${binary} is not among deploy/build.sh's --programs`);
        const copies = runtime.steps.filter((s) => s.op === 'COPY').map((s) => s.args.split(/\s+/));
        const binCopy = copies.find(
          (a) => a[0] === '--from=builder' && a[1] === `/src/${layout.bin}/${binary}`,
        );
        if (!binCopy)
          f(
            rel(file),
            'COPY',
            `does not copy /src/${layout.bin}/${binary} (the build's output) from the builder`,
          );
        let entry = [];
        try {
          entry = JSON.parse(runtime.steps.find((s) => s.op === 'ENTRYPOINT')?.args ?? '[]');
        } catch {
          f(rel(file), 'ENTRYPOINT', 'not the JSON form');
        }
        if (binCopy && entry[0] !== binCopy[2])
          f(rel(file), 'ENTRYPOINT', `runs ${entry[0]}, not the copied ${binCopy[2]}`);
        const assets = entry.find((a) => a.startsWith('--assets_dir='))?.split('=')[1];
        if (
          assets !== undefined &&
          !copies.some((a) => a[1] === `/src/${layout.webAssets}` && a[2] === assets)
        ) {
          f(
            rel(file),
            'COPY',
            `--assets_dir=${assets}, but the build's pages (/src/${layout.webAssets}) are not copied there`,
          );
        }
        const user = runtime.steps.filter((s) => s.op === 'USER').at(-1)?.args ?? '';
        const ctx = pod.securityContext ?? {};
        if (user !== `${ctx.runAsUser}:${ctx.runAsGroup}`) {
          f(
            rel(file),
            'USER',
            `"${user}", but the pod runs as ${ctx.runAsUser}:${ctx.runAsGroup} (a numeric USER lets runAsNonRoot be checked)`,
          );
        }
        const exposed = runtime.steps
          .filter((s) => s.op === 'EXPOSE')
          .flatMap((s) => s.args.split(/\s+/).map(Number))
          .sort();
        const ports = (c.ports ?? []).map((p) => p.containerPort).sort();
        if (exposed.join() !== ports.join())
          f(rel(file), 'EXPOSE', `${exposed.join(' ')}, but ${field}.ports are ${ports.join(' ')}`);
        workloads.push({
          doc,
          c,
          i,
          field,
          service,
          entry: entry.slice(1),
          containerfile: rel(file),
        });
      }
    }
    const texts = [...new Set(builderTexts.values())];
    if (texts.length > 1) {
      f(
        [...builderTexts.keys()].join(', '),
        'builder stage',
        'differs between the files: they would build twice and could build differently',
      );
    }
    return `${builderTexts.size} files, one builder stage, programs from deploy/build.sh`;
  });

  // A file a flag names: the ConfigMap or Secret key mounted there, or an explanation.
  const secretKeys = (name) => {
    const made = named('Secret', name);
    if (made)
      return {
        keys: Object.keys({ ...made.obj.data, ...made.obj.stringData }),
        madeBy: rel(made.file),
      };
    if (kExternalSecrets.has(name)) return kExternalSecrets.get(name);
    const cluster = clusters.find(
      (cl) => `${cl.obj.metadata.name}-app` === name && !cl.obj.spec?.bootstrap?.initdb?.secret,
    );
    if (cluster)
      return {
        keys: kCnpgAppKeys,
        madeBy: `CloudNativePG for Cluster ${cluster.obj.metadata.name}`,
      };
    return null;
  };
  const fileAt = (w, path) => {
    const pod = w.doc.obj.spec.template.spec;
    const mount = (w.c.volumeMounts ?? []).find((m) => m.mountPath === dirname(path));
    if (!mount) return { error: `nothing is mounted at ${dirname(path)}` };
    const volume = (pod.volumes ?? []).find((v) => v.name === mount.name);
    if (!volume) return { error: `volumeMount "${mount.name}" has no volume` };
    const source = volume.configMap ?? volume.secret;
    if (!source) return { error: `volume "${volume.name}" is neither a ConfigMap nor a Secret` };
    const items = source.items;
    const item = items ? items.find((it) => it.path === basename(path)) : { key: basename(path) };
    if (!item) return { error: `volume "${volume.name}" does not project ${basename(path)}` };
    if (volume.configMap) {
      const cm = named('ConfigMap', volume.configMap.name);
      if (!cm) return { error: `ConfigMap ${volume.configMap.name} does not exist` };
      if (cm.obj.data?.[item.key] === undefined)
        return { error: `ConfigMap ${volume.configMap.name} has no key ${item.key}` };
      const origin = cm.sources?.[item.key];
      return {
        content: cm.obj.data[item.key],
        file: origin ?? where(cm),
        prefix: origin ? '' : `ConfigMap/${volume.configMap.name} data.${item.key} `,
      };
    }
    const secret = secretKeys(volume.secret.secretName);
    if (!secret)
      return {
        error: `Secret ${volume.secret.secretName} is neither made here nor known to be made elsewhere`,
      };
    if (!secret.keys.includes(item.key))
      return {
        error: `Secret ${volume.secret.secretName} (made by ${secret.madeBy}) has no key ${item.key}`,
      };
    return {};
  };

  // Each container's flags in Abseil's order: the image's ENTRYPOINT, then the args, each
  // --flagfile read where it stands; a later value of a flag wins.
  const takeFlag = (w, arg, file, field, f) => {
    const m = /^--?([A-Za-z0-9_]+)(?:=(.*))?$/s.exec(arg);
    if (!m) {
      f(file, field, `"${arg}" is not a flag`);
      return;
    }
    let [, name, value = 'true'] = m;
    if (m[2] === undefined && name.startsWith('no') && definedFlags(w.service).has(name.slice(2))) {
      [name, value] = [name.slice(2), 'false'];
    }
    w.flagList.push({ name, value, file, field });
    w.flags.set(name, { value, file, field });
  };
  await check('flags', (f) => {
    let count = 0;
    for (const w of workloads) {
      w.flags = new Map();
      w.flagList = [];
      w.entry.forEach((arg, i) => takeFlag(w, arg, w.containerfile, `ENTRYPOINT[${i + 1}]`, f));
      for (const [i, arg] of (w.c.args ?? []).entries()) {
        const field = `${w.field}.args[${i}]`;
        for (const v of arg.matchAll(/\$\((\w+)\)/g)) {
          if (!(w.c.env ?? []).some((e) => e.name === v[1]))
            f(where(w.doc), field, `$(${v[1]}) is not an environment variable of the container`);
        }
        takeFlag(w, arg, where(w.doc), field, f);
        if (!arg.startsWith('--flagfile=')) continue;
        const path = arg.slice('--flagfile='.length);
        const at = fileAt(w, path);
        if (at.error) {
          f(where(w.doc), field, at.error);
          continue;
        }
        at.content.split('\n').forEach((line, n) => {
          const text = line.replace(/^\s+/, '');
          const lineField = `${at.prefix}line ${n + 1}`;
          if (text === '' || text.startsWith('#')) return;
          if (!text.startsWith('-'))
            f(at.file, lineField, 'Abseil reads only flags and whole-line comments in a flagfile');
          else if (/\s$/.test(text))
            f(at.file, lineField, 'ends in white space, which Abseil keeps in the value');
          else if (/\s#/.test(text))
            f(at.file, lineField, 'a comment after a flag is part of its value for Abseil');
          else takeFlag(w, text, at.file, lineField, f);
        });
      }
      const defined = definedFlags(w.service);
      for (const flag of w.flagList) {
        count += 1;
        if (!defined.has(flag.name))
          f(
            flag.file,
            flag.field,
            `--${flag.name} is not a flag of boneyard-${w.service} (ABSL_FLAG in services/${w.service}/main.cc or services/common/flags.cc)`,
          );
      }
      if (w.flags.has('database_url')) {
        f(
          w.flags.get('database_url').file,
          w.flags.get('database_url').field,
          'the database URL holds a password: give it through BONEYARD_DATABASE_URL from a Secret',
        );
      } else if (!(w.c.env ?? []).some((e) => e.name === 'BONEYARD_DATABASE_URL')) {
        f(
          where(w.doc),
          `${w.field}.env`,
          'no --database_url and no BONEYARD_DATABASE_URL: the program would not start',
        );
      }
      for (const name of kThreadFlags.filter((n) => defined.has(n))) {
        const value = Number(w.flags.get(name)?.value ?? flagDefault(w.service, name));
        const limit = cpuCores(w.c.resources?.limits?.cpu);
        const at = w.flags.get(name) ?? { file: where(w.doc), field: `${w.field}.args` };
        if (value === 0)
          f(
            at.file,
            at.field,
            `--${name} is 0: one thread per core of the node, however small the container`,
          );
        else if (limit !== undefined && value > Math.ceil(limit))
          f(at.file, at.field, `--${name}=${value} threads for a CPU limit of ${limit}`);
      }
    }
    return `${count} flags of ${workloads.length} containers are flags their binaries define`;
  });

  await check('files, ConfigMaps and Secrets', (f) => {
    let files = 0;
    for (const w of workloads) {
      for (const flag of w.flagList.filter((x) => x.name.endsWith('_file'))) {
        files += 1;
        const at = fileAt(w, flag.value);
        if (at.error) f(flag.file, flag.field, `--${flag.name}=${flag.value}: ${at.error}`);
      }
      const pod = w.doc.obj.spec.template.spec;
      for (const v of pod.volumes ?? []) {
        const field = `Deployment/${w.doc.obj.metadata.name} spec.template.spec.volumes.${v.name}`;
        if (v.configMap && !named('ConfigMap', v.configMap.name))
          f(where(w.doc), field, `ConfigMap ${v.configMap.name} does not exist`);
        if (v.secret && !secretKeys(v.secret.secretName))
          f(
            where(w.doc),
            field,
            `Secret ${v.secret.secretName} is neither made here nor known to be made elsewhere`,
          );
      }
      for (const e of w.c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef ?? e.valueFrom?.configMapKeyRef;
        if (!ref) continue;
        const field = `${w.field}.env.${e.name}`;
        if (e.valueFrom.secretKeyRef) {
          const secret = secretKeys(ref.name);
          if (!secret)
            f(
              where(w.doc),
              field,
              `Secret ${ref.name} is neither made here nor known to be made elsewhere`,
            );
          else if (!secret.keys.includes(ref.key))
            f(
              where(w.doc),
              field,
              `Secret ${ref.name} (made by ${secret.madeBy}) has no key ${ref.key}`,
            );
        } else if (named('ConfigMap', ref.name)?.obj.data?.[ref.key] === undefined) {
          f(where(w.doc), field, `ConfigMap ${ref.name} has no key ${ref.key}`);
        }
      }
    }
    return `${files} files named by flags are mounted; Secrets made elsewhere: ${[...kExternalSecrets.keys(), ...clusters.map((c) => `${c.obj.metadata.name}-app`)].join(', ')}`;
  });

  await check('ports, probes and addresses', (f) => {
    const portsOf = (c) => new Map((c.ports ?? []).map((p) => [p.name, p.containerPort]));
    const reaches = (c, port) =>
      typeof port === 'number' ? [...portsOf(c).values()].includes(port) : portsOf(c).has(port);
    const portNumber = (c, port) => (typeof port === 'number' ? port : portsOf(c).get(port));
    const hostPort = (text) => {
      const m = /^(?:[a-z]+:\/\/)?([^:/]+|\[[^\]]*\]):(\d+)(?:\/.*)?$/.exec(text);
      return m ? { host: m[1], port: Number(m[2]) } : null;
    };
    let wired = 0;
    for (const doc of services) {
      const target = deployments.find((d) =>
        labelsMatch(doc.obj.spec.selector, d.obj.spec.template.metadata.labels),
      );
      for (const [i, p] of (doc.obj.spec.ports ?? []).entries()) {
        if (
          target &&
          !target.obj.spec.template.spec.containers.some((c) => reaches(c, p.targetPort ?? p.port))
        ) {
          f(
            where(doc),
            `Service/${doc.obj.metadata.name} spec.ports[${i}].targetPort`,
            `${p.targetPort} is no container port of Deployment ${target.obj.metadata.name}`,
          );
        }
      }
    }
    for (const w of workloads) {
      const listen = hostPort(w.flags.get('listen')?.value ?? '');
      const metrics = hostPort(w.flags.get('metrics_listen')?.value ?? '');
      const serving = [...portsOf(w.c)].find(([name]) => name !== 'metrics')?.[1];
      if (!listen || !['0.0.0.0', '[::]'].includes(listen.host) || listen.port !== serving) {
        f(
          w.flags.get('listen')?.file ?? where(w.doc),
          w.flags.get('listen')?.field ?? `${w.field}.args`,
          `--listen must be 0.0.0.0:${serving} (all addresses, the container's serving port)`,
        );
      }
      if (
        !metrics ||
        !['0.0.0.0', '[::]'].includes(metrics.host) ||
        metrics.port !== portsOf(w.c).get('metrics')
      ) {
        f(
          w.flags.get('metrics_listen')?.file ?? where(w.doc),
          w.flags.get('metrics_listen')?.field ?? `${w.field}.args`,
          `--metrics_listen must be 0.0.0.0:${portsOf(w.c).get('metrics')} (the port named metrics)`,
        );
      }
      const annotations = w.doc.obj.spec.template.metadata.annotations ?? {};
      if (
        annotations['prometheus.io/scrape'] === 'true' &&
        Number(annotations['prometheus.io/port']) !== metrics?.port
      ) {
        f(
          where(w.doc),
          `${w.field} template annotations prometheus.io/port`,
          `${annotations['prometheus.io/port']}, but metrics are served on ${metrics?.port}`,
        );
      }
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
        const p = w.c[probe];
        if (!p) {
          f(where(w.doc), `${w.field}.${probe}`, 'missing');
          continue;
        }
        const port = p.grpc?.port ?? p.httpGet?.port ?? p.tcpSocket?.port;
        if (portNumber(w.c, port) !== listen?.port)
          f(
            where(w.doc),
            `${w.field}.${probe}`,
            `probes port ${port}, not the serving port ${listen?.port}`,
          );
        if (p.grpc && w.service === 'web')
          f(where(w.doc), `${w.field}.${probe}.grpc`, 'boneyard-web serves HTTP, not gRPC');
        if (!p.grpc && w.service !== 'web')
          f(
            where(w.doc),
            `${w.field}.${probe}`,
            'a gRPC service is probed with grpc.health.v1 (grpc:)',
          );
      }
      const advertise = w.flags.get('advertise_address');
      if (advertise) {
        const a = hostPort(advertise.value);
        if (!a || a.port !== listen?.port || a.host !== '$(POD_IP)')
          f(
            advertise.file,
            advertise.field,
            `--advertise_address must be $(POD_IP):${listen?.port}: the pod's own address and serving port`,
          );
      }
      for (const flag of w.flagList.filter(
        (x) => x.name.endsWith('_target') || x.name.endsWith('_url'),
      )) {
        const hp = hostPort(flag.value);
        const svc = hp && named('Service', hp.host);
        const sp = svc?.obj.spec.ports?.find((p) => p.port === hp.port);
        if (!svc) f(flag.file, flag.field, `--${flag.name}=${flag.value}: no Service ${hp?.host}`);
        else if (!sp)
          f(
            flag.file,
            flag.field,
            `--${flag.name}=${flag.value}: Service ${hp.host} has no port ${hp.port}`,
          );
        else wired += 1;
      }
    }
    return `${services.length} Services reach container ports; ${workloads.length * 3} probes on the serving ports; ${wired} addresses in flags are Service ports`;
  });

  await check('shutdown and security', (f) => {
    for (const w of workloads) {
      const pod = w.doc.obj.spec.template.spec;
      const name = `Deployment/${w.doc.obj.metadata.name}`;
      const grace = seconds(
        w.flags.get('shutdown_grace')?.value ??
          flagDefault(w.service, 'shutdown_grace').replace(/absl::Seconds\((\d+)\)/, '$1s'),
      );
      const preStop = w.c.lifecycle?.preStop?.sleep?.seconds ?? 0;
      const needed = preStop + grace + kGraceMargin;
      if (!Number.isFinite(grace)) {
        f(
          where(w.doc),
          `${w.field} --shutdown_grace`,
          'neither its value nor its default reads as a duration',
        );
      } else if ((pod.terminationGracePeriodSeconds ?? 30) < needed) {
        f(
          where(w.doc),
          `${name} spec.template.spec.terminationGracePeriodSeconds`,
          `${pod.terminationGracePeriodSeconds ?? 30} s, under preStop ${preStop} s + --shutdown_grace ${grace} s + ${kGraceMargin} s`,
        );
      }
      const ctx = pod.securityContext ?? {};
      if (ctx.runAsNonRoot !== true || !(ctx.runAsUser > 0))
        f(
          where(w.doc),
          `${name} spec.template.spec.securityContext`,
          'runAsNonRoot: true and a non-zero runAsUser',
        );
      const sc = w.c.securityContext ?? {};
      if (sc.readOnlyRootFilesystem !== true)
        f(
          where(w.doc),
          `${w.field}.securityContext.readOnlyRootFilesystem`,
          'must be true: the programs write nothing but their logs to stderr',
        );
      if (sc.allowPrivilegeEscalation !== false)
        f(where(w.doc), `${w.field}.securityContext.allowPrivilegeEscalation`, 'must be false');
      if (!sc.capabilities?.drop?.includes('ALL'))
        f(where(w.doc), `${w.field}.securityContext.capabilities.drop`, 'must drop ALL');
      for (const kind of ['requests', 'limits']) {
        for (const resource of ['cpu', 'memory']) {
          if (w.c.resources?.[kind]?.[resource] === undefined)
            f(where(w.doc), `${w.field}.resources.${kind}.${resource}`, 'missing');
        }
      }
    }
    return `grace periods outlast preStop + --shutdown_grace; non-root, read-only root, requests and limits on ${workloads.length} containers`;
  });

  await check('database', (f) => {
    if (clusters.length !== 1) {
      f(label, 'Cluster', `${clusters.length} CloudNativePG Clusters, not 1`);
      return '';
    }
    const cluster = clusters[0];
    const tag = splitTag(cluster.obj.spec.imageName ?? '');
    if (!/^15(\.|$|-)/.test(tag))
      f(
        where(cluster),
        'Cluster spec.imageName',
        `PostgreSQL ${tag}: the services are developed and tested on 15`,
      );
    const max = Number(cluster.obj.spec.postgresql?.parameters?.max_connections ?? 100);
    let needed = 0;
    const parts = [];
    for (const w of workloads) {
      const hpa = hpas.find((h) => h.obj.spec.scaleTargetRef?.name === w.doc.obj.metadata.name);
      const surge = Number(w.doc.obj.spec.strategy?.rollingUpdate?.maxSurge ?? 1);
      const pods =
        (hpa?.obj.spec.maxReplicas ?? w.doc.obj.spec.replicas ?? 1) +
        (Number.isInteger(surge) ? surge : 1);
      const pool = Number(
        w.flags.get('db_pool_size')?.value ?? flagDefault(w.service, 'db_pool_size'),
      );
      if (!Number.isInteger(pool)) f(where(w.doc), `${w.field} --db_pool_size`, 'unreadable');
      needed += pods * pool;
      parts.push(`${pods}x${pool}`);
    }
    if (needed > max - kPgSuperuserReserved - kPgMargin) {
      f(
        where(cluster),
        'Cluster spec.postgresql.parameters.max_connections',
        `${max}: the services may open ${needed} connections (${parts.join(' + ')}), and ${kPgSuperuserReserved + kPgMargin} are kept for superusers and the operator`,
      );
    }
    return `PostgreSQL ${tag}; ${needed} connections at the autoscalers' maxima with a surge pod each (${parts.join(' + ')}) within max_connections ${max}`;
  });

  const namespaces = byKind('Namespace').map((d) => d.obj.metadata.name);
  if (namespaces.length > 0) {
    await check('namespace', (f) => {
      for (const doc of docs.filter((d) => d.obj.kind !== 'Namespace')) {
        if (!namespaces.includes(doc.obj.metadata?.namespace))
          f(
            where(doc),
            `${doc.obj.kind}/${doc.obj.metadata?.name} metadata.namespace`,
            `not ${namespaces.join(' or ')}`,
          );
      }
      return `every document in ${namespaces.join(', ')}`;
    });
  }
  for (const w of label.endsWith('(kubectl)') ? [] : workloads) {
    if (/(^|\/)registry\.example\.com\//.test(w.c.image))
      say(`  note ${w.c.image}: replace registry.example.com with your registry before applying`);
  }
}

function splitTag(image) {
  const name = image.split('@')[0];
  const colon = name.lastIndexOf(':');
  return colon > name.lastIndexOf('/') ? name.slice(colon + 1) : 'latest';
}

// ---------------------------------------------------------------- the whole run

// Renders and checks the base and every overlay under k8sDir, plus `kustomized` outputs
// ({overlay: file}). Returns the failures as "file: field: message" lines.
async function validateAll(k8sDir, kustomized, say, stats = { passed: 0, failed: 0 }) {
  const failures = [];
  const fail = (file, field, message) =>
    failures.push(
      `${typeof file === 'string' && file.startsWith('/') ? rel(file) : file}: ${field}: ${message}`,
    );
  const targets = [
    ['base', join(k8sDir, 'base')],
    ...['dev', 'production'].map((o) => [`overlays/${o}`, join(k8sDir, 'overlays', o)]),
  ];
  for (const [label, dir] of targets) {
    const before = failures.length;
    const rendered = render(dir, fail);
    // The render records where generated ConfigMaps' keys and patches came from, for messages.
    annotateSources(dir, rendered);
    say(
      `${rel(dir)}: rendered here, ${rendered.docs.length} documents${failures.length > before ? ' (with errors)' : ''}`,
    );
    await checkRendering(label, rendered.docs, k8sDir, fail, say, stats);
    const overlay = basename(dir);
    if (kustomized[overlay]) {
      const file = kustomized[overlay];
      const theirs = YAML.parseAllDocuments(readFileSync(file, 'utf8'))
        .map((d) => d.toJS())
        .filter(Boolean);
      const differences = sameAsKustomize(rendered, theirs);
      differences.forEach((d) => fail(file, 'kubectl kustomize', d));
      say(`${rel(dir)}: kubectl kustomize output ${file}, ${theirs.length} documents`);
      say(
        `  ${differences.length ? 'FAIL' : 'ok  '} same documents as rendered here (generated names' hashes aside)`,
      );
      stats[differences.length ? 'failed' : 'passed'] += 1;
      await checkRendering(
        `${label} (kubectl)`,
        theirs.map((obj) => ({ obj, file })),
        k8sDir,
        fail,
        say,
        stats,
      );
    }
  }
  // The Secrets nothing here makes must be explained where a user will look.
  const readmeFile = join(k8sDir, 'README.md');
  const readme = existsSync(readmeFile) ? readFileSync(readmeFile, 'utf8') : '';
  const missing = [...kExternalSecrets].flatMap(([name, s]) =>
    [name, ...s.keys].filter((w) => !readme.includes(w)),
  );
  missing.forEach((word) =>
    fail(
      readmeFile,
      'Secrets',
      `does not say how to make the Secrets the manifests expect (${word} is missing)`,
    ),
  );
  say(
    `${rel(readmeFile)}:\n  ${missing.length ? 'FAIL' : 'ok  '} says how to make ${[...kExternalSecrets.keys()].join(', ')}`,
  );
  stats[missing.length ? 'failed' : 'passed'] += 1;
  return failures;
}

// Marks generated ConfigMaps with the files of their keys, and patched documents with the
// kustomization that patched them, for failure messages.
function annotateSources(dir, rendered) {
  const walk = (d) => {
    const k = YAML.parse(readFileSync(join(d, 'kustomization.yaml'), 'utf8')) ?? {};
    for (const gen of k.configMapGenerator ?? []) {
      const doc = rendered.docs.find(
        (x) => x.obj.kind === 'ConfigMap' && x.obj.metadata.name === gen.name,
      );
      if (doc)
        doc.sources = Object.fromEntries(
          (gen.files ?? []).map((e) => [
            basename(e.split('=').at(-1)),
            resolve(d, e.split('=').at(-1)),
          ]),
        );
    }
    for (const r of k.resources ?? []) {
      if (existsSync(join(resolve(d, r), 'kustomization.yaml'))) walk(resolve(d, r));
    }
    for (const p of k.patches ?? []) {
      for (const doc of rendered.docs) {
        const t = p.target ?? {};
        if (
          (t.kind === undefined || t.kind === doc.obj.kind) &&
          (t.name === undefined || t.name === doc.obj.metadata?.name)
        ) {
          (doc.patchedBy ??= []).push(join(d, 'kustomization.yaml'));
        }
      }
    }
  };
  walk(dir);
}

// Breaks a copy of deploy/k8s in ways the checks must catch; each break must produce a failure
// matching its pattern. Returns [passed, failed].
async function selfTest(k8sDir) {
  // prettier-ignore
  const sabotages = [
    ['a misspelt field', 'base/execution.yaml', 'readinessProbe:', 'readinesProbe:', /no such field.*readinesProbe|readinesProbe.*no such field/],
    ['a misspelt Cluster field', 'base/database.yaml', '  instances: 3', '  instance: 3', /additional properties "instance"/],
    ['a flag the binary lacks', 'base/flags/ratings.flags', '--shutdown_grace=10s', '--shutdown_grace=10s\n--batch_maximum=512', /--batch_maximum is not a flag/],
    ['a Service port reaching no container port', 'base/ratings.yaml', 'targetPort: metrics', 'targetPort: metric', /targetPort.*no container port/],
    ['a probe on the metrics port', 'base/matchmaking.yaml', 'grpc:\n              port: 50071\n            periodSeconds: 5', 'grpc:\n              port: 9466\n            periodSeconds: 5', /probes port 9466/],
    ['a missing ConfigMap', 'base/kustomization.yaml', 'name: boneyard-web-flags', 'name: boneyard-web-flag', /ConfigMap boneyard-web-flags does not exist/],
    ['a token not mounted', 'base/web.yaml', 'path: operator_token', 'path: operator-token', /does not project operator_token/],
    ['a target with the wrong port', 'base/flags/web.flags', 'boneyard-ratings:50061', 'boneyard-ratings:50062', /has no port 50062/],
    ['a grace period shorter than the shutdown', 'base/execution.yaml', 'terminationGracePeriodSeconds: 30', 'terminationGracePeriodSeconds: 12', /terminationGracePeriodSeconds.*under preStop/],
    ['a budget no drain can satisfy', 'overlays/production/kustomization.yaml', 'path: /spec/minAvailable\n        value: 2', 'path: /spec/minAvailable\n        value: 3', /no node drain could ever evict/],
    ['more pods than connections', 'base/execution.yaml', 'maxReplicas: 8', 'maxReplicas: 30', /max_connections.*may open/],
    ['an ambiguous octal mode', 'base/web.yaml', 'defaultMode: 288', 'defaultMode: 0440', /reads differently as YAML 1.1/],
    ['threads sized to the node', 'base/flags/execution.flags', '--workers=2', '--workers=0', /--workers is 0/],
    ['a patch missing its target', 'overlays/dev/kustomization.yaml', 'name: boneyard-db', 'name: boneyard-database', /matches no resource/],
    ['a container file that drifted', 'containers/ratings.Containerfile', 'COPY tests tests', 'COPY tests tests/', /builder stage.*differs/],
    ['the web pages left out of the image', 'containers/web.Containerfile', '/src/build/services/web/assets', '/src/build/web/assets', /pages .* are not copied/],
  ];
  let passed = 0;
  let failed = 0;
  for (const [title, file, from, to, expect] of sabotages) {
    const copy = mkdtempSync(join(tmpdir(), 'boneyard-k8s-'));
    try {
      cpSync(k8sDir, copy, { recursive: true });
      const path = join(copy, file);
      const text = readFileSync(path, 'utf8');
      if (!text.includes(from))
        throw new Error(`"${from}" is not in ${file}: the self-test is out of date`);
      writeFileSync(path, text.replace(from, to));
      const failures = await validateAll(copy, {}, () => {});
      const hit = failures.find((x) => expect.test(x));
      if (hit) {
        passed += 1;
        console.log(`  ok   ${title}: ${hit.replaceAll(`${rel(copy)}/`, 'deploy/k8s/')}`);
      } else {
        failed += 1;
        console.log(
          `  FAIL ${title} went unnoticed (${failures.length} other failures${failures[0] ? `, e.g. ${failures[0]}` : ''})`,
        );
      }
    } catch (e) {
      failed += 1;
      console.log(`  FAIL ${title}: ${e.message}`);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }
  return [passed, failed];
}

async function main() {
  const args = process.argv.slice(2);
  let k8sDir = join(root, 'deploy/k8s');
  const kustomized = {};
  let runSelfTest = false;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--k8s-dir') k8sDir = resolve(args[++i]);
    else if (args[i] === '--kustomized') {
      const [overlay, file] = (args[++i] ?? '').split('=');
      kustomized[overlay] = resolve(file);
    } else if (args[i] === '--self-test') runSelfTest = true;
    else {
      console.error(
        'usage: node validate_k8s.mjs [--k8s-dir DIR] [--kustomized OVERLAY=FILE]... [--self-test]',
      );
      process.exit(2);
    }
  }
  const stats = { passed: 0, failed: 0 };
  const failures = await validateAll(k8sDir, kustomized, (line) => console.log(line), stats);
  let { passed, failed } = stats;
  if (failures.length > 0) {
    console.log(`\n${failures.length} failure${failures.length > 1 ? 's' : ''}:`);
    failures.forEach((x) => console.log(`  ${x}`));
  }
  if (runSelfTest) {
    console.log('self-test: each break of a copy of deploy/k8s must fail a check');
    const [p, f] = await selfTest(k8sDir);
    passed += p;
    failed += f;
  }
  console.log(`validate_k8s: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

await main();
