/** Helpers of the CustomResourceDefinition validation tests: a valid definition to break, and its 422 causes. */
import { expect } from 'vitest';
import type { Cluster } from '../../../../src/cluster.js';
import { CustomResourceDefinitionKind, type CustomResourceDefinition } from '../../../../src/kinds/apiextensions/index.js';
import type { JSONSchemaProps } from '../../../../src/kinds/types/apiextensions-v1.js';
import { statusOf } from '../../../support/cluster.js';

/** A valid one-version definition of `widgets.example.com`, its schema `schema`. */
export function widgets(schema: JSONSchemaProps = { type: 'object' }): CustomResourceDefinition {
  return {
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', kind: 'Widget' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

/** A definition whose root schema has `spec` as given. */
export function withSpec(spec: JSONSchemaProps): CustomResourceDefinition {
  return widgets({ type: 'object', properties: { spec } });
}

/** One cause of a Status. */
export interface Cause {
  reason: string;
  field: string;
  message: string;
}

/** The causes of the 422 a create of `crd` answers; fails if it succeeds. */
export async function createCauses(cluster: Cluster, crd: CustomResourceDefinition, kind = CustomResourceDefinitionKind): Promise<Cause[]> {
  const status = await statusOf(() => cluster.client.resource(kind).create(crd));
  expect(status.code).toBe(422);
  return (status.details?.causes ?? []) as Cause[];
}

/** Expects a create of `crd` to fail with (at least) this cause. */
export async function expectCause(cluster: Cluster, crd: CustomResourceDefinition, reason: string, field: string, message: string): Promise<void> {
  expect(await createCauses(cluster, crd)).toContainEqual({ reason, field, message });
}
