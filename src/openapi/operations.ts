/**
 * The operations of every served resource, as Kubernetes' API installer publishes them: one
 * neutral description per operation that the v2 and v3 writers render. Names follow Kubernetes:
 * tag `core_v1` / `apps_v1` / `rbacAuthorization_v1`, operation ids such as
 * `patchCoreV1NamespacedPodStatus`, and `x-kubernetes-action` / `x-kubernetes-group-version-kind`
 * on each operation. Watch is the list operation with its `watch` parameter.
 */
import type { Verb } from '../machinery/request.js';
import { DELETE_OPTIONS, PATCH, STATUS, type Gvk, type KindSchemaNames } from './schemas.js';

/** A parameter of an operation. */
export interface OperationParameter {
  name: string;
  in: 'query' | 'path';
  type: 'string' | 'boolean' | 'integer';
  required?: boolean;
}

/** One operation of a path. */
export interface Operation {
  method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  operationId: string;
  tag: string;
  action: 'get' | 'list' | 'put' | 'post' | 'patch' | 'delete' | 'deletecollection';
  gvk: Gvk;
  parameters: OperationParameter[];
  /** The definition the request body is (none for reads). */
  body?: string;
  /** Content types of the request body. */
  consumes: string[];
  /** The definition answered, by status code. */
  responses: Record<string, string>;
  /** Whether the answer may be a watch stream. */
  watchable?: boolean;
}

/** A path with its operations and the parameters all of them share. */
export interface PathItem {
  path: string;
  parameters: OperationParameter[];
  operations: Operation[];
}

const q = (name: string, type: OperationParameter['type'] = 'string'): OperationParameter => ({ name, in: 'query', type });
const PRETTY = q('pretty');
const WRITE = [q('dryRun'), q('fieldManager'), q('fieldValidation')];
const LIST = [
  q('allowWatchBookmarks', 'boolean'),
  q('continue'),
  q('fieldSelector'),
  q('labelSelector'),
  q('limit', 'integer'),
  q('resourceVersion'),
  q('resourceVersionMatch'),
  q('sendInitialEvents', 'boolean'),
  q('timeoutSeconds', 'integer'),
  q('watch', 'boolean'),
];
const DELETE = [
  q('dryRun'),
  q('gracePeriodSeconds', 'integer'),
  q('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean'),
  q('orphanDependents', 'boolean'),
  q('propagationPolicy'),
];
const NAME: OperationParameter = { name: 'name', in: 'path', type: 'string', required: true };
const NAMESPACE: OperationParameter = { name: 'namespace', in: 'path', type: 'string', required: true };

const JSON_BODY = ['application/json', 'application/yaml'];
const PATCH_TYPES = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];

/** `core_v1`, `apps_v1`, `rbacAuthorization_v1`, `certificates_v1beta1`. */
export function tagOf(group: string, version: string): string {
  return `${camel(group.replace(/\.k8s\.io$/, '') || 'core')}_${version}`;
}

function camel(s: string): string {
  return s
    .split(/[.-]/)
    .filter(Boolean)
    .map((p, i) => (i === 0 ? p : p[0]!.toUpperCase() + p.slice(1)))
    .join('');
}

