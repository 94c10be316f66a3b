/**
 * Generates `src/http/protobuf/descriptors.generated.ts` from Kubernetes' published `.proto` files
 * (field numbers, wire types) and the Go struct tags of `types.go` (JSON names, `omitempty`,
 * `omitzero`, pointers, inlined structs).
 *
 * Usage: `npx tsx scripts/generate-protobuf-descriptors.ts <kubernetes/api git dir> <kubernetes/apimachinery git dir> [tag]`
 * (bare git directories work: files are read with `git show <tag>:<path>`; the tag defaults to
 * v0.36.3, i.e. Kubernetes 1.36, the version memkube serves).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [apiDir, machineryDir, ref = 'v0.36.3'] = process.argv.slice(2);
if (!apiDir || !machineryDir) throw new Error('usage: generate-descriptors.ts <kubernetes/api git dir> <kubernetes/apimachinery git dir>');

/** The API groups whose kinds get descriptors (the built-in kinds memkube serves and kubectl creates). */
const API_PACKAGES = [
  'core/v1',
  'apps/v1',
  'batch/v1',
  'rbac/v1',
  'networking/v1',
  'policy/v1',
  'scheduling/v1',
  'coordination/v1',
  'discovery/v1',
  'autoscaling/v1',
  'autoscaling/v2',
  'storage/v1',
  'events/v1',
  'certificates/v1',
  'admissionregistration/v1',
  'authentication/v1',
  'authorization/v1',
];

const MACHINERY_PACKAGES: { proto: string; go: string[] }[] = [
  { proto: 'pkg/apis/meta/v1/generated.proto', go: ['pkg/apis/meta/v1/types.go'] },
  { proto: 'pkg/runtime/generated.proto', go: ['pkg/runtime/types.go'] },
  { proto: 'pkg/util/intstr/generated.proto', go: ['pkg/util/intstr/intstr.go'] },
  { proto: 'pkg/api/resource/generated.proto', go: [] },
];

function git(dir: string, args: string[]): string {
  return execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}
const show = (dir: string, path: string) => git(dir, ['show', `${ref}:${path}`]);

/** Short message names: `k8s.io.api.core.v1.Pod` → `core.v1.Pod`, `k8s.io.apimachinery.pkg.apis.meta.v1.Time` → `meta.v1.Time`. */
function shorten(full: string): string {
  return full
    .replace(/^\./, '')
    .replace(/^k8s\.io\.api\./, '')
    .replace(/^k8s\.io\.apimachinery\.pkg\.apis\./, '')
    .replace(/^k8s\.io\.apimachinery\.pkg\.util\./, '')
    .replace(/^k8s\.io\.apimachinery\.pkg\.api\./, '')
    .replace(/^k8s\.io\.apimachinery\.pkg\./, '');
}

interface ProtoField {
  number: number;
  name: string;
  label: 'optional' | 'repeated' | 'required' | 'map';
  type: string;
  mapValue?: string;
}
interface ProtoMessage {
  name: string;
  fields: ProtoField[];
  nullableList: boolean;
}

const SCALARS = new Set([
  'string',
  'bool',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'bytes',
  'double',
  'float',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
]);

function resolveType(type: string, pkg: string): string {
  if (SCALARS.has(type)) return type;
  if (type.startsWith('.')) return shorten(type);
  return shorten(`${pkg}.${type}`);
}

