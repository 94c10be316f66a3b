import { describe, expect, it } from 'vitest';
import { apiextensionsKinds, CustomResourceDefinitionKind } from '../../../../src/kinds/apiextensions/index.js';
import { statusOf, useTestCluster } from '../../../support/cluster.js';
import { createCauses, expectCause, widgets } from './support.js';

const cluster = useTestCluster({ kinds: apiextensionsKinds });
const crds = () => cluster.client.resource(CustomResourceDefinitionKind);

describe('CustomResourceDefinition conversion', () => {
  it('defaults the webhook service port to 443', async () => {
    const crd = widgets();
    crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'ns', name: 'conv' } } } };
    const created = await crds().create(crd);
    expect(created.spec.conversion?.webhook?.clientConfig?.service?.port).toBe(443);
  });

  it('requires a webhook for the Webhook strategy, at the internal paths', async () => {
    const crd = widgets();
    crd.spec.conversion = { strategy: 'Webhook' };
    const causes = await createCauses(cluster, crd);
    expect(causes).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.conversion.webhookClientConfig', message: 'Required value: required when strategy is set to Webhook' },
      { reason: 'FieldValueRequired', field: 'spec.conversion.conversionReviewVersions', message: 'Required value' },
    ]);
  });

  it('checks the webhook URL and review versions', async () => {
    const crd = widgets();
    crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v2'], clientConfig: { url: 'http://conv.example.com/x?y=1' } } };
    const causes = await createCauses(cluster, crd);
    expect(causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.conversion.webhookClientConfig.url',
        message: 'Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.conversion.webhookClientConfig.url',
        message: 'Invalid value: "y=1": query parameters are not permitted in the URL',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.conversion.conversionReviewVersions',
        message: 'Invalid value: ["v2"]: must include at least one of v1, v1beta1',
      },
    ]);
  });

  it('forbids a webhook with the None strategy, and an unknown strategy', async () => {
    const crd = widgets();
    crd.spec.conversion = { strategy: 'None', webhook: { conversionReviewVersions: ['v1'] } };
    await expectCause(
      cluster,
      crd,
      'FieldValueForbidden',
      'spec.conversion.conversionReviewVersions',
      'Forbidden: should not be set when strategy is not set to Webhook',
    );
    crd.spec.conversion = { strategy: 'Magic' };
    await expectCause(cluster, crd, 'FieldValueNotSupported', 'spec.conversion.strategy', 'Unsupported value: "Magic": supported values: "None", "Webhook"');
  });
});

describe('CustomResourceDefinition updates', () => {
  it('keeps group and plural, and once established scope and kind', async () => {
    const created = await crds().create(widgets());
    const next = structuredClone(created);
    next.spec.scope = 'Cluster';
    next.spec.names.plural = 'things';
    const status = await statusOf(() => crds().update(next));
    expect(status.code).toBe(422);
    expect(status.details?.causes).toContainEqual({
      reason: 'FieldValueInvalid',
      field: 'spec.names.plural',
      message: 'Invalid value: "things": field is immutable',
    });
    // Not established yet: the scope may change.
    expect(status.details?.causes?.some((c) => c.field === 'spec.scope')).toBe(false);

    const withStatus = structuredClone(created);
    withStatus.status = {
      ...withStatus.status,
      conditions: [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    };
    const established = await cluster.client.resource(CustomResourceDefinitionKind).updateStatus(withStatus);
    const again = structuredClone(established);
    again.spec.scope = 'Cluster';
    const status2 = await statusOf(() => crds().update(again));
    expect(status2.details?.causes).toContainEqual({
      reason: 'FieldValueInvalid',
      field: 'spec.scope',
      message: 'Invalid value: "Cluster": field is immutable',
    });
  });

  it('refuses to drop a stored version from spec.versions', async () => {
    const created = await crds().create(widgets());
    const next = structuredClone(created);
    next.spec.versions = [{ name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }];
    const status = await statusOf(() => crds().update(next));
    expect(status.details?.causes).toContainEqual({
      reason: 'FieldValueInvalid',
      field: 'status.storedVersions[0]',
      message:
        'Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
    });
  });
});
