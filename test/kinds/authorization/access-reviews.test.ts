import { describe, expect, it } from 'vitest';
import {
  authorizationKinds,
  LocalSubjectAccessReviewKind,
  SelfSubjectAccessReviewKind,
  SelfSubjectRulesReviewKind,
  SubjectAccessReviewKind,
} from '../../../src/kinds/authorization/index.js';
import { reviewAttributes } from '../../../src/kinds/authorization/access-review-rules.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: authorizationKinds });
const get = { verb: 'get', resource: 'pods', namespace: 'default' };

describe('access reviews (memkube authorizes everything)', () => {
  it('SelfSubjectAccessReview answers allowed and echoes the spec', async () => {
    const r = await cluster.client.resource(SelfSubjectAccessReviewKind).create({ spec: { resourceAttributes: get } });
    expect(r.spec).toEqual({ resourceAttributes: get });
    expect(r.status).toEqual({ allowed: true });
  });

  it('SubjectAccessReview needs a user or a group and exactly one kind of attributes', async () => {
    const status = await statusOf(() => cluster.client.resource(SubjectAccessReviewKind).create({ spec: {} }));
    expect(status.code).toBe(422);
    expect(status.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.resourceAttributes',
        message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      },
      { reason: 'FieldValueInvalid', field: 'spec.user', message: 'Invalid value: "": at least one of user or group must be specified' },
    ]);
    const both = await statusOf(() =>
      cluster.client
        .resource(SubjectAccessReviewKind)
        .create({ spec: { user: 'bob', resourceAttributes: get, nonResourceAttributes: { path: '/x', verb: 'get' } } }),
    );
    expect(both.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      expect.stringMatching(/^spec\.nonResourceAttributes: Invalid value: .*: cannot be specified in combination with resourceAttributes$/),
    ]);
    const ok = await cluster.client
      .resource(SubjectAccessReviewKind)
      .create({ spec: { groups: ['dev'], nonResourceAttributes: { path: '/healthz', verb: 'get' } } });
    expect(ok.status).toEqual({ allowed: true });
  });

  it('a review with metadata is refused: its metadata must be empty', async () => {
    const status = await statusOf(() =>
      cluster.client.resource(SelfSubjectAccessReviewKind).create({ metadata: { name: 'x' }, spec: { resourceAttributes: get } }),
    );
    expect(status.code).toBe(422);
    expect(status.details?.causes?.[0]).toMatchObject({ field: 'metadata', message: expect.stringMatching(/: must be empty$/) });
  });

  it('names no object in its Invalid error, whatever the metadata says', async () => {
    const status = await statusOf(() =>
      cluster.client.resource(SubjectAccessReviewKind).create({ metadata: { name: 'x' }, spec: { user: 'bob', resourceAttributes: get } }),
    );
    expect(status.message).toMatch(/^SubjectAccessReview\.authorization\.k8s\.io "" is invalid: metadata: Invalid value: .*: must be empty$/);
    expect(status.details?.name).toBe('');
  });

  it('checks the field and label selectors asked about: raw text or requirements, exactly one, and each requirement', async () => {
    const ssar = cluster.client.resource(SelfSubjectAccessReviewKind);
    const neither = await statusOf(() => ssar.create({ spec: { resourceAttributes: { ...get, verb: 'list', fieldSelector: {}, labelSelector: {} } } }));
    expect(neither.code).toBe(422);
    expect(neither.details?.causes).toEqual([
      {
        reason: 'FieldValueRequired',
        field: 'spec.resourceAttributes.fieldSelector.requirements',
        message: 'Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required',
      },
      {
        reason: 'FieldValueRequired',
        field: 'spec.resourceAttributes.labelSelector.requirements',
        message: 'Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required',
      },
    ]);
    const both = await statusOf(() =>
      cluster.client.resource(SubjectAccessReviewKind).create({
        spec: {
          user: 'bob',
          resourceAttributes: {
            ...get,
            verb: 'list',
            fieldSelector: { rawSelector: 'spec.nodeName=n1', requirements: [{ key: '', operator: 'In', values: [] }] },
            labelSelector: {
              requirements: [
                { key: 'app', operator: 'Exists', values: ['x'] },
                { key: 'tier', operator: 'Later', values: ['a'] },
              ],
            },
          },
        },
      }),
    );
    expect(both.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "spec.nodeName=n1": may not specified at the same time as requirements',
      'spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified',
      expect.stringMatching(
        /^spec\.resourceAttributes\.fieldSelector\.requirements\[0\]\.values: Invalid value: .*: must have one element when `operator` is 'In' or 'NotIn'$/,
      ),
      "spec.resourceAttributes.labelSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ]);
    const ok = await ssar.create({ spec: { resourceAttributes: { ...get, verb: 'list', labelSelector: { rawSelector: 'app=web' } } } });
    expect(ok.status).toEqual({ allowed: true });
  });

  it('LocalSubjectAccessReview: the attributes must name its namespace, and non-resource attributes are refused', async () => {
    const lsar = cluster.client.resource(LocalSubjectAccessReviewKind);
    const ok = await lsar.create({ metadata: { namespace: 'default' }, spec: { user: 'bob', resourceAttributes: get } }, { namespace: 'default' });
    expect(ok.status).toEqual({ allowed: true });
    const other = await statusOf(() =>
      lsar.create(
        { metadata: { namespace: 'default' }, spec: { user: 'bob', resourceAttributes: { ...get, namespace: 'kube-system' } } },
        { namespace: 'default' },
      ),
    );
    expect(other.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.resourceAttributes.namespace', message: 'Invalid value: "kube-system": must match metadata.namespace' },
    ]);
  });

  it('SelfSubjectRulesReview lists every rule, and needs a namespace (400)', async () => {
    const r = await cluster.client.resource(SelfSubjectRulesReviewKind).create({ spec: { namespace: 'default' } });
    expect(r.status).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
    const status = await statusOf(() => cluster.client.resource(SelfSubjectRulesReviewKind).create({ spec: {} }));
    expect(status.code).toBe(400);
    expect(status.message).toBe('no namespace on request');
  });
});