function parseProto(text: string): { pkg: string; messages: ProtoMessage[] } {
  const pkg = /^package ([\w.]+);/m.exec(text)?.[1];
  if (!pkg) throw new Error('no package');
  const messages: ProtoMessage[] = [];
  const lines = text.split('\n');
  let current: ProtoMessage | undefined;
  let comments: string[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (!current) {
      const m = /^message (\w+) \{$/.exec(line);
      if (m) {
        current = { name: shorten(`${pkg}.${m[1]!}`), fields: [], nullableList: comments.some((c) => c.includes('+protobuf.nullable=true')) };
        messages.push(current);
        comments = [];
      } else if (line.startsWith('//')) comments.push(line);
      else comments = [];
      continue;
    }
    if (line === '}') {
      current = undefined;
      continue;
    }
    const map = /^map<(\w+), ([\w.]+)> (\w+) = (\d+);$/.exec(line);
    if (map) {
      if (map[1] !== 'string') throw new Error(`map key ${map[1]} in ${current.name}`);
      current.fields.push({ number: Number(map[4]), name: map[3]!, label: 'map', type: 'string', mapValue: resolveType(map[2]!, pkg) });
      continue;
    }
    const f = /^(optional|repeated|required) ([\w.]+) (\w+) = (\d+);$/.exec(line);
    if (f) {
      current.fields.push({ number: Number(f[4]), name: f[3]!, label: f[1] as ProtoField['label'], type: resolveType(f[2]!, pkg) });
      continue;
    }
    if (line && !line.startsWith('//')) throw new Error(`unparsed line in ${current.name}: ${line}`);
  }
  return { pkg, messages };
}

interface GoField {
  json: string;
  omitEmpty: boolean;
  omitZero: boolean;
  pointer: boolean;
  inline: boolean;
}

/** Go struct fields by struct name, then by protobuf field number. */
function parseGo(text: string, into: Map<string, Map<number, GoField>>): void {
  let struct: string | undefined;
  for (const raw of text.split('\n')) {
    const s = /^type (\w+) struct \{/.exec(raw);
    if (s) {
      struct = s[1]!;
      into.set(struct, into.get(struct) ?? new Map());
      continue;
    }
    if (raw.startsWith('}')) {
      struct = undefined;
      continue;
    }
    if (!struct || raw.trimStart().startsWith('//')) continue;
    const tag = /`(.*)`/.exec(raw)?.[1];
    if (!tag) continue;
    const pb = /(?:^|\s)protobuf:"([^"]*)"/.exec(tag)?.[1];
    const json = /(?:^|\s)json:"([^"]*)"/.exec(tag)?.[1];
    if (pb === undefined || json === undefined) continue;
    const number = Number(pb.split(',')[1]);
    const [jsonName = '', ...opts] = json.split(',');
    const decl = raw.slice(0, raw.indexOf('`')).trim().split(/\s+/);
    const goType = decl.length >= 2 ? decl[1]! : decl[0]!;
    into.get(struct)!.set(number, {
      json: jsonName,
      omitEmpty: opts.includes('omitempty'),
      omitZero: opts.includes('omitzero'),
      pointer: goType.startsWith('*'),
      inline: jsonName === '' || opts.includes('inline'),
    });
  }
}

const messages = new Map<string, ProtoMessage>();
const goFields = new Map<string, Map<string, Map<number, GoField>>>(); // proto package short prefix → struct → fields
const kinds: Record<string, string> = {};

function addPackage(protoText: string, goTexts: string[], groupVersion?: string): void {
  const { messages: ms } = parseProto(protoText);
  const structs = new Map<string, Map<number, GoField>>();
  for (const t of goTexts) parseGo(t, structs);
  for (const m of ms) {
    messages.set(m.name, m);
    const prefix = m.name.slice(0, m.name.lastIndexOf('.'));
    goFields.set(prefix, structs);
    if (groupVersion !== undefined) {
      const meta = m.fields.find((f) => f.number === 1);
      if (meta?.name === 'metadata' && meta.type === 'meta.v1.ObjectMeta') kinds[`${groupVersion}/${m.name.slice(prefix.length + 1)}`] = m.name;
    }
  }
}

for (const p of MACHINERY_PACKAGES)
  addPackage(
    show(machineryDir, p.proto),
    p.go.map((g) => show(machineryDir, g)),
  );
