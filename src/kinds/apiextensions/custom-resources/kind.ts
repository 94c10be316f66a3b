/**
 * The kind a CustomResourceDefinition defines, as apiextensions-apiserver serves it
 * (pkg/apiserver/customresource_handler.go and pkg/registry/customresource): the accepted names,
 * the served versions (preferred first, by Kubernetes' version priority), the scope, the `status`
 * and `scale` subresources, no strategic merge patch (415), no unconditional update, and
 * `metadata.generation` bumped by any change outside `metadata`.
 */
import type { EgressDialer } from '../../../webhook/egress-dialer.js';
import { z } from 'zod';
import { ApiError } from '../../../machinery/errors.js';
import { defineKind, type KindDefinition, type KindVersion, type KubeObject, type ScaleSubresource } from '../../../schema/define-kind.js';
import { compareKubeVersions } from '../../../schema/version-priority.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '../../types/apiextensions-v1.js';
import { printerColumnsOf, selectableFieldsOf } from './columns.js';
import { finalizerWarnings } from './finalizer-warnings.js';
import { compiledSchemaOf, publishedSchemaOf } from './published-schema.js';
import { CelRules } from './cel-rules.js';
import { takeValidationWarnings, validateCreate, validateStatusUpdate, validateUpdate, type RatchetingObserver } from './rules.js';
import { webhookConversions } from './webhook-conversion.js';
import type { ServiceReader } from './webhook-endpoint.js';

/** Any object: the type side of a custom resource version (its schema is published, not zod). */
const ANY_OBJECT = z.looseObject({}) as unknown as z.ZodType<KubeObject>;

/** How a definition is being served. */
export interface CustomResourceKindOptions {
  /**
   * Whether the definition is being deleted (asked on each create): its resources are then read
   * and deleted, never created.
   */
  readonly terminating?: () => boolean;
  /** Reads the cluster's Services, for a conversion webhook given as `clientConfig.service`. */
  readonly services?: ServiceReader;
  /** How the conversion webhook is reached (kube-apiserver's `cluster` egress selection); directly when absent. */
  readonly egress?: EgressDialer;
  /**
   * Told, after each update's validation, how long it spent comparing the object with the stored
   * one for ratcheting (the cluster's `apiextensions_apiserver_validation_ratcheting_seconds`).
   */
  readonly onRatcheting?: RatchetingObserver;
}

/** The 405 a create answers while the definition is terminating (customresource_handler.go). */
function terminatingCreate(): ApiError {
  return new ApiError({ code: 405, reason: 'MethodNotAllowed', message: 'create not allowed while custom resource definition is terminating', details: {} });
}

function scaleOf(v: CustomResourceDefinitionVersion): ScaleSubresource | undefined {
  const scale = v.subresources?.scale;
  if (!scale) return undefined;
  return {
    specReplicasPath: scale.specReplicasPath,
    statusReplicasPath: scale.statusReplicasPath,
    ...(scale.labelSelectorPath ? { labelSelectorPath: scale.labelSelectorPath } : {}),
  };
}

/**
 * The kind `crd` defines, named by its accepted names. The subresources of the storage version
 * stand for every version (Kubernetes' validation requires them to agree when they differ by
 * version, the version's own are used).
 */
