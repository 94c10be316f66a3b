import { describe, expect, it } from 'vitest';
import { apiextensionsKinds } from '../../../../src/kinds/apiextensions/index.js';
import { useTestCluster } from '../../../support/cluster.js';
import { createCauses, expectCause, widgets } from './support.js';

const cluster = useTestCluster({ kinds: apiextensionsKinds });
const v = (name: string, storage: boolean, schema: object = { type: 'object' }) => ({ name, served: true, storage, schema: { openAPIV3Schema: schema } });

describe('CustomResourceDefinition versions', () => {
  it('needs exactly one storage version, printing the internal versions as Kubernetes does', async () => {
    const crd = widgets();
    crd.spec.versions[0]!.storage = false;
    await expectCause(
      cluster,
      crd,
      'FieldValueInvalid',
      'spec.versions',
      'Invalid value: [{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version',
    );
  });

  it('needs unique version names', async () => {
    const crd = widgets();
    crd.spec.versions = [v('v1', true), v('v1', false)];
    const causes = await createCauses(cluster, crd);
    expect(causes.find((c) => c.field === 'spec.versions')?.message).toMatch(/: must contain unique version names$/);
  });

  it('needs DNS-1035 version names (also reported as spec.version, the first one)', async () => {
    const crd = widgets();
    crd.spec.versions[0]!.name = 'V1';
    const causes = await createCauses(cluster, crd);
    const fields = causes.map((c) => c.field);
    expect(fields).toContain('spec.versions[0].name');
    expect(fields).toContain('spec.version');
  });

  it('requires a schema for every version', async () => {
    const crd = widgets();
    delete crd.spec.versions[0]!.schema;
    await expectCause(cluster, crd, 'FieldValueRequired', 'spec.versions[0].schema.openAPIV3Schema', 'Required value');
  });

  it('reports schema errors under spec.validation when all versions share the schema', async () => {
    const crd = widgets({ type: 'string' });
    crd.spec.versions = [v('v1', true, { type: 'string' }), v('v2', false, { type: 'string' })];
    await expectCause(cluster, crd, 'FieldValueInvalid', 'spec.validation.openAPIV3Schema.type', 'Invalid value: "string": must be object at the root');
  });

  it('reports schema errors under spec.versions[i].schema when the versions differ', async () => {
    const crd = widgets();
    crd.spec.versions = [v('v1', true, { type: 'string' }), v('v2', false)];
    await expectCause(cluster, crd, 'FieldValueInvalid', 'spec.versions[0].schema.openAPIV3Schema.type', 'Invalid value: "string": must be object at the root');
  });

  it('allows a deprecation warning only on deprecated versions, of at most 256 bytes', async () => {
    const crd = widgets();
    crd.spec.versions[0]!.deprecationWarning = 'old';
    await expectCause(
      cluster,
      crd,
      'FieldValueInvalid',
      'spec.versions[0].deprecationWarning',
      'Invalid value: "old": can only be set for deprecated versions',
    );
    crd.spec.versions[0]!.deprecated = true;
    crd.spec.versions[0]!.deprecationWarning = 'x'.repeat(257);
    const causes = await createCauses(cluster, crd);
    expect(causes[0]!.message).toMatch(/: must be <= 256 characters long$/);
    crd.spec.versions[0]!.deprecationWarning = 'a\tb';
    await expectCause(
      cluster,
      crd,
      'FieldValueInvalid',
      'spec.versions[0].deprecationWarning',
      'Invalid value: "a\\tb": must only contain printable UTF-8 characters; non-printable character found at index 1',
    );
  });

  it('validates printer columns (JSONPath spelled as the internal type)', async () => {
    const crd = widgets();
    crd.spec.versions[0]!.additionalPrinterColumns = [{ name: '', type: 'text', format: 'ip', jsonPath: 'spec.x' }];
    const causes = await createCauses(cluster, crd);
    expect(causes).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.additionalPrinterColumns[0].name', message: 'Required value' },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.additionalPrinterColumns[0].type',
        message: 'Invalid value: "text": must be one of boolean,date,integer,number,string',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.additionalPrinterColumns[0].format',
        message: 'Invalid value: "ip": must be one of byte,date,date-time,double,float,int32,int64,password',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.additionalPrinterColumns[0].JSONPath',
        message: 'Invalid value: "spec.x": must be a simple json path starting with .',
      },
    ]);
  });

  it('validates the scale subresource paths', async () => {
    const crd = widgets();
    crd.spec.versions[0]!.subresources = { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: '', labelSelectorPath: '.metadata.labels' } };
    const causes = await createCauses(cluster, crd);
    expect(causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.subresources.scale.specReplicasPath',
        message: 'Invalid value: ".status.replicas": should be a json path under .spec',
      },
      { reason: 'FieldValueRequired', field: 'spec.subresources.scale.statusReplicasPath', message: 'Required value' },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.subresources.scale.labelSelectorPath',
        message: 'Invalid value: ".metadata.labels": should be a json path under either .spec or .status',
      },
    ]);
  });

  it('validates selectable fields against the schema', async () => {
    const crd = widgets({
      type: 'object',
      properties: { spec: { type: 'object', properties: { color: { type: 'string' }, sizes: { type: 'array', items: { type: 'integer' } } } } },
    });
    crd.spec.versions[0]!.selectableFields = [
      { jsonPath: '.spec.color' },
      { jsonPath: '.spec.sizes' },
      { jsonPath: '.spec.nope' },
      { jsonPath: '.spec.color' },
      { jsonPath: '.metadata.name' },
    ];
    const causes = await createCauses(cluster, crd);
    expect(causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.selectableFields[1].jsonPath',
        message:
          'Invalid value: ".spec.sizes": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.selectableFields[2].jsonPath',
        message: 'Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field',
      },
      { reason: 'FieldValueDuplicate', field: 'spec.selectableFields[3].jsonPath', message: 'Duplicate value: ".spec.color"' },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.selectableFields[4].jsonPath',
        message: 'Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field',
      },
    ]);
  });

  it('allows at most 8 selectable fields', async () => {
    const props = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`f${i}`, { type: 'string' }]));
    const crd = widgets({ type: 'object', properties: { spec: { type: 'object', properties: props } } });
    crd.spec.versions[0]!.selectableFields = Object.keys(props).map((k) => ({ jsonPath: `.spec.${k}` }));
    await expectCause(cluster, crd, 'FieldValueTooMany', 'spec.selectableFields', 'Too many: 9: must have at most 8 items');
  });
});