describe('review attributes', () => {
  it('asks about every version ("*") when the review names none, as matchAllVersionIfEmpty does', () => {
    const user = { username: 'bob', groups: [] };
    expect(reviewAttributes(user, { resourceAttributes: get }).apiVersion).toBe('*');
    expect(reviewAttributes(user, { resourceAttributes: { ...get, version: 'v1' } }).apiVersion).toBe('v1');
  });

  it('hands authorizers the selectors asked about, given as raw text or as requirements', () => {
    const user = { username: 'bob', groups: [] };
    const list = { verb: 'list', resource: 'pods', namespace: 'default' };
    expect(
      reviewAttributes(user, {
        resourceAttributes: {
          ...list,
          fieldSelector: {
            requirements: [
              { key: 'spec.nodeName', operator: 'In', values: ['n1'] },
              { key: 'metadata.name', operator: 'NotIn', values: ['a,b=c'] },
            ],
          },
          labelSelector: {
            requirements: [
              { key: 'app', operator: 'In', values: ['a', 'b'] },
              { key: 'tier', operator: 'NotIn', values: ['x'] },
              { key: 'team', operator: 'Exists' },
              { key: 'old', operator: 'DoesNotExist' },
            ],
          },
        },
      }),
    ).toMatchObject({ fieldSelector: 'spec.nodeName=n1,metadata.name!=a\\,b\\=c', labelSelector: 'app in (a,b),tier notin (x),team,!old' });
    expect(reviewAttributes(user, { resourceAttributes: { ...list, fieldSelector: { rawSelector: 'spec.nodeName=n1' } } }).fieldSelector).toBe(
      'spec.nodeName=n1',
    );
    // A requirement no selector can say (Exists on a field, In without values) drops its whole selector.
    const unreadable = reviewAttributes(user, {
      resourceAttributes: {
        ...list,
        fieldSelector: {
          requirements: [
            { key: 'spec.nodeName', operator: 'In', values: ['n1'] },
            { key: 'x', operator: 'Exists' },
          ],
        },
        labelSelector: { requirements: [{ key: 'app', operator: 'In' }] },
      },
    });
    expect(unreadable.fieldSelector).toBeUndefined();
    expect(unreadable.labelSelector).toBeUndefined();
  });
});
