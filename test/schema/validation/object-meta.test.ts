import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { aggregateMessage, fieldErrorMessage, type FieldError } from '../../../src/machinery/field-errors.js';
import { nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain, validatePathSegmentName } from '../../../src/schema/validation/names.js';
import {
  validateLabels,
  validateObjectMeta,
  validateObjectMetaUpdate,
  validateObjectMetaUpdateOnly,
  type ObjectMetaValidationOptions,
} from '../../../src/schema/validation/object-meta.js';

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const namespaced: ObjectMetaValidationOptions = { namespaced: true, nameValidator: nameIsDNSSubdomain };
const clusterScoped: ObjectMetaValidationOptions = { namespaced: false, nameValidator: nameIsDNSSubdomain };
const LIMIT = 262144;
const MB = 1 << 20;

const messages = (errs: readonly FieldError[]) => errs.map(fieldErrorMessage);
const create = (meta: object, options: ObjectMetaValidationOptions = namespaced) => messages(validateObjectMeta(meta, options));

describe('validateObjectMeta: name and generateName', () => {
  it('accepts a minimal object', () => {
    expect(create({ name: 'a', namespace: 'default' })).toEqual([]);
    expect(create({ name: 'node-1.example.com' }, clusterScoped)).toEqual([]);
  });

  it('requires name or generateName', () => {
    expect(aggregateMessage(validateObjectMeta({ namespace: 'default' }, namespaced))).toBe('metadata.name: Required value: name or generateName is required');
    expect(create({ name: '', namespace: 'default' })).toEqual(['metadata.name: Required value: name or generateName is required']);
  });

  it('expects the name to have been generated from generateName', () => {
    expect(create({ generateName: 'web-', namespace: 'default' })).toEqual(['metadata.name: Required value: name or generateName is required']);
    expect(create({ generateName: 'web-', name: 'web-x7k2p', namespace: 'default' })).toEqual([]);
  });

  it('validates generateName as a prefix and name as a name', () => {
    expect(aggregateMessage(validateObjectMeta({ generateName: 'Web-', name: 'Web-x7k2p', namespace: 'default' }, namespaced))).toBe(
      `[metadata.generateName: Invalid value: "Web-": ${SUBDOMAIN}, metadata.name: Invalid value: "Web-x7k2p": ${SUBDOMAIN}]`,
    );
  });

  it('uses the kind name rule', () => {
    const service = { namespaced: true, nameValidator: nameIsDNS1035Label };
    expect(create({ name: '1web', namespace: 'default' }, service)).toEqual([`metadata.name: Invalid value: "1web": ${DNS1035}`]);
    const namespace = { namespaced: false, nameValidator: nameIsDNSLabel };
    expect(create({ name: 'a.b' }, namespace)).toEqual(['metadata.name: Invalid value: "a.b": must not contain dots']);
    expect(create({ name: 'a'.repeat(64) }, namespace)).toEqual([`metadata.name: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`]);
  });

  it('checks the 253 character limit', () => {
    expect(create({ name: 'a'.repeat(253), namespace: 'default' })).toEqual([]);
    expect(create({ name: 'a'.repeat(254), namespace: 'default' })).toEqual([
      `metadata.name: Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters`,
    ]);
  });

  it('with the path-segment rule accepts anything but ., .., / and %', () => {
    const crd = { namespaced: true, nameValidator: validatePathSegmentName };
    expect(create({ name: 'Hello World', namespace: 'default' }, crd)).toEqual([]);
    expect(create({ name: '..', namespace: 'default' }, crd)).toEqual([`metadata.name: Invalid value: "..": may not be '..'`]);
    expect(create({ name: 'a/%b', namespace: 'default' }, crd)).toEqual([
      `metadata.name: Invalid value: "a/%b": may not contain '/'`,
      `metadata.name: Invalid value: "a/%b": may not contain '%'`,
    ]);
  });
});

