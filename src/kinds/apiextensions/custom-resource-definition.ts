/** CustomResourceDefinition (apiextensions.k8s.io/v1, cluster). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { CustomResourceDefinition as CustomResourceDefinitionSchema } from '../types/apiextensions-v1.js';
import { specGeneration } from '../shared/semantic-equal.js';

/** A CustomResourceDefinition object. */
export type CustomResourceDefinition = CustomResourceDefinitionSchema;

/**
 * The rule that ties a definition to what it defines (apiextensions-apiserver's
 * `ValidateCustomResourceDefinition`): its name is `<spec.names.plural>.<spec.group>`.
 */
function validateName(crd: CustomResourceDefinition): FieldError[] {
  const name = crd.metadata?.name ?? '';
  const expected = `${crd.spec?.names?.plural ?? ''}.${crd.spec?.group ?? ''}`;
  return name === expected ? [] : [fieldError.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group')];
}

/** The storage version's name, recorded in `status.storedVersions` as the real server records it. */
function storageVersionOf(crd: CustomResourceDefinition): string | undefined {
  return crd.spec?.versions?.find((v) => v.storage)?.name;
}

/**
 * CustomResourceDefinition: stored and listed, so clients that look for definitions (kubectl's
 * validation asks for them before it sends an object of an unknown kind) get real answers. A create
 * resets the status and records the storage version in `status.storedVersions`; generation follows
 * spec changes; the name must be `<plural>.<group>`. Defining a kind does not serve it yet.
 */
export const CustomResourceDefinitionKind = defineKind<CustomResourceDefinition>({
  group: 'apiextensions.{api_domain}',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  scope: 'Cluster',
  versions: [{ name: 'v1', schema: CustomResourceDefinitionSchema, served: true, storage: true }],
  statusSubresource: true,
  schemaRequired: true,
  generation: specGeneration(CustomResourceDefinitionSchema),
  // apiextensions-apiserver prints definitions with the default table: Name and Created At.
  defaultTable: true,
  strategy: {
    prepareForCreate(crd) {
      const stored = storageVersionOf(crd);
      crd.status = { ...(stored ? { storedVersions: [stored] } : {}) };
    },
    prepareForUpdate(crd, old, ctx) {
      if (ctx.subresource === 'status') return;
      const stored = storageVersionOf(crd);
      const recorded = [...(old.status?.storedVersions ?? [])];
      if (stored && !recorded.includes(stored)) recorded.push(stored);
      if (recorded.length) crd.status = { ...(crd.status ?? {}), storedVersions: recorded };
    },
    defaults(crd) {
      crd.status ??= {};
      crd.status.acceptedNames ??= { plural: '', kind: '' };
    },
    validate: (crd) => validateName(crd),
  },
});