const upper = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** The paths of one served kind version. */
export function kindPaths(names: KindSchemaNames): PathItem[] {
  const { kind, version } = names;
  const d = kind.definition;
  const gvk = { group: kind.group, version, kind: d.kind };
  const tag = tagOf(kind.group, version);
  const id = upper(camel(tag.replace('_', '-')));
  const ns = kind.namespaced ? 'Namespaced' : '';
  const prefix = kind.group ? `/apis/${kind.group}/${version}` : `/api/${version}`;
  const collection = kind.namespaced ? `${prefix}/namespaces/{namespace}/${d.plural}` : `${prefix}/${d.plural}`;
  const scope = kind.namespaced ? [NAMESPACE] : [];
  const serves = (verb: Verb) => (d.review ? verb === 'create' : !(d.unsupportedVerbs ?? []).includes(verb));
  const patchTypes = d.strategicMergePatch === false ? PATCH_TYPES.filter((t) => !t.includes('strategic')) : PATCH_TYPES;
  const op = (o: Omit<Operation, 'tag' | 'gvk' | 'consumes'> & { consumes?: string[] }): Operation => ({ tag, gvk, consumes: [], ...o });
  const read = (suffix: string) =>
    op({ method: 'get', operationId: `read${id}${ns}${d.kind}${suffix}`, action: 'get', parameters: [], responses: { '200': names.object } });
  const replace = (suffix: string) =>
    op({
      method: 'put',
      operationId: `replace${id}${ns}${d.kind}${suffix}`,
      action: 'put',
      parameters: WRITE,
      body: names.object,
      consumes: JSON_BODY,
      responses: { '200': names.object, '201': names.object },
    });
  const patch = (suffix: string) =>
    op({
      method: 'patch',
      operationId: `patch${id}${ns}${d.kind}${suffix}`,
      action: 'patch',
      parameters: [...WRITE, q('force', 'boolean')],
      body: PATCH,
      consumes: patchTypes,
      responses: { '200': names.object, '201': names.object },
    });

  const items: PathItem[] = [];
  const collectionOps: Operation[] = [];
  if (serves('list') || serves('watch')) {
    collectionOps.push(
      op({ method: 'get', operationId: `list${id}${ns}${d.kind}`, action: 'list', parameters: LIST, responses: { '200': names.list! }, watchable: true }),
    );
  }
  if (serves('create')) {
    collectionOps.push(
      op({
        method: 'post',
        operationId: `create${id}${ns}${d.kind}`,
        action: 'post',
        parameters: WRITE,
        body: names.object,
        consumes: JSON_BODY,
        responses: { '200': names.object, '201': names.object, '202': names.object },
      }),
    );
  }
  if (serves('deletecollection')) {
    collectionOps.push(
      op({
        method: 'delete',
        operationId: `delete${id}Collection${ns}${d.kind}`,
        action: 'deletecollection',
        parameters: [
          ...LIST.filter((p) => p.name !== 'watch' && p.name !== 'allowWatchBookmarks'),
          ...DELETE.filter((p) => p.name !== 'dryRun'),
          q('dryRun'),
        ].sort(byName),
        body: DELETE_OPTIONS,
        consumes: JSON_BODY,
        responses: { '200': STATUS },
      }),
    );
  }
  if (collectionOps.length) items.push({ path: collection, parameters: [...scope, PRETTY], operations: collectionOps });

  const itemOps: Operation[] = [];
  if (serves('get')) itemOps.push(read(''));
  if (serves('update')) itemOps.push(replace(''));
  if (serves('patch')) itemOps.push(patch(''));
  if (serves('delete')) {
    itemOps.push(
      op({
        method: 'delete',
        operationId: `delete${id}${ns}${d.kind}`,
        action: 'delete',
        parameters: DELETE,
        body: DELETE_OPTIONS,
        consumes: JSON_BODY,
        responses: { '200': d.deletion?.returnDeletedObject ? names.object : STATUS, '202': d.deletion?.returnDeletedObject ? names.object : STATUS },
      }),
    );
  }
  if (itemOps.length) items.push({ path: `${collection}/{name}`, parameters: [NAME, ...scope, PRETTY], operations: itemOps });

  if (d.statusSubresource) {
    items.push({ path: `${collection}/{name}/status`, parameters: [NAME, ...scope, PRETTY], operations: [read('Status'), replace('Status'), patch('Status')] });
  }
  for (const sub of Object.keys(d.partSubresources ?? {})) {
    const name = upper(camel(sub));
    items.push({ path: `${collection}/{name}/${sub}`, parameters: [NAME, ...scope, PRETTY], operations: [read(name), replace(name), patch(name)] });
  }
  for (const sub of Object.keys(d.updateSubresources ?? {})) {
    items.push({ path: `${collection}/{name}/${sub}`, parameters: [NAME, ...scope, PRETTY], operations: [replace(upper(camel(sub)))] });
  }
  if (kind.namespaced && (serves('list') || serves('watch'))) {
    items.push({
      path: `${prefix}/${d.plural}`,
      parameters: [...LIST, PRETTY].sort(byName),
      operations: [
        op({
          method: 'get',
          operationId: `list${id}${d.kind}ForAllNamespaces`,
          action: 'list',
          parameters: [],
          responses: { '200': names.list! },
          watchable: true,
        }),
      ],
    });
  }
  return items;
}

function byName(a: OperationParameter, b: OperationParameter): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
