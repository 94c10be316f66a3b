import { describe, expect, it } from 'vitest';
import { apiextensionsKinds, CustomResourceDefinitionKind } from '../../../../src/kinds/apiextensions/index.js';
import { useTestCluster } from '../../../support/cluster.js';
import { createCauses, expectCause, widgets } from './support.js';

const cluster = useTestCluster({ kinds: apiextensionsKinds });

describe('CustomResourceDefinition names, group and scope', () => {
  it('defaults singular and listKind from the kind, and conversion to None', async () => {
    const created = await cluster.client.resource(CustomResourceDefinitionKind).create(widgets());
    expect(created.spec.names).toEqual({ plural: 'widgets', kind: 'Widget', singular: 'widget', listKind: 'WidgetList' });
    expect(created.spec.conversion).toEqual({ strategy: 'None' });
  });

  it('requires the group, and a group with a dot', async () => {
    const crd = widgets();
    crd.spec.group = 'example';
    crd.metadata!.name = 'widgets.example';
    await expectCause(cluster, crd, 'FieldValueInvalid', 'spec.group', 'Invalid value: "example": should be a domain with at least one dot');
    crd.spec.group = '';
    crd.metadata!.name = 'widgets.';
    await expectCause(cluster, crd, 'FieldValueRequired', 'spec.group', 'Required value');
  });

  it('refuses a group that is not a DNS subdomain', async () => {
    const crd = widgets();
    crd.spec.group = 'Example.com';
    crd.metadata!.name = 'widgets.Example.com';
    const causes = await createCauses(cluster, crd);
    expect(causes.find((c) => c.field === 'spec.group')?.message).toMatch(/^Invalid value: "Example.com": a lowercase RFC 1123 subdomain/);
  });

  it('requires a known scope', async () => {
    const crd = widgets();
    crd.spec.scope = 'Global';
    await expectCause(cluster, crd, 'FieldValueNotSupported', 'spec.scope', 'Unsupported value: "Global": supported values: "Cluster", "Namespaced"');
    crd.spec.scope = '';
    await expectCause(cluster, crd, 'FieldValueRequired', 'spec.scope', 'Required value');
  });

  it('requires plural and kind (and so singular and listKind)', async () => {
    const crd = widgets();
    crd.spec.names = { plural: '', kind: '' };
    crd.metadata!.name = '.example.com';
    const causes = await createCauses(cluster, crd);
    for (const n of ['plural', 'singular', 'kind', 'listKind'])
      expect(causes).toContainEqual({ reason: 'FieldValueRequired', field: `spec.names.${n}`, message: 'Required value' });
  });

  it('checks every name as a DNS-1035 label, kinds in any case', async () => {
    const crd = widgets();
    crd.spec.names = { plural: 'widgets', kind: 'Wid_get', singular: 'Widget', shortNames: ['w1', '1w'], categories: ['all', 'a.b'] };
    const causes = await createCauses(cluster, crd);
    const label =
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
    expect(causes).toContainEqual({
      reason: 'FieldValueInvalid',
      field: 'spec.names.kind',
      message: `Invalid value: "Wid_get": may have mixed case, but should otherwise match: ${label} (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    });
    expect(causes.map((c) => c.field)).toEqual(
      expect.arrayContaining(['spec.names.singular', 'spec.names.shortNames[1]', 'spec.names.categories[1]', 'spec.names.listKind']),
    );
  });

  it('refuses a listKind equal to the kind', async () => {
    const crd = widgets();
    crd.spec.names.listKind = 'Widget';
    await expectCause(cluster, crd, 'FieldValueInvalid', 'spec.names.listKind', 'Invalid value: "Widget": kind and listKind may not be the same');
  });

  it('ties the name to <plural>.<group>', async () => {
    const crd = widgets();
    crd.metadata!.name = 'gadgets.example.com';
    await expectCause(cluster, crd, 'FieldValueInvalid', 'metadata.name', 'Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group');
  });

  it('requires API approval in the community groups', async () => {
    const crd = widgets();
    crd.spec.group = 'widgets.k8s.io';
    crd.metadata!.name = 'widgets.widgets.k8s.io';
    await expectCause(
      cluster,
      crd,
      'FieldValueRequired',
      'metadata.annotations[api-approved.kubernetes.io]',
      'Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    );
    crd.metadata!.annotations = { 'api-approved.kubernetes.io': 'maybe' };
    await expectCause(
      cluster,
      crd,
      'FieldValueInvalid',
      'metadata.annotations[api-approved.kubernetes.io]',
      'Invalid value: "maybe": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
    );
    crd.metadata!.annotations = { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/kubernetes/pull/1' };
    await cluster.client.resource(CustomResourceDefinitionKind).create(crd);
  });

  it('refuses preserveUnknownFields: true', async () => {
    const crd = widgets();
    crd.spec.preserveUnknownFields = true;
    await expectCause(
      cluster,
      crd,
      'FieldValueInvalid',
      'spec.preserveUnknownFields',
      'Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    );
  });
});
