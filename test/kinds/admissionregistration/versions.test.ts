import { describe, expect, it } from 'vitest';
import { admissionregistrationKinds, type MutatingAdmissionPolicy } from '../../../src/kinds/admissionregistration/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: [...admissionregistrationKinds] });
const GROUP = 'admissionregistration.k8s.io';
const at = (version: string, resource = 'mutatingadmissionpolicies') => cluster.client.resource({ group: GROUP, version, resource });

const policy = (name: string): MutatingAdmissionPolicy => ({
  metadata: { name },
  spec: {
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
    mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[]' } }],
    reinvocationPolicy: 'Never',
  },
});

describe('admissionregistration served versions (one storage version: v1)', () => {
  it.each(['v1beta1', 'v1alpha1'])('creates a policy at %s and reads it at v1 with the same spec', async (version) => {
    const created = await at(version).create(policy('p'));
    expect(created.apiVersion).toBe(`${GROUP}/${version}`);
    const read = await at('v1').get('p');
    expect(read.apiVersion).toBe(`${GROUP}/v1`);
    expect(read.spec).toEqual(created.spec);
    expect(read.metadata?.uid).toBe(created.metadata?.uid);
  });

  it.each(['v1beta1', 'v1alpha1'])('creates a policy at v1 and reads and lists it at %s', async (version) => {
    const created = await at('v1').create(policy('p'));
    const read = await at(version).get('p');
    expect(read).toMatchObject({ apiVersion: `${GROUP}/${version}`, kind: 'MutatingAdmissionPolicy', spec: created.spec });
    const list = await at(version).list();
    expect(list.apiVersion).toBe(`${GROUP}/${version}`);
    expect(list.items.map((i) => i.metadata?.name)).toEqual(['p']);
  });

  it('updates at v1beta1 what was created at v1, keeping one object', async () => {
    const created = await at('v1').create(policy('p'));
    const beta = await at('v1beta1').get('p');
    const updated = await at('v1beta1').update({ ...beta, spec: { ...(beta.spec as object), reinvocationPolicy: 'IfNeeded' } });
    expect(updated.apiVersion).toBe(`${GROUP}/v1beta1`);
    const v1 = await at('v1').get('p');
    expect(v1).toMatchObject({ apiVersion: `${GROUP}/v1`, spec: { reinvocationPolicy: 'IfNeeded' }, metadata: { uid: created.metadata?.uid, generation: 2 } });
  });

  it('applies the same rules at every version', async () => {
    for (const version of ['v1beta1', 'v1alpha1']) {
      const bad = policy('bad');
      bad.spec!.matchConstraints!.resourceRules![0]!.operations = ['DELETE'];
      const s = await statusOf(() => at(version).create(bad));
      expect(s).toMatchObject({
        code: 422,
        message:
          'MutatingAdmissionPolicy.admissionregistration.k8s.io "bad" is invalid: spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"',
      });
    }
  });

  it.each(['v1beta1', 'v1alpha1'])('creates a binding at %s and reads it at v1, and back', async (version) => {
    const created = await at(version, 'mutatingadmissionpolicybindings').create({ metadata: { name: 'b' }, spec: { policyName: 'p', matchResources: {} } });
    const read = await at('v1', 'mutatingadmissionpolicybindings').get('b');
    expect(read).toMatchObject({ apiVersion: `${GROUP}/v1`, spec: { policyName: 'p', matchResources: { matchPolicy: 'Equivalent' } } });
    const back = await at(version, 'mutatingadmissionpolicybindings').get('b');
    expect(back).toMatchObject({ apiVersion: `${GROUP}/${version}`, spec: created.spec });
  });

  it('serves every version over HTTP with the stored object', async () => {
    await at('v1alpha1').create(policy('p'));
    for (const version of ['v1', 'v1beta1', 'v1alpha1']) {
      const res = await cluster.fetch(new Request(`http://memkube/apis/${GROUP}/${version}/mutatingadmissionpolicies/p`));
      expect(res.status).toBe(200);
      expect(((await res.json()) as MutatingAdmissionPolicy).apiVersion).toBe(`${GROUP}/${version}`);
    }
  });
});
