/**
 * The internal (`apiextensions`) form of a v1 CustomResourceDefinition, which is what Kubernetes
 * validates, and so what decides the field paths of its messages
 * (apiextensions-apiserver/pkg/apis/apiextensions/v1/conversion.go
 * `Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec`):
 * - when every version has the same schema (semantically), it moves to `spec.validation` and the
 *   versions keep none; likewise `spec.subresources`, `spec.additionalPrinterColumns` and
 *   `spec.selectableFields`. A one-version definition therefore reports its schema errors under
 *   `spec.validation.openAPIV3Schema`, a definition whose versions differ under
 *   `spec.versions[i].schema.openAPIV3Schema`;
 * - `spec.version` is the first version's name;
 * - the conversion webhook's `clientConfig` and `conversionReviewVersions` move up to
 *   `spec.conversion.webhookClientConfig` and `spec.conversion.conversionReviewVersions`;
 * - `spec.preserveUnknownFields` is always set (false when absent).
 * The schemas themselves stay the v1 objects (read through `schema-access.ts`).
 */
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  CustomResourceValidation,
  SelectableField,
  ServiceReference,
} from '../../types/apiextensions-v1.js';
import { CustomResourceDefinition as CustomResourceDefinitionSchema } from '../../types/apiextensions-v1.js';
import { fieldNode, semanticEqual } from '../../shared/semantic-equal.js';
import type { StructuralNode } from '../../../schema/structural.js';

/** A version in the internal form: per-version fields only where the versions differ. */
export interface InternalVersion {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly deprecated: boolean;
  readonly deprecationWarning?: string;
  readonly schema?: CustomResourceValidation;
  readonly subresources?: CustomResourceSubresources;
  readonly additionalPrinterColumns: readonly CustomResourceColumnDefinition[];
  readonly selectableFields: readonly SelectableField[];
}

/** The conversion webhook's client configuration, internal form. */
export interface InternalWebhookClientConfig {
  readonly url?: string;
  readonly service?: Required<Pick<ServiceReference, 'namespace' | 'name'>> & { readonly path?: string; readonly port: number };
  readonly caBundle?: string;
}

/** `spec.conversion`, internal form. */
export interface InternalConversion {
  readonly strategy: string;
  readonly webhookClientConfig?: InternalWebhookClientConfig;
  readonly conversionReviewVersions: readonly string[];
}

/** `spec`, internal form. */
export interface InternalSpec {
  readonly group: string;
  readonly version: string;
  readonly names: CustomResourceDefinitionNames;
  readonly scope: string;
  readonly validation?: CustomResourceValidation;
  readonly subresources?: CustomResourceSubresources;
  readonly versions: readonly InternalVersion[];
  readonly additionalPrinterColumns: readonly CustomResourceColumnDefinition[];
  readonly selectableFields: readonly SelectableField[];
  readonly conversion?: InternalConversion;
  readonly preserveUnknownFields: boolean;
}

const nodeOf = (field: string): StructuralNode | undefined => fieldNode(CustomResourceDefinitionSchema(), 'spec', 'versions', '[]', field) ?? undefined;
const fieldNodes = new Map<string, StructuralNode | undefined>();
function versionFieldNode(field: string): StructuralNode | undefined {
  if (!fieldNodes.has(field)) fieldNodes.set(field, nodeOf(field));
  return fieldNodes.get(field);
}

/** Whether a per-version field is the same (`apiequality.Semantic.DeepEqual`) in every version. */
function identical(versions: readonly CustomResourceDefinitionVersion[], field: keyof CustomResourceDefinitionVersion): boolean {
  const node = versionFieldNode(field);
  const first = versions[0]?.[field];
  return versions.every((v) => semanticEqual(v[field], first, node));
}

/** Go's zero value for an absent struct pointer or slice: undefined, and `[]` for slices. */
const list = <T>(v: readonly T[] | undefined): readonly T[] => (Array.isArray(v) ? v : []);

/** The internal form of a v1 definition's spec (see the file comment). */
export function internalSpec(crd: CustomResourceDefinition): InternalSpec {
  const spec = crd.spec ?? ({} as Partial<CustomResourceDefinition['spec']>);
  const versions = list(spec.versions);
  const hoistSchema = versions.length > 0 && identical(versions, 'schema');
  const hoistSubresources = versions.length > 0 && identical(versions, 'subresources');
  const hoistColumns = versions.length > 0 && identical(versions, 'additionalPrinterColumns');
  const hoistSelectable = versions.length > 0 && identical(versions, 'selectableFields');
  const first = versions[0];
  return {
    group: spec.group ?? '',
    version: first?.name ?? '',
    names: spec.names ?? { plural: '', kind: '' },
    scope: spec.scope ?? '',
    validation: hoistSchema ? (first?.schema ?? undefined) : undefined,
    subresources: hoistSubresources ? (first?.subresources ?? undefined) : undefined,
    additionalPrinterColumns: hoistColumns ? list(first?.additionalPrinterColumns) : [],
    selectableFields: hoistSelectable ? list(first?.selectableFields) : [],
    versions: versions.map((v) => ({
      name: v.name ?? '',
      served: v.served === true,
      storage: v.storage === true,
      deprecated: v.deprecated === true,
      deprecationWarning: v.deprecationWarning ?? undefined,
      schema: hoistSchema ? undefined : (v.schema ?? undefined),
      subresources: hoistSubresources ? undefined : (v.subresources ?? undefined),
      additionalPrinterColumns: hoistColumns ? [] : list(v.additionalPrinterColumns),
      selectableFields: hoistSelectable ? [] : list(v.selectableFields),
    })),
    conversion: internalConversion(spec.conversion ?? undefined),
    preserveUnknownFields: spec.preserveUnknownFields === true,
  };
}

function internalConversion(conversion: CustomResourceDefinition['spec']['conversion']): InternalConversion | undefined {
  if (!conversion) return undefined;
  const webhook = conversion.webhook ?? undefined;
  const cc = webhook?.clientConfig ?? undefined;
  const service = cc?.service ?? undefined;
  return {
    strategy: conversion.strategy ?? '',
    conversionReviewVersions: list(webhook?.conversionReviewVersions),
    webhookClientConfig: cc
      ? {
          url: cc.url ?? undefined,
          caBundle: cc.caBundle ?? undefined,
          service: service
            ? { namespace: service.namespace ?? '', name: service.name ?? '', path: service.path ?? undefined, port: service.port ?? 0 }
            : undefined,
        }
      : undefined,
  };
}

/** The schema that applies to a version: its own, or the top-level one (`apiextensions.GetSchemaForVersion`). */
export function schemaForVersion(spec: InternalSpec, name: string): CustomResourceValidation | undefined {
  if (spec.validation) return spec.validation;
  return spec.versions.find((v) => v.name === name)?.schema;
}
