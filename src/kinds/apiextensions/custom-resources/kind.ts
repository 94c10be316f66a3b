/**
 * The kind a CustomResourceDefinition defines, as apiextensions-apiserver serves it
 * (pkg/apiserver/customresource_handler.go and pkg/registry/customresource): the accepted names,
 * the served versions (preferred first, by Kubernetes' version priority), the scope, the `status`
 * and `scale` subresources, no strategic merge patch (415), no unconditional update, and
 * `metadata.generation` bumped by any change outside `metadata`.
 */
import { z } from 'zod';
import { ApiError } from '../../../machinery/errors.js';
import { defineKind, type KindDefinition, type KindVersion, type KubeObject, type ScaleSubresource } from '../../../schema/define-kind.js';
import { compareKubeVersions } from '../../../schema/version-priority.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '../../types/apiextensions-v1.js';
import { finalizerWarnings } from './finalizer-warnings.js';
import { publishedSchemaOf } from './published-schema.js';
import { validateScaleSpec, validateScaleStatus } from './scale-rules.js';
import { webhookConversions } from './webhook-conversion.js';
import type { ServiceReader } from './webhook-endpoint.js';

/** Any object: the type side of a custom resource version (its schema is published, not zod). */
const ANY_OBJECT = z.looseObject({}) as unknown as z.ZodType<KubeObject>;

/** How a definition is being served. */
export interface CustomResourceKindOptions {
  /** The definition is being deleted: its resources are read and deleted, never created. */
  readonly terminating?: boolean;
  /** Reads the cluster's Services, for a conversion webhook given as `clientConfig.service`. */
  readonly services?: ServiceReader;
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
  // Strategy None changes only apiVersion (the registry's default); Webhook calls out.
  const conversionOf = crd.spec.conversion?.strategy === 'Webhook' ? webhookConversions(crd, { services: options.services }) : undefined;
  const versions: KindVersion[] = served.map((v) => ({
    name: v.name,
    schema: ANY_OBJECT,
    served: true,
    storage: v.name === storage.name,
    published: publishedSchemaOf(crd, v),
    ...(conversionOf ? { conversion: conversionOf(v.name) } : {}),
  }));
  // The storage version is always a version of the kind, even when it is no longer served.
  if (!served.some((v) => v.name === storage.name)) {
    versions.push({
      name: storage.name,
      schema: ANY_OBJECT,
      served: false,
      storage: true,
      published: publishedSchemaOf(crd, storage),
      ...(conversionOf ? { conversion: conversionOf(storage.name) } : {}),
    });
  }
  const terminating = options.terminating === true;
  const scale = scaleOf(storage);
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
    strategicMergePatch: false,
    standardFinalizerNames: false,
    allowUnconditionalUpdate: false,
    generation: 'object',
    strategy: {
      prepareForCreate() {
        if (terminating) throw terminatingCreate();
      },
      validate: (obj, ctx) =>
        ctx.subresource === 'status' ? validateScaleStatus(obj, scale) : [...validateScaleSpec(obj, scale), ...validateScaleStatus(obj, scale)],
      warnings: (obj, old, ctx) => (ctx.subresource === 'status' ? [] : finalizerWarnings(obj.metadata?.finalizers, old?.metadata?.finalizers)),
    },
  });
}