export function customResourceKind(crd: CustomResourceDefinition, options: CustomResourceKindOptions = {}): KindDefinition {
  const names = crd.status?.acceptedNames ?? crd.spec.names;
  const served = crd.spec.versions.filter((v) => v.served).sort((a, b) => compareKubeVersions(b.name, a.name));
  const storage = crd.spec.versions.find((v) => v.storage) ?? served[0]!;
  const kind = names.kind;
  const compiled = new Map(crd.spec.versions.map((v) => [v.name, compiledSchemaOf(crd, v)]));
  // Strategy None changes only apiVersion (the registry's default); Webhook calls out.
  const conversionOf =
    crd.spec.conversion?.strategy === 'Webhook'
      ? webhookConversions(crd, { services: options.services, ...(options.egress ? { egress: options.egress } : {}) })
      : undefined;
  const versions: KindVersion[] = served.map((v) => ({
    name: v.name,
    schema: ANY_OBJECT,
    served: true,
    storage: v.name === storage.name,
    published: publishedSchemaOf(crd, v, compiled.get(v.name)),
    ...(conversionOf ? { conversion: conversionOf(v.name) } : {}),
  }));
  // The storage version is always a version of the kind, even when it is no longer served.
  if (!served.some((v) => v.name === storage.name)) {
    versions.push({
      name: storage.name,
      schema: ANY_OBJECT,
      served: false,
      storage: true,
      published: publishedSchemaOf(crd, storage, compiled.get(storage.name)),
      ...(conversionOf ? { conversion: conversionOf(storage.name) } : {}),
    });
  }
  const rules = new Map([...compiled].flatMap(([name, schema]) => (schema ? [[name, { schema, cel: new CelRules(schema.root) }] as const] : [])));
  // The engine hands the strategy objects in the storage shape: a webhook-converted version's
  // object is then checked with the storage version's schema.
  const versionOf = (apiVersion: string) => (conversionOf ? storage.name : apiVersion.slice(apiVersion.lastIndexOf('/') + 1));
  /** The compiled schema of the version a request came through (`example.com/v1`). */
  const schemaFor = (apiVersion: string) => compiled.get(versionOf(apiVersion)) ?? compiled.get(storage.name);
  const rulesFor = (apiVersion: string) => rules.get(versionOf(apiVersion)) ?? rules.get(storage.name);
  const terminating = options.terminating ?? (() => false);
  const scale = scaleOf(storage);
  // The columns and selectable fields of the storage version stand for every version.
  const columns = printerColumnsOf(storage.additionalPrinterColumns);
  return defineKind<KubeObject>({
    group: crd.spec.group,
    kind,
    plural: names.plural,
    singular: names.singular || kind.toLowerCase(),
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    scope: crd.spec.scope === 'Cluster' ? 'Cluster' : 'Namespaced',
    versions,
    statusSubresource: storage.subresources?.status !== undefined,
    scale,
    ...(columns ? { printerColumns: columns, ageColumn: false } : { defaultTable: true }),
    selectableFields: selectableFieldsOf(storage.selectableFields),
    metadataFieldSelectors: crd.spec.scope === 'Cluster' ? ['metadata.name'] : ['metadata.name', 'metadata.namespace'],
    strategicMergePatch: false,
    standardFinalizerNames: false,
    allowUnconditionalUpdate: false,
    // The schema's own validation reports missing required fields.
    schemaRequired: false,
    generation: 'object',
    strategy: {
      prepareForCreate() {
        if (terminating()) throw terminatingCreate();
      },
      defaults(obj, ctx) {
        const defaulted = schemaFor(ctx.apiVersion)?.default(obj) as KubeObject | undefined;
        if (defaulted && defaulted !== obj) replaceContents(obj, defaulted);
      },
      // An update runs `validateUpdate` as well: everything is there, with ratcheting.
      validate: (obj, ctx) => (ctx.operation === 'create' ? validateCreate(obj, rulesFor(ctx.apiVersion), scale) : []),
      validateUpdate: (obj, old, ctx) =>
        ctx.subresource === 'status'
          ? validateStatusUpdate(obj, old, rulesFor(ctx.apiVersion), scale, options.onRatcheting)
          : validateUpdate(obj, old, rulesFor(ctx.apiVersion), scale, options.onRatcheting),
      warnings: (obj, old, ctx) => [
        ...(ctx.subresource === 'status' ? [] : finalizerWarnings(obj.metadata?.finalizers, old?.metadata?.finalizers)),
        ...takeValidationWarnings(obj),
      ],
    },
  });
}

/** Makes `target` hold exactly what `source` holds (a hook changes its working copy in place). */
function replaceContents(target: KubeObject, source: KubeObject): void {
  for (const k of Object.keys(target)) if (!Object.hasOwn(source, k)) delete target[k];
  Object.assign(target, source);
}