describe('validateObjectMeta: namespace', () => {
  it('is required for namespaced kinds', () => {
    expect(create({ name: 'a' })).toEqual(['metadata.namespace: Required value']);
  });
  it('must be a DNS label', () => {
    expect(create({ name: 'a', namespace: 'Default' })).toEqual([`metadata.namespace: Invalid value: "Default": ${LABEL}`]);
    expect(create({ name: 'a', namespace: 'a.b' })).toEqual(['metadata.namespace: Invalid value: "a.b": must not contain dots']);
  });
  it('is forbidden on cluster-scoped kinds', () => {
    expect(create({ name: 'a', namespace: 'default' }, clusterScoped)).toEqual(['metadata.namespace: Forbidden: not allowed on this type']);
  });
});

describe('validateObjectMeta: generation', () => {
  it('may not be negative', () => {
    expect(create({ name: 'a', namespace: 'd', generation: -1 })).toEqual(['metadata.generation: Invalid value: -1: must be greater than or equal to 0']);
    expect(create({ name: 'a', namespace: 'd', generation: 0 })).toEqual([]);
  });
});

describe('validateObjectMeta: labels', () => {
  it('accepts valid labels', () => {
    expect(create({ name: 'a', namespace: 'd', labels: { app: 'web', 'app.kubernetes.io/name': 'My_App-1.0', empty: '' } })).toEqual([]);
  });
  it('reports keys and values at metadata.labels', () => {
    expect(create({ name: 'a', namespace: 'd', labels: { '-bad': 'ok', good: '-bad' } })).toEqual([
      `metadata.labels: Invalid value: "-bad": ${NAME_PART}`,
      `metadata.labels: Invalid value: "-bad": ${LABEL_VALUE}`,
    ]);
    expect(create({ name: 'a', namespace: 'd', labels: { 'Example.com/a': 'x' } })).toEqual([
      `metadata.labels: Invalid value: "Example.com/a": prefix part ${SUBDOMAIN}`,
    ]);
    expect(create({ name: 'a', namespace: 'd', labels: { '': 'x' } })).toEqual([
      'metadata.labels: Invalid value: "": name part must be non-empty',
      `metadata.labels: Invalid value: "": ${NAME_PART}`,
    ]);
  });
  it('limits values to 63 bytes', () => {
    expect(create({ name: 'a', namespace: 'd', labels: { a: 'v'.repeat(63) } })).toEqual([]);
    expect(create({ name: 'a', namespace: 'd', labels: { a: 'v'.repeat(64) } })).toEqual([
      `metadata.labels: Invalid value: "${'v'.repeat(64)}": must be no more than 63 bytes`,
    ]);
  });
});

describe('validateObjectMeta: annotations', () => {
  it('checks keys case-insensitively but shows them as given', () => {
    expect(create({ name: 'a', namespace: 'd', annotations: { 'Example.COM/Some-Key': 'anything at all: {"json": true}' } })).toEqual([]);
    expect(create({ name: 'a', namespace: 'd', annotations: { 'a b': '' } })).toEqual([`metadata.annotations: Invalid value: "a b": ${NAME_PART}`]);
    expect(create({ name: 'a', namespace: 'd', annotations: { 'Bad_/x': '' } })).toEqual([
      `metadata.annotations: Invalid value: "Bad_/x": prefix part ${SUBDOMAIN}`,
    ]);
  });
  it('lower-cases like Go (İ becomes i, the Kelvin sign becomes k)', () => {
    expect(create({ name: 'a', namespace: 'd', annotations: { İ: '', '\u212a': '' } })).toEqual([]);
    expect(create({ name: 'a', namespace: 'd', labels: { İ: '' } })).toEqual([`metadata.labels: Invalid value: "İ": ${NAME_PART}`]);
  });
  it('limits the total size to 256 KiB of keys and values', () => {
    const fits = { a: 'x'.repeat(LIMIT - 2), b: '' };
    expect(create({ name: 'a', namespace: 'd', annotations: fits })).toEqual([]);
    const over = { a: 'x'.repeat(LIMIT - 1), b: '' };
    expect(aggregateMessage(validateObjectMeta({ name: 'a', namespace: 'd', annotations: over }, namespaced))).toBe(
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    );
  });
  it('counts the size in UTF-8 bytes', () => {
    expect(create({ name: 'a', namespace: 'd', annotations: { a: 'é'.repeat(LIMIT / 2 - 1) } })).toEqual([]);
    expect(create({ name: 'a', namespace: 'd', annotations: { a: 'é'.repeat(LIMIT / 2) } })).toEqual([
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    ]);
  });
});

