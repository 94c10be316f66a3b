/**
 * Figures: what authorization costs a request. The same reads by the same user (alice, bound to the
 * bootstrap `view` ClusterRole in `default` by a RoleBinding, among the ~70 bootstrap bindings)
 * against a cluster with `--authorization-mode=RBAC` and against one with `AlwaysAllow`:
 * in-process gets (the engine's authorization step), and HTTP gets through `cluster.fetch` with a
 * bearer token (authentication, then authorization before routing). No target: the ratio is the
 * price of RBAC.
 */
import { figure, interleave, timePerOp, type Suite } from '../figure.js';
import type { Cluster } from '../../src/index.js';

const ALICE = { username: 'alice', groups: ['devs', 'system:authenticated'] };
const TIME_MS = 400;

async function cluster(modes: ['RBAC'] | ['AlwaysAllow']): Promise<Cluster> {
  const { createCluster } = await import('../../src/index.js');
  const c = await createCluster({
    authentication: { tokens: [{ token: 'alice-token', user: ALICE }] },
    authorization: { modes },
  });
  await c.client.resource({ version: 'v1', resource: 'configmaps' }).create({ metadata: { name: 'settings' }, data: { a: 'b' } }, { namespace: 'default' });
  await c.client.resource({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings' }).create(
    {
      metadata: { name: 'devs-view' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }],
    },
    { namespace: 'default' },
  );
  return c;
}

async function inProcessGets(c: Cluster): Promise<number> {
  const cms = c.client.as(ALICE).resource({ version: 'v1', resource: 'configmaps' });
  return timePerOp(TIME_MS, () => cms.get('settings', { namespace: 'default' }));
}

async function httpGets(c: Cluster): Promise<number> {
  const url = 'http://memkube/api/v1/namespaces/default/configmaps/settings';
  return timePerOp(TIME_MS, async () => {
    const res = await c.fetch(new Request(url, { headers: { authorization: 'Bearer alice-token' } }));
    if (res.status !== 200) throw new Error(`GET answered ${res.status}`);
    await res.arrayBuffer();
  });
}

/** The authorization suite. */
export const authSuite: Suite = {
  name: 'auth',
  figures: [
    { id: 'auth-rbac-get', title: 'in-process get as a user, RBAC beside AlwaysAllow' },
    { id: 'auth-rbac-http-get', title: 'HTTP get with a bearer token, RBAC beside AlwaysAllow' },
  ],
  async run(rounds) {
    const rbac = await cluster(['RBAC']);
    const allow = await cluster(['AlwaysAllow']);
    try {
      // Warm both paths once (lazy indexes, JIT) before measuring.
      await inProcessGets(rbac);
      await inProcessGets(allow);
      const inProcess = await interleave(
        rounds,
        () => inProcessGets(rbac),
        () => inProcessGets(allow),
      );
      const http = await interleave(
        rounds,
        () => httpGets(rbac),
        () => httpGets(allow),
      );
      return [
        figure(
          { id: 'auth-rbac-get', title: 'in-process get as a user, RBAC', unit: 'µs/op', baselineName: 'the same get under AlwaysAllow' },
          inProcess.ours,
          inProcess.baseline,
        ),
        figure(
          {
            id: 'auth-rbac-http-get',
            title: 'HTTP get with a bearer token (cluster.fetch), RBAC',
            unit: 'µs/op',
            baselineName: 'the same get under AlwaysAllow',
          },
          http.ours,
          http.baseline,
        ),
      ];
    } finally {
      await rbac.close();
      await allow.close();
    }
  },
};
