// The part of Kustomize that deploy/k8s uses, so the manifests can be rendered and checked where
// there is no kubectl (CI). It understands exactly: resources (files and folders), namespace,
// configMapGenerator (files), images, and patches that are JSON 6902 operations (add, replace,
// remove) on targets chosen by kind, name, group and version. Any other field of a
// kustomization.yaml is an error rather than silently ignored, so the checks never look at
// something other than what Kustomize makes. tests/deploy/run.sh compares this rendering with
// `kubectl kustomize` wherever kubectl exists.
//
// Generated ConfigMaps keep their plain names here: Kustomize adds a hash of their content
// (boneyard-web-flags-62h4f74b7c) and renames the references to them; sameAsKustomize() undoes
// that before comparing.
import { readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import YAML from 'yaml';

const kKnownFields = new Set([
  'apiVersion',
  'kind',
  'resources',
  'namespace',
  'configMapGenerator',
  'images',
  'patches',
]);
const kClusterScoped = new Set([
  'Namespace',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleBinding',
  'PersistentVolume',
  'StorageClass',
  'PriorityClass',
]);

// Reads every YAML document of `file` as {obj, file}. kubectl reads YAML 1.1 (0440 is octal,
// `on` is true) and Kustomize YAML 1.2 (0440 is a decimal number, `on` a string): a document that
// means different things to the two is reported through `fail`.
export function loadDocs(file, fail) {
  const text = readFileSync(file, 'utf8');
  const docs12 = YAML.parseAllDocuments(text, { version: '1.2' });
  const docs11 = YAML.parseAllDocuments(text, { version: '1.1' });
  const out = [];
  docs12.forEach((doc, i) => {
    if (doc.errors.length > 0) {
      fail(file, `document ${i + 1}`, `not valid YAML: ${doc.errors[0].message}`);
      return;
    }
    const obj = doc.toJS();
    if (obj === null || obj === undefined) return; // an empty document (a trailing ---)
    if (!isDeepStrictEqual(obj, docs11[i]?.toJS())) {
      fail(
        file,
        `document ${i + 1}`,
        'reads differently as YAML 1.1 (kubectl) and YAML 1.2 ' +
          '(Kustomize): quote the scalar, or write a mode like 0440 in decimal',
      );
    }
    out.push({ obj, file });
  });
  return out;
}

function groupVersion(apiVersion) {
  const at = apiVersion.lastIndexOf('/');
  return at < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, at), version: apiVersion.slice(at + 1) };
}

function matchesTarget(obj, target) {
  const { group, version } = groupVersion(obj.apiVersion ?? '');
  if (target.kind !== undefined && target.kind !== obj.kind) return false;
  if (target.name !== undefined && target.name !== obj.metadata?.name) return false;
  if (target.group !== undefined && target.group !== group) return false;
  if (target.version !== undefined && target.version !== version) return false;
  return true;
}

// JSON pointer (RFC 6901) to [parent, key], failing when a step is missing.
function locate(obj, pointer) {
  if (!pointer.startsWith('/')) throw new Error(`path "${pointer}" does not start with /`);
  const steps = pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  let parent = obj;
  for (const step of steps.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object' || !(step in parent)) {
      throw new Error(`path "${pointer}": "${step}" does not exist`);
    }
    parent = parent[step];
  }
  return [parent, steps.at(-1)];
}

function applyOperation(obj, op) {
  const [parent, key] = locate(obj, op.path);
  if (parent === null || typeof parent !== 'object') {
    throw new Error(`path "${op.path}": its parent is not an object or a list`);
  }
  const isList = Array.isArray(parent);
  const index = isList && key !== '-' ? Number(key) : NaN;
  if (isList && key !== '-' && !(Number.isInteger(index) && index >= 0 && index <= parent.length)) {
    throw new Error(`path "${op.path}": "${key}" is not an index of the list`);
  }
  const exists = isList ? index < parent.length : key in parent;
  switch (op.op) {
    case 'add':
      if (!isList) parent[key] = structuredClone(op.value);
      else if (key === '-') parent.push(structuredClone(op.value));
      else parent.splice(index, 0, structuredClone(op.value));
      return;
    case 'replace':
    case 'remove':
      if (!exists) throw new Error(`${op.op} ${op.path}: nothing there`);
      if (op.op === 'replace') parent[key] = structuredClone(op.value);
      else if (isList) parent.splice(index, 1);
      else delete parent[key];
      return;
    default:
      throw new Error(`operation "${op.op}" is not one render.mjs knows (add, replace, remove)`);
  }
}

function splitImage(image) {
  const at = image.indexOf('@');
  const withoutDigest = at < 0 ? image : image.slice(0, at);
  const colon = withoutDigest.lastIndexOf(':');
  const hasTag = colon > withoutDigest.lastIndexOf('/');
  return {
    name: hasTag ? withoutDigest.slice(0, colon) : withoutDigest,
    tag: hasTag ? withoutDigest.slice(colon + 1) : undefined,
  };
}

function podContainers(obj) {
  const spec = obj.spec?.template?.spec;
  return spec ? [...(spec.initContainers ?? []), ...(spec.containers ?? [])] : [];
}