describe('validateObjectMeta: ownerReferences', () => {
  const ref = (over: object = {}) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: '123', ...over });

  it('accepts complete references', () => {
    expect(create({ name: 'a', namespace: 'd', ownerReferences: [ref(), ref({ uid: '456', controller: true })] })).toEqual([]);
  });
  it('requires apiVersion with a version, kind, name and uid (no index in the path)', () => {
    expect(create({ name: 'a', namespace: 'd', ownerReferences: [{}] })).toEqual([
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    ]);
    expect(create({ name: 'a', namespace: 'd', ownerReferences: [ref({ apiVersion: 'apps/' })] })).toEqual([
      'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
    ]);
    expect(create({ name: 'a', namespace: 'd', ownerReferences: [ref({ apiVersion: 'a/b/c' })] })).toEqual([
      'metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty',
    ]);
  });
  it('does not allow an Event to be an owner', () => {
    expect(create({ name: 'a', namespace: 'd', ownerReferences: [{ uid: 'u', name: 'e', kind: 'Event', apiVersion: 'v1' }] })).toEqual([
      'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner',
    ]);
    expect(create({ name: 'a', namespace: 'd', ownerReferences: [ref({ apiVersion: 'events.k8s.io/v1', kind: 'Event' })] })).toEqual([]);
  });
  it('allows only one controller', () => {
    const refs = [
      ref({ controller: true, blockOwnerDeletion: true }),
      { controller: true, uid: '2', name: 'b', kind: 'StatefulSet', apiVersion: 'apps/v1', extra: 'dropped' },
      ref({ uid: '3', name: 'c', controller: true }),
    ];
    const list =
      '[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"123","controller":true,"blockOwnerDeletion":true},' +
      '{"apiVersion":"apps/v1","kind":"StatefulSet","name":"b","uid":"2","controller":true},' +
      '{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"c","uid":"3","controller":true}]';
    expect(create({ name: 'a', namespace: 'd', ownerReferences: refs })).toEqual([
      `metadata.ownerReferences: Invalid value: ${list}: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/rs and StatefulSet/b`,
      `metadata.ownerReferences: Invalid value: ${list}: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/rs and ReplicaSet/c`,
    ]);
    expect(create({ name: 'a', namespace: 'd', ownerReferences: [ref({ controller: false }), ref({ uid: '2', controller: true })] })).toEqual([]);
  });
});

