/**
 * apiextensions-apiserver's counts of CRD OpenAPI regenerations
 * (pkg/controller/openapi/metrics.go and pkg/controller/openapiv3/metrics.go), kept as its two
 * OpenAPI controllers keep them: each follows every change of a definition and rebuilds that
 * definition's part of the published documents while it is `Established`.
 *
 * - `apiextensions_openapi_v2_regeneration_count{crd,reason}`: `add` the first time an established
 *   definition is seen, `update` on every later change of it (the v2 controller replaces the
 *   definition's cached spec on each sync, whatever changed), `remove` once it is gone or no
 *   longer established.
 * - `apiextensions_openapi_v3_regeneration_count{crd,group,reason,version}`: per served version,
 *   only when that version's document part really changes; `add` when the group-version had no
 *   document yet, `update` when it had one (even one of another definition), `remove` per
 *   group-version the definition leaves.
 *
 * memkube builds the `/openapi` documents lazily, on the first request after the served kinds
 * change (src/http/openapi.ts); what is counted here is the point where a definition's change
 * reaches what those documents are built from, the moment upstream's controllers rebuild theirs.
 * kube-apiserver v1.36 creates these series without increasing them (its controllers call
 * `With(labels)` and never `Inc()`, so they read 0); memkube counts what the help texts describe.
 */
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '../../kinds/types/apiextensions-v1.js';
import type { MetricsRegistry } from '../../metrics/registry.js';
import type { StorageEvent } from '../../storage/storage.js';
import { isConditionTrue } from './conditions.js';

/** The reasons upstream's OpenAPI controllers give. */
export type RegenerationReason = 'add' | 'update' | 'remove';

/** Follows the changes of the CustomResourceDefinitions and counts the regenerations. */
export interface OpenApiRegenerationCounter {
  /** One committed change of a definition (its bucket's events only). */
  observe(event: StorageEvent): void;
}

/** What a version's part of the v3 document is built from: a change of any of it rebuilds it. */
function versionFingerprint(crd: CustomResourceDefinition, version: CustomResourceDefinitionVersion): string {
  const { served: _served, storage: _storage, additionalPrinterColumns: _columns, deprecated: _d, deprecationWarning: _w, ...shape } = version;
  return JSON.stringify([crd.spec.group, crd.spec.names, crd.status?.acceptedNames ?? null, crd.spec.scope, crd.spec.preserveUnknownFields ?? null, shape]);
}

/** Declares the two counters in `metrics` and answers what updates them. */
export function openApiRegenerationCounter(metrics: MetricsRegistry): OpenApiRegenerationCounter {
  const v2 = metrics.counter({
    name: 'apiextensions_openapi_v2_regeneration_count',
    help: 'Counter of OpenAPI v2 spec regeneration count broken down by causing CRD name and reason.',
    stability: 'ALPHA',
    labelNames: ['crd', 'reason'],
  });
  const v3 = metrics.counter({
    name: 'apiextensions_openapi_v3_regeneration_count',
    help: 'Counter of OpenAPI v3 spec regeneration count broken down by group, version, causing CRD and reason.',
    stability: 'ALPHA',
    labelNames: ['group', 'version', 'crd', 'reason'],
  });
  /** The definitions the v2 document holds a part of. */
  const inV2 = new Set<string>();
  /** Per group-version (`group/version`), the definitions with a part in its v3 document and that part's fingerprint. */
  const inV3 = new Map<string, Map<string, string>>();

  function removeV3(name: string): void {
    for (const [gv, parts] of inV3) {
      if (!parts.delete(name)) continue;
      if (parts.size === 0) inV3.delete(gv);
      const [group, version] = splitGroupVersion(gv);
      v3.inc({ group, version, crd: name, reason: 'remove' });
    }
  }

  function buildV3(crd: CustomResourceDefinition, name: string): void {
    for (const version of crd.spec.versions ?? []) {
      if (!version.served) continue;
      const gv = `${crd.spec.group}/${version.name}`;
      const fingerprint = versionFingerprint(crd, version);
      let parts = inV3.get(gv);
      const reason: RegenerationReason = parts ? 'update' : 'add';
      if (parts?.get(name) === fingerprint) continue;
      if (!parts) inV3.set(gv, (parts = new Map()));
      parts.set(name, fingerprint);
      v3.inc({ group: crd.spec.group, version: version.name, crd: name, reason });
    }
  }

  return {
    observe(event) {
      const name = event.name;
      const crd = event.type === 'DELETED' ? undefined : (event.object as unknown as CustomResourceDefinition);
      if (!crd?.spec || !isConditionTrue(crd.status?.conditions, 'Established')) {
        if (inV2.delete(name)) v2.inc({ crd: name, reason: 'remove' });
        removeV3(name);
        return;
      }
      v2.inc({ crd: name, reason: inV2.has(name) ? 'update' : 'add' });
      inV2.add(name);
      buildV3(crd, name);
    },
  };
}

/** `group/version` back into its parts (a group has no `/`; the last `/` splits). */
function splitGroupVersion(gv: string): [string, string] {
  const at = gv.lastIndexOf('/');
  return [gv.slice(0, at), gv.slice(at + 1)];
}
