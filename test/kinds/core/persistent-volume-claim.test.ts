import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { compareQuantities, formatQuantity, parseQuantity } from '../../../src/schema/quantity.js';
import { PersistentVolumeClaimKind, type PersistentVolumeClaim } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
let warnings: string[] = [];
beforeEach(() => {
  warnings = [];
});

const pvcs = () => cluster.client.withWarnings((w) => warnings.push(...w)).resource(PersistentVolumeClaimKind);
const create = (p: PersistentVolumeClaim) => pvcs().create(p, { namespace: 'default' });
const update = (p: PersistentVolumeClaim) => pvcs().update(p, { namespace: 'default' });
const names = async () => (await pvcs().list({ namespace: 'default' })).items.map((p) => p.metadata?.name);

const claim = (spec: PersistentVolumeClaim['spec'] = {}, name = 'data'): PersistentVolumeClaim => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});

async function rejected(p: PersistentVolumeClaim) {
  const before = await names();
  const s = await statusOf(() => create(p));
  expect(s).toMatchObject({ code: 422, reason: 'Invalid', details: { kind: 'PersistentVolumeClaim' } });
  expect(await names()).toEqual(before);
  return s;
}

const IMMUTABLE = 'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n';

describe('PersistentVolumeClaim defaults', () => {
  it('defaults volumeMode to Filesystem and status to Pending (ignoring a status in the body)', async () => {
    const p = await create({ ...claim(), status: { phase: 'Bound', capacity: { storage: '5Gi' } } });
    const { metadata, ...rest } = p;
    expect(rest).toEqual({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    });
    expect(metadata).toMatchObject({ name: 'data', namespace: 'default' });
  });

  it('stores quantities in canonical form', async () => {
    const cases: [string | number, string][] = [
      ['1024Mi', '1Gi'],
      ['1536Mi', '1536Mi'],
      ['1000M', '1G'],
      ['1500M', '1500M'],
      ['0.5Gi', '512Mi'],
      ['100Gi', '100Gi'],
      ['2e3', '2e3'],
      ['1e6', '1e6'],
      [5, '5'],
      ['1000', '1k'],
      ['512', '512'],
    ];
    for (const [i, [input, canonical]] of cases.entries()) {
      const p = await create(claim({ resources: { requests: { storage: input }, limits: { storage: input } } }, `q${i}`));
      expect([input, p.spec?.resources?.requests?.['storage'], p.spec?.resources?.limits?.['storage']]).toEqual([input, canonical, canonical]);
    }
  });

  it('keeps an explicit Block volume mode and the other spec fields', async () => {
    const p = await create(
      claim({
        volumeMode: 'Block',
        storageClassName: 'fast',
        volumeAttributesClassName: 'gold',
        selector: { matchLabels: { tier: 'db' }, matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
        dataSource: { kind: 'PersistentVolumeClaim', name: 'src' },
      }),
    );
    expect(p.spec).toMatchObject({
      volumeMode: 'Block',
      storageClassName: 'fast',
      volumeAttributesClassName: 'gold',
      dataSource: { kind: 'PersistentVolumeClaim', name: 'src' },
    });
  });
});

describe('PersistentVolumeClaim validation', () => {
  it('requires at least one access mode and a storage request', async () => {
    const s = await rejected({ metadata: { name: 'x' }, spec: {} });
    expect(s.message).toBe(
      'PersistentVolumeClaim "x" is invalid: [spec.accessModes: Required value: at least 1 access mode is required, spec.resources[storage]: Required value]',
    );
    expect(s.details?.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value: at least 1 access mode is required', field: 'spec.accessModes' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.resources[storage]' },
    ]);
    const noSpec = await rejected({ metadata: { name: 'y' } });
    expect(noSpec.details?.causes?.map((c) => c.field)).toEqual(['spec.accessModes', 'spec.resources[storage]']);
  });

  it('rejects unknown access modes and ReadWriteOncePod with others', async () => {
    const s = await rejected(claim({ accessModes: ['ReadWriteOnce', 'WriteOnly'] }, 'x'));
    expect(s.message).toBe(
      'PersistentVolumeClaim "x" is invalid: spec.accessModes: Unsupported value: "WriteOnly": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
    );
    const rwop = await rejected(claim({ accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'] }, 'x'));
    expect(rwop.message).toBe('PersistentVolumeClaim "x" is invalid: spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes');
    await create(claim({ accessModes: ['ReadWriteOncePod'] }, 'rwop'));
  });

  it('requires a storage request greater than zero, shown in canonical form', async () => {
    const zero = await rejected(claim({ resources: { requests: { storage: '0' } } }, 'x'));
    expect(zero.message).toBe('PersistentVolumeClaim "x" is invalid: spec.resources[storage]: Invalid value: "0": must be greater than zero');
    const negative = await rejected(claim({ resources: { requests: { storage: '-1024Mi' } } }, 'x'));
    expect(negative.message).toBe('PersistentVolumeClaim "x" is invalid: spec.resources[storage]: Invalid value: "-1Gi": must be greater than zero');
    const onlyLimit = await rejected(claim({ resources: { limits: { storage: '1Gi' } } }, 'x'));
    expect(onlyLimit.message).toBe('PersistentVolumeClaim "x" is invalid: spec.resources[storage]: Required value');
  });

  it('answers 400 for a storage request that is not a quantity', async () => {
    const s = await statusOf(() => create(claim({ resources: { requests: { storage: '1 Gi!' } } }, 'x')));
    expect(s).toMatchObject({ code: 400, reason: 'BadRequest' });
    expect(await names()).toEqual([]);
  });

  it('checks storageClassName, volumeMode and volumeAttributesClassName', async () => {
    const s = await rejected(claim({ storageClassName: 'Fast!', volumeMode: 'Raw', volumeAttributesClassName: 'UP' }, 'x'));
    expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual([
      [
        'spec.storageClassName',
        "Invalid value: \"Fast!\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
      ['spec.volumeMode', 'Unsupported value: "Raw": supported values: "Block", "Filesystem"'],
      [
        'spec.volumeAttributesClassName',
        "Invalid value: \"UP\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ]);
    // An empty class name means "no class" and is fine.
    await create(claim({ storageClassName: '' }, 'noclass'));
  });

  it('checks data sources', async () => {
    const s = await rejected(claim({ dataSource: { kind: 'VolumeSnapshot', name: '' } }, 'x'));
    expect(s.message).toBe(
      'PersistentVolumeClaim "x" is invalid: [spec.dataSource.name: Required value, spec.dataSource: Invalid value: "VolumeSnapshot": must be \'PersistentVolumeClaim\' when referencing the default apiGroup]',
    );
    const group = await rejected(claim({ dataSourceRef: { apiGroup: 'Snap_Shots', kind: 'VolumeSnapshot', name: 's' } }, 'x'));
    expect(group.details?.causes?.map((c) => c.field)).toEqual(['spec.dataSourceRef.apiGroup']);
    const mismatch = await rejected(
      claim({ dataSource: { kind: 'PersistentVolumeClaim', name: 'a' }, dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'b' } }, 'x'),
    );
    expect(mismatch.message).toBe('PersistentVolumeClaim "x" is invalid: spec: Invalid value: {}: must match dataSourceRef');
    const crossNs = await rejected(
      claim({ dataSource: { kind: 'PersistentVolumeClaim', name: 'a' }, dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'a', namespace: 'other' } }, 'x'),
    );
    expect(crossNs.message).toBe(
      'PersistentVolumeClaim "x" is invalid: spec: Invalid value: {}: may not be specified when dataSourceRef.namespace is specified',
    );
    await create(
      claim(
        {
          dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 's' },
          dataSourceRef: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 's' },
        },
        'snap',
      ),
    );
  });

  it('checks the label selector', async () => {
    const s = await rejected(
      claim(
        {
          selector: {
            matchLabels: { 'bad key!': 'v' },
            matchExpressions: [
              { key: 'k', operator: 'In' },
              { key: 'k', operator: 'Exists', values: ['x'] },
              { key: 'k', operator: 'Near' },
            ],
          },
        },
        'x',
      ),
    );
    expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual([
      [
        'spec.selector.matchLabels',
        "Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
      ['spec.selector.matchExpressions[0].values', "Required value: must be specified when `operator` is 'In' or 'NotIn'"],
      ['spec.selector.matchExpressions[1].values', "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
      ['spec.selector.matchExpressions[2].operator', 'Invalid value: "Near": not a valid selector operator'],
    ]);
  });
});

describe('PersistentVolumeClaim warnings', () => {
  it('warns about the beta storage class annotation and fractional byte sizes', async () => {
    await create({
      ...claim({ resources: { requests: { storage: '1.5' }, limits: { storage: '2500m' } } }),
      metadata: { name: 'w', annotations: { 'volume.beta.kubernetes.io/storage-class': 'fast' } },
    });
    expect(warnings).toEqual([
      'metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead',
      'spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
      'spec.resources.limits[storage]: fractional byte value "2500m" is invalid, must be an integer',
    ]);
  });
});

describe('PersistentVolumeClaim updates', () => {
  it('forbids spec changes of a pending claim, also of the storage request, and keeps the stored claim', async () => {
    const p = await create(claim());
    for (const spec of [
      { ...p.spec, accessModes: ['ReadWriteMany'] },
      { ...p.spec, resources: { requests: { storage: '2Gi' } } },
      { ...p.spec, volumeAttributesClassName: 'gold' },
    ]) {
      const s = await statusOf(() => update({ ...p, spec }));
      expect(s.code).toBe(422);
      expect(s.message!.startsWith(`PersistentVolumeClaim "data" is invalid: ${IMMUTABLE}  core.PersistentVolumeClaimSpec{\n`)).toBe(true);
      expect(s.details?.causes).toEqual([expect.objectContaining({ reason: 'FieldValueForbidden', field: 'spec' })]);
    }
    expect(await pvcs().get('data', { namespace: 'default' })).toEqual(p);
  });

  it('compares the spec semantically: empty lists and maps are absent, an empty selector is not', async () => {
    const p = await create(claim());
    const same = await update({ ...p, spec: { ...p.spec, resources: { ...p.spec!.resources, limits: {} } } });
    expect(same.spec?.resources?.requests).toEqual(p.spec!.resources!.requests);
    const s = await statusOf(() => update({ ...same, spec: { ...same.spec, selector: {} } }));
    expect(s.code).toBe(422);
    expect(s.message).toBe(
      `PersistentVolumeClaim "data" is invalid: ${IMMUTABLE}  core.PersistentVolumeClaimSpec{\n+ \tSelector: {},\n  \t... // 8 identical fields\n  }`,
    );
  });

  it('shows what changed in the message, go-cmp style', async () => {
    const p = await create(claim());
    const s = await statusOf(() => update({ ...p, spec: { ...p.spec, accessModes: ['ReadWriteMany'] } }));
    expect(s.message).toBe(
      `PersistentVolumeClaim "data" is invalid: ${IMMUTABLE}  core.PersistentVolumeClaimSpec{\n- \tAccessModes: ["ReadWriteOnce"],\n+ \tAccessModes: ["ReadWriteMany"],\n  \t... // 8 identical fields\n  }`,
    );
  });

  it('lets metadata change, volumeName be set once and a missing class be set', async () => {
    const p = await create(claim());
    const labelled = await update({ ...p, metadata: { ...p.metadata, labels: { a: 'b' } } });
    expect(labelled.metadata?.labels).toEqual({ a: 'b' });
    const bound = await update({ ...labelled, spec: { ...labelled.spec, volumeName: 'pv-1', storageClassName: 'standard' } });
    expect(bound.spec).toMatchObject({ volumeName: 'pv-1', storageClassName: 'standard' });
    const again = await statusOf(() => update({ ...bound, spec: { ...bound.spec, volumeName: 'pv-2' } }));
    expect(again.message!.startsWith(`PersistentVolumeClaim "data" is invalid: ${IMMUTABLE}`)).toBe(true);
    const reclass = await statusOf(() => update({ ...bound, spec: { ...bound.spec, storageClassName: 'fast' } }));
    expect(reclass.code).toBe(422);
  });

  it('lets a bound claim grow, and shrink only down to above its capacity', async () => {
    const p = await create(claim({ resources: { requests: { storage: '10Gi' } } }));
    const bound = await pvcs().updateStatus({ ...p, status: { phase: 'Bound', capacity: { storage: '5Gi' } } }, { namespace: 'default' });
    expect(bound.status).toEqual({ phase: 'Bound', capacity: { storage: '5Gi' } });
    const grown = await update({ ...bound, spec: { ...bound.spec, resources: { requests: { storage: '20Gi' } } } });
    expect(grown.spec?.resources?.requests).toEqual({ storage: '20Gi' });
    const shrunk = await update({ ...grown, spec: { ...grown.spec, resources: { requests: { storage: '6Gi' } } } });
    expect(shrunk.spec?.resources?.requests).toEqual({ storage: '6Gi' });
    const tooSmall = await statusOf(() => update({ ...shrunk, spec: { ...shrunk.spec, resources: { requests: { storage: '5Gi' } } } }));
    expect(tooSmall.message).toBe(
      'PersistentVolumeClaim "data" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
    );
    const vac = await update({ ...shrunk, spec: { ...shrunk.spec, volumeAttributesClassName: 'gold' } });
    expect(vac.spec?.volumeAttributesClassName).toBe('gold');
    const unset = await statusOf(() => update({ ...vac, spec: { ...vac.spec, volumeAttributesClassName: '' } }));
    expect(unset.message).toBe(
      'PersistentVolumeClaim "data" is invalid: spec.volumeAttributesClassName: Forbidden: update from non-nil value to an empty string is forbidden',
    );
  });

  it('reports a volumeMode change at the odd path volumeMode', async () => {
    const p = await create(claim());
    const s = await statusOf(() => update({ ...p, spec: { ...p.spec, volumeMode: 'Block' } }));
    expect(s.details?.causes?.map((c) => [c.field, c.message?.split('\n')[0]])).toEqual([
      ['spec', 'Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'],
      ['volumeMode', 'Invalid value: "Block": field is immutable'],
    ]);
  });

  it('keeps status on a main-resource PUT and answers a delete with the claim', async () => {
    const p = await create(claim());
    const same = await update({ ...p, status: { phase: 'Lost' } });
    expect(same.status).toEqual({ phase: 'Pending' });
    const deleted = await pvcs().delete('data', { namespace: 'default' });
    expect(deleted).toMatchObject({ kind: 'PersistentVolumeClaim', metadata: { name: 'data' } });
  });
});

describe('quantity canonical form', () => {
  it('keeps the value and is stable when formatted again', () => {
    const suffix = fc.constantFrom('', 'm', 'k', 'M', 'G', 'T', 'Ki', 'Mi', 'Gi', 'Ti', 'e3', 'e-3', 'E');
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.nat(4), suffix, (digits, decimals, sfx) => {
        const text = digits.toString();
        const withPoint = decimals && text.length > decimals ? `${text.slice(0, -decimals)}.${text.slice(-decimals)}` : text;
        const q = parseQuantity(`${withPoint}${sfx}`)!;
        const canonical = formatQuantity(q);
        const again = parseQuantity(canonical)!;
        expect(compareQuantities(again, q)).toBe(0);
        // A binary quantity that is no whole number of Ki prints without a suffix, which reads back
        // as a decimal one ("5365573947187.5Ki" → "5494347721920000" → "5494347721920k", as Go's
        // CanonicalizeBytes does); from then on the form is stable.
        const twice = formatQuantity(again);
        expect(formatQuantity(parseQuantity(twice)!)).toBe(twice);
        if (!/[KMGTPE]i$/.test(sfx) || /[a-zA-Z]$/.test(canonical)) expect(twice).toBe(canonical);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads a binary quantity that is no whole number of Ki back as decimal, as Go does', () => {
    const canonical = formatQuantity(parseQuantity('5365573947187.5Ki')!);
    expect(canonical).toBe('5494347721920000');
    expect(formatQuantity(parseQuantity(canonical)!)).toBe('5494347721920k');
  });
});