for (const p of API_PACKAGES) {
  const group = /const GroupName = "([^"]*)"/.exec(show(apiDir, `${p.split('/')[0]!}/${p.split('/')[1]!}/register.go`))?.[1] ?? '';
  const version = p.split('/')[1]!;
  addPackage(show(apiDir, `${p}/generated.proto`), [show(apiDir, `${p}/types.go`)], group ? `${group}/${version}` : version);
}

// meta/v1 kinds a client may send in protobuf (as the body of a DELETE).
kinds['v1/DeleteOptions'] = 'meta.v1.DeleteOptions';
kinds['meta.k8s.io/v1/DeleteOptions'] = 'meta.v1.DeleteOptions';

/** Messages the decoder handles itself (their JSON form is not an object of their fields). */
const SPECIAL = new Set([
  'meta.v1.Time',
  'meta.v1.MicroTime',
  'meta.v1.Duration',
  'meta.v1.FieldsV1',
  'resource.Quantity',
  'intstr.IntOrString',
  'runtime.RawExtension',
]);

// Only the messages reachable from the kinds.
const reachable = new Set<string>();
const queue = Object.values(kinds);
while (queue.length) {
  const name = queue.pop()!;
  if (reachable.has(name)) continue;
  reachable.add(name);
  const m = messages.get(name);
  if (!m) throw new Error(`unknown message ${name}`);
  for (const f of m.fields) {
    const t = f.mapValue ?? f.type;
    if (!SCALARS.has(t)) queue.push(t);
  }
}

// Flags: 1 repeated, 2 map, 4 inline, 8 omitempty (non-pointer), 16 omitzero, 32 pointer, 64 list wrapper.
const out: string[] = [];
for (const name of [...reachable].sort()) {
  const m = messages.get(name)!;
  if (SPECIAL.has(name)) continue;
  const prefix = name.slice(0, name.lastIndexOf('.'));
  const struct = goFields.get(prefix)?.get(name.slice(prefix.length + 1));
  const rows = m.fields.map((f) => {
    const go = struct?.get(f.number);
    let flags = 0;
    if (f.label === 'repeated') flags |= 1;
    if (f.label === 'map') flags |= 2;
    if (go?.inline) flags |= 4;
    if (go?.omitEmpty && !go.pointer) flags |= 8;
    if (go?.omitZero) flags |= 16;
    if (go?.pointer) flags |= 32;
    const json = go && !go.inline && go.json !== '-' ? go.json : f.name;
    return `[${f.number}, ${JSON.stringify(json)}, ${JSON.stringify(f.mapValue ?? f.type)}, ${flags}]`;
  });
  out.push(`  ${JSON.stringify(name)}: { list: ${m.nullableList}, fields: [${rows.join(', ')}] },`);
}

const apiSha = git(apiDir, ['rev-parse', ref]).trim();
const machinerySha = git(machineryDir, ['rev-parse', ref]).trim();
const file = `/**
 * Protobuf message descriptors of Kubernetes' built-in kinds. GENERATED by
 * scripts/generate-protobuf-descriptors.ts from kubernetes/api@${ref} (${apiSha}) and
 * kubernetes/apimachinery@${ref} (${machinerySha}) (\`generated.proto\` field numbers, \`types.go\` JSON tags).
 * Do not edit.
 */
import type { MessageDescriptor } from './descriptor.js';

/** Message descriptors by short name (\`core.v1.Pod\`, \`meta.v1.ObjectMeta\`). */
export const MESSAGES: Readonly<Record<string, MessageDescriptor>> = {
${out.join('\n')}
};

/** The message of each kind, by \`apiVersion/kind\` (\`v1/ConfigMap\`, \`apps/v1/Deployment\`). */
export const KIND_MESSAGES: Readonly<Record<string, string>> = ${JSON.stringify(kinds, null, 2).replace(/\n}$/, ',\n}')};
`;
const target = fileURLToPath(new URL('../src/http/protobuf/descriptors.generated.ts', import.meta.url));
writeFileSync(target, file);
console.log(`wrote ${target}: ${reachable.size} messages, ${Object.keys(kinds).length} kinds`);