describe('validateObjectMeta: finalizers', () => {
  it('accepts standard and domain-qualified finalizers', () => {
    expect(create({ name: 'a', namespace: 'd', finalizers: ['kubernetes', 'orphan', 'example.com/cleanup'] })).toEqual([]);
    expect(create({ name: 'a', namespace: 'd', finalizers: ['foregroundDeletion', 'foregroundDeletion'] })).toEqual([]);
  });
  it('rejects a non-standard name without a prefix on built-in kinds only', () => {
    expect(create({ name: 'a', namespace: 'd', finalizers: ['example.com/x', 'cleanup'] })).toEqual([
      'metadata.finalizers[1]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
    ]);
    expect(create({ name: 'a', namespace: 'd', finalizers: ['cleanup'] }, { ...namespaced, standardFinalizerNames: false })).toEqual([]);
  });
  it('requires qualified names', () => {
    expect(create({ name: 'a', namespace: 'd', finalizers: ['a b'] })).toEqual([
      `metadata.finalizers: Invalid value: "a b": ${NAME_PART}`,
      'metadata.finalizers[0]: Invalid value: "a b": name is neither a standard finalizer name nor is it fully qualified',
    ]);
    expect(create({ name: 'a', namespace: 'd', finalizers: ['Example.com/x'] })).toEqual([
      `metadata.finalizers: Invalid value: "Example.com/x": prefix part ${SUBDOMAIN}`,
    ]);
  });
  it('rejects orphan together with foregroundDeletion', () => {
    expect(create({ name: 'a', namespace: 'd', finalizers: ['orphan', 'example.com/x', 'foregroundDeletion'] })).toEqual([
      'metadata.finalizers: Invalid value: ["orphan","example.com/x","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
  });
});

describe('validateObjectMeta: path and order', () => {
  it('uses the given path prefix', () => {
    expect(create({ labels: { a: '-' }, finalizers: ['x'] }, { namespaced: false, nameValidator: nameIsDNSSubdomain, path: 'spec.template.metadata' })).toEqual(
      [
        'spec.template.metadata.name: Required value: name or generateName is required',
        `spec.template.metadata.labels: Invalid value: "-": ${LABEL_VALUE}`,
        'spec.template.metadata.finalizers[0]: Invalid value: "x": name is neither a standard finalizer name nor is it fully qualified',
      ],
    );
  });
  it('reports in Kubernetes order', () => {
    const all = validateObjectMeta(
      {
        generateName: 'GG-',
        name: 'N',
        namespace: 'NS',
        generation: -5,
        labels: { k: '_' },
        annotations: { _: '' },
        ownerReferences: [{}],
        finalizers: ['f'],
      },
      namespaced,
    );
    expect(all.map((e) => e.field)).toEqual([
      'metadata.generateName',
      'metadata.name',
      'metadata.namespace',
      'metadata.generation',
      'metadata.labels',
      'metadata.annotations',
      'metadata.ownerReferences.apiVersion',
      'metadata.ownerReferences.kind',
      'metadata.ownerReferences.name',
      'metadata.ownerReferences.uid',
      'metadata.finalizers[0]',
    ]);
  });
});

describe('validateObjectMetaUpdate', () => {
  const old = {
    name: 'a',
    namespace: 'd',
    uid: 'u-1',
    resourceVersion: '5',
    generation: 2,
    creationTimestamp: '2024-01-01T00:00:00Z',
  };
  const update = (newMeta: object, oldMeta: object = old, options: ObjectMetaValidationOptions = namespaced) =>
    messages(validateObjectMetaUpdate(newMeta, oldMeta, options));

  it('accepts an unchanged object', () => {
    expect(update({ ...old })).toEqual([]);
    expect(update({ ...old, labels: { a: 'b' }, generation: 3 })).toEqual([]);
  });
  it('keeps name, namespace and uid immutable', () => {
    expect(update({ ...old, name: 'b' })).toEqual(['metadata.name: Invalid value: "b": field is immutable']);
    expect(update({ ...old, namespace: 'e' })).toEqual(['metadata.namespace: Invalid value: "e": field is immutable']);
    expect(update({ ...old, uid: 'u-2' })).toEqual(['metadata.uid: Invalid value: "u-2": field is immutable']);
    expect(update({ ...old, uid: undefined })).toEqual(['metadata.uid: Invalid value: "": field is immutable']);
  });
  it('keeps timestamps immutable, comparing instants', () => {
    expect(update({ ...old, creationTimestamp: '2024-01-01T01:00:00+01:00' })).toEqual([]);
    expect(update({ ...old, creationTimestamp: '2024-01-02T03:04:05+02:00' })).toEqual([
      'metadata.creationTimestamp: Invalid value: "2024-01-02T01:04:05Z": field is immutable',
    ]);
    expect(update({ ...old, creationTimestamp: undefined })).toEqual(['metadata.creationTimestamp: Invalid value: null: field is immutable']);
  });
  it('does not let an update set or remove deletionTimestamp or deletionGracePeriodSeconds', () => {
    expect(update({ ...old, deletionTimestamp: '2024-05-01T00:00:00Z' })).toEqual([
      'metadata.deletionTimestamp: Invalid value: "2024-05-01T00:00:00Z": field is immutable',
    ]);
    const deleting = { ...old, deletionTimestamp: '2024-05-01T00:00:00Z', deletionGracePeriodSeconds: 30 };
    expect(update({ ...old }, deleting)).toEqual([
      'metadata.deletionTimestamp: Invalid value: null: field is immutable',
      'metadata.deletionGracePeriodSeconds: Invalid value: null: field is immutable',
    ]);
    expect(update({ ...old, deletionGracePeriodSeconds: 0 })).toEqual(['metadata.deletionGracePeriodSeconds: Invalid value: 0: field is immutable']);
    expect(update({ ...deleting }, deleting)).toEqual([]);
  });
  it('requires a resourceVersion', () => {
    expect(update({ ...old, resourceVersion: undefined })).toEqual(['metadata.resourceVersion: Invalid value: "": must be specified for an update']);
  });
  it('does not let generation go down', () => {
    expect(update({ ...old, generation: 1 })).toEqual(['metadata.generation: Invalid value: 1: must not be decremented']);
    expect(update({ ...old, generation: -1 })).toEqual([
      'metadata.generation: Invalid value: -1: must be greater than or equal to 0',
      'metadata.generation: Invalid value: -1: must not be decremented',
    ]);
  });
  it('forbids new finalizers while the object is being deleted', () => {
    const deleting = { ...old, deletionTimestamp: '2024-05-01T00:00:00Z', finalizers: ['example.com/a'] };
    expect(update({ ...deleting, finalizers: ['example.com/a'] }, deleting)).toEqual([]);
    expect(update({ ...deleting, finalizers: [] }, deleting)).toEqual([]);
    expect(update({ ...deleting, finalizers: ['z.io/b', 'example.com/a', 'b.io/"q"'] }, deleting)).toEqual([
      `metadata.finalizers: Invalid value: "b.io/\\"q\\"": ${NAME_PART}`,
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b.io/\\"q\\"", "z.io/b"}',
    ]);
    expect(update({ ...old, finalizers: ['example.com/new'] })).toEqual([]);
  });
  it('revalidates labels, annotations, owner references and finalizers once each', () => {
    expect(
      update({ ...old, labels: { a: '-' }, annotations: { '-': '' }, ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p' }], finalizers: ['x'] }),
    ).toEqual([
      `metadata.labels: Invalid value: "-": ${LABEL_VALUE}`,
      `metadata.annotations: Invalid value: "-": ${NAME_PART}`,
      'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
      'metadata.finalizers[0]: Invalid value: "x": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });
  it('checks the name only as a path segment, as the generic update path does', () => {
    const legacy = { ...old, name: 'Legacy_Name' };
    expect(update({ ...legacy }, legacy)).toEqual([]);
    const dotted = { ...old, name: '..' };
    expect(update({ ...dotted }, dotted)).toEqual([`metadata.name: Invalid value: "..": may not be '..'`]);
  });
  it('still checks namespace rules', () => {
    expect(update({ ...old }, old, clusterScoped)).toEqual(['metadata.namespace: Forbidden: not allowed on this type']);
  });
  it('validateObjectMetaUpdateOnly uses the given path', () => {
    expect(messages(validateObjectMetaUpdateOnly({ name: 'b', resourceVersion: '1' }, { name: 'a' }, 'spec.template.metadata'))).toEqual([
      'spec.template.metadata.name: Invalid value: "b": field is immutable',
    ]);
  });
});

describe('hostile input', () => {
  it('tolerates missing or malformed metadata without throwing', () => {
    expect(create(null as unknown as object)).toEqual([
      'metadata.name: Required value: name or generateName is required',
      'metadata.namespace: Required value',
    ]);
    expect(create([] as unknown as object, clusterScoped)).toEqual(['metadata.name: Required value: name or generateName is required']);
    expect(
      create({ name: 5, namespace: 'd', labels: ['x'], annotations: 'a', ownerReferences: [null, 3], finalizers: [7, 'example.com/x'], generation: '-1' }),
    ).toEqual([
      'metadata.name: Required value: name or generateName is required',
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    ]);
  });
  it('handles megabyte names, labels and annotations', () => {
    const big = 'a'.repeat(MB);
    const start = Date.now();
    const errs = validateObjectMeta({ name: big, namespace: big, labels: { [big]: big }, annotations: { [big]: '' }, finalizers: [big] }, namespaced);
    expect(errs.map((e) => `${e.field}: ${e.detail}`)).toEqual([
      'metadata.name: must be no more than 253 characters',
      'metadata.namespace: must be no more than 63 characters',
      'metadata.labels: name part must be no more than 63 bytes',
      'metadata.labels: must be no more than 63 bytes',
      'metadata.annotations: name part must be no more than 63 bytes',
      'metadata.annotations: may not be more than 262144 bytes',
      'metadata.finalizers: name part must be no more than 63 bytes',
      'metadata.finalizers[0]: name is neither a standard finalizer name nor is it fully qualified',
    ]);
    expect(Date.now() - start).toBeLessThan(2000);
  });
  it('renders control characters and unicode in values', () => {
    // (The rendering of control characters is field-errors.ts's business: Go would print "a\x00b".)
    expect(validateObjectMeta({ name: 'a\u0000b', namespace: 'd' }, namespaced)).toEqual([
      { type: 'FieldValueInvalid', field: 'metadata.name', badValue: 'a\u0000b', detail: SUBDOMAIN },
    ]);
    expect(create({ name: 'café', namespace: 'd' })).toEqual([`metadata.name: Invalid value: "café": ${SUBDOMAIN}`]);
    expect(create({ name: 'ok', namespace: 'd', labels: { 'a/b/c': '' } })).toHaveLength(1);
  });
  it('does not let prototype-looking keys through', () => {
    const labels = JSON.parse('{"__proto__": "x", "constructor": "-"}') as object;
    expect(create({ name: 'a', namespace: 'd', labels })).toEqual([
      `metadata.labels: Invalid value: "__proto__": ${NAME_PART}`,
      `metadata.labels: Invalid value: "-": ${LABEL_VALUE}`,
    ]);
  });
});

describe('properties', () => {
  const key = fc
    .tuple(
      fc.option(fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,10}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,10}[a-z0-9])?){0,3}$/), { nil: undefined }),
      fc.stringMatching(/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/),
    )
    .map(([p, n]) => (p === undefined ? n : `${p}/${n}`));
  const value = fc.oneof(fc.constant(''), fc.stringMatching(/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/));

  it('valid label maps produce no errors', () => {
    fc.assert(fc.property(fc.dictionary(key, value, { maxKeys: 10 }), (labels) => validateLabels(labels, 'metadata.labels').length === 0));
  });

  it('any metadata value never throws and every error has a field and a detail', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.boolean(), (a, b, ns) => {
        const options = { namespaced: ns, nameValidator: nameIsDNSSubdomain };
        const errs = [...validateObjectMeta(a as object, options), ...validateObjectMetaUpdate(a as object, b as object, options)];
        for (const e of errs) {
          expect(e.field.startsWith('metadata.')).toBe(true);
          expect(typeof fieldErrorMessage(e)).toBe('string');
        }
      }),
    );
  });

  it('metadata with random labels/annotations/finalizers never throws', () => {
    const meta = fc.record(
      {
        name: fc.string(),
        generateName: fc.string(),
        namespace: fc.string(),
        labels: fc.dictionary(fc.string(), fc.string()),
        annotations: fc.dictionary(fc.string(), fc.string()),
        finalizers: fc.array(fc.string()),
        generation: fc.integer(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(meta, meta, (m, o) => {
        validateObjectMeta(m, namespaced);
        validateObjectMetaUpdate(m, o, namespaced);
      }),
    );
  });
});