// Renders the kustomization in `dir`. Returns {docs: [{obj, file}], generated: Set of the names
// of generated ConfigMaps}; problems go to fail(file, field, message).
export function render(dir, fail) {
  const kfile = join(dir, 'kustomization.yaml');
  const [k] = loadDocs(kfile, fail).map((d) => d.obj);
  if (!k) {
    fail(kfile, '(file)', 'empty');
    return { docs: [], generated: new Set() };
  }
  for (const field of Object.keys(k)) {
    if (!kKnownFields.has(field)) {
      fail(
        kfile,
        field,
        'a Kustomize field tests/deploy/render.mjs does not render: teach it ' +
          'there, or the checks would not see what Kustomize makes',
      );
    }
  }
  const docs = [];
  const generated = new Set();
  for (const resource of k.resources ?? []) {
    const path = resolve(dir, resource);
    let isDir = false;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      fail(kfile, 'resources', `"${resource}" does not exist`);
      continue;
    }
    if (isDir) {
      const sub = render(path, fail);
      docs.push(...sub.docs);
      sub.generated.forEach((n) => generated.add(n));
    } else {
      docs.push(...loadDocs(path, fail));
    }
  }
  for (const [i, gen] of (k.configMapGenerator ?? []).entries()) {
    const field = `configMapGenerator[${i}]`;
    for (const key of Object.keys(gen)) {
      if (key !== 'name' && key !== 'files')
        fail(kfile, `${field}.${key}`, 'not rendered by render.mjs');
    }
    const data = {};
    for (const entry of gen.files ?? []) {
      const eq = entry.indexOf('=');
      const [key, path] =
        eq < 0 ? [basename(entry), entry] : [entry.slice(0, eq), entry.slice(eq + 1)];
      try {
        data[key] = readFileSync(resolve(dir, path), 'utf8');
      } catch {
        fail(kfile, `${field}.files`, `"${path}" cannot be read`);
      }
    }
    docs.push({
      obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: gen.name }, data },
      file: kfile,
    });
    generated.add(gen.name);
  }
  for (const [i, patch] of (k.patches ?? []).entries()) {
    const field = `patches[${i}]`;
    for (const key of Object.keys(patch)) {
      if (key !== 'target' && key !== 'patch')
        fail(
          kfile,
          `${field}.${key}`,
          'not rendered by render.mjs (inline JSON 6902 patches only)',
        );
    }
    for (const key of Object.keys(patch.target ?? {})) {
      if (!['kind', 'name', 'group', 'version'].includes(key))
        fail(kfile, `${field}.target.${key}`, 'not rendered by render.mjs');
    }
    const ops = YAML.parse(patch.patch ?? '');
    if (!Array.isArray(ops)) {
      fail(kfile, `${field}.patch`, 'not a list of JSON 6902 operations');
      continue;
    }
    const targets = docs.filter((d) => matchesTarget(d.obj, patch.target ?? {}));
    if (targets.length === 0) fail(kfile, `${field}.target`, 'matches no resource');
    for (const doc of targets) {
      for (const op of ops) {
        try {
          applyOperation(doc.obj, op);
        } catch (e) {
          fail(kfile, `${field}.patch`, `${doc.obj.kind}/${doc.obj.metadata?.name}: ${e.message}`);
        }
      }
    }
  }
  for (const [i, image] of (k.images ?? []).entries()) {
    let used = false;
    for (const doc of docs) {
      for (const container of podContainers(doc.obj)) {
        const { name, tag } = splitImage(container.image ?? '');
        if (name !== image.name) continue;
        used = true;
        const newTag = image.newTag ?? tag;
        container.image = (image.newName ?? name) + (newTag !== undefined ? `:${newTag}` : '');
      }
    }
    if (!used) fail(kfile, `images[${i}]`, `no container uses the image "${image.name}"`);
  }
  if (k.namespace !== undefined) {
    for (const doc of docs) {
      if (!kClusterScoped.has(doc.obj.kind)) {
        doc.obj.metadata = { ...doc.obj.metadata, namespace: k.namespace };
      }
    }
  }
  return { docs, generated };
}

function keyOf(obj) {
  return `${obj.kind} ${obj.metadata?.namespace ?? ''}/${obj.metadata?.name}`;
}

// Replaces every string `name-<10-character hash>` by `name`, for each generated name.
function unhash(value, generated) {
  if (typeof value === 'string') {
    for (const name of generated) {
      if (
        value.length === name.length + 11 &&
        value.startsWith(`${name}-`) &&
        /^[a-z0-9]{10}$/.test(value.slice(name.length + 1))
      ) {
        return name;
      }
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => unhash(v, generated));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unhash(v, generated)]));
  }
  return value;
}

function firstDifference(a, b, path) {
  if (isDeepStrictEqual(a, b)) return null;
  if (
    a &&
    b &&
    typeof a === 'object' &&
    typeof b === 'object' &&
    Array.isArray(a) === Array.isArray(b)
  ) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[key], b[key], `${path}.${key}`);
      if (d) return d;
    }
  }
  return `${path}: here ${JSON.stringify(a)}, kubectl ${JSON.stringify(b)}`;
}

// The differences between this rendering and Kustomize's output (documents parsed from
// `kubectl kustomize`), after taking the hashes off generated names: [] when they agree.
export function sameAsKustomize(ours, theirs) {
  const mine = new Map(ours.docs.map((d) => [keyOf(d.obj), d.obj]));
  const kust = new Map(
    theirs.map((obj) => {
      const plain = unhash(obj, ours.generated);
      return [keyOf(plain), plain];
    }),
  );
  const differences = [];
  for (const [key, obj] of mine) {
    if (!kust.has(key)) differences.push(`${key}: rendered here, not by kubectl kustomize`);
    else {
      const d = firstDifference(obj, kust.get(key), key);
      if (d) differences.push(d);
    }
  }
  for (const key of kust.keys()) {
    if (!mine.has(key)) differences.push(`${key}: rendered by kubectl kustomize, not here`);
  }
  return differences;
}

export function relativeTo(root, file) {
  return relative(root, file) || file;
}
