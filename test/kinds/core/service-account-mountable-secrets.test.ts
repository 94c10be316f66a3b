import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src/cluster.js';
import { PodKind, ServiceAccountKind, type ServiceAccount } from '../../../src/kinds/index.js';
import type { Pod } from '../../../src/kinds/core/pod.js';
import { statusOf, testCluster, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const NS = { namespace: 'default' };
const ENFORCE = 'kubernetes.io/enforce-mountable-secrets';

const pods = (c: Cluster = cluster) => c.client.resource(PodKind);
const sas = (c: Cluster = cluster) => c.client.resource(ServiceAccountKind);
const podNames = async (c: Cluster = cluster) => (await pods(c).list(NS)).items.map((p) => p.metadata?.name).sort();

/** The account `robot` listing `secrets`, annotated enforcing ("true" unless given; `null`: no annotation). */
function robot(secrets: string[] = [], annotation: string | null = 'true', extra: Partial<ServiceAccount> = {}): ServiceAccount {
  return {
    metadata: { name: 'robot', ...(annotation === null ? {} : { annotations: { [ENFORCE]: annotation } }) },
    secrets: secrets.map((name) => ({ name })),
    ...extra,
  };
}

/** A pod `x` running as `robot` with one container `c`, changed by `patch`. */
function pod(patch: (p: Pod) => void = () => {}): Pod {
  const p: Pod = { metadata: { name: 'x' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'nginx' }] } };
  patch(p);
  return p;
}

const secretVolume = (p: Pod, secretName: string, name = 'v') => (p.spec!.volumes ??= []).push({ name, secret: { secretName } });
const envRef = (secret: string, name = 'TOKEN') => ({ name, valueFrom: { secretKeyRef: { name: secret, key: 'k' } } });

/** Expects the 403 the ServiceAccount admission plugin answers, and no pod stored. */
async function forbidden(p: Pod, why: string, c: Cluster = cluster) {
  const before = await podNames(c);
  const s = await statusOf(() => pods(c).create(p, NS));
  expect(s).toMatchObject({
    code: 403,
    reason: 'Forbidden',
    message: `pods "${p.metadata?.name || p.metadata?.generateName}" is forbidden: ${why}`,
    details: { kind: 'pods' },
  });
  expect(s.details?.causes).toBeUndefined();
  expect(await podNames(c)).toEqual(before);
}

const BECAUSE = 'is not allowed because service account robot does not reference that secret';

describe('ServiceAccount enforce-mountable-secrets (pod admission)', () => {
  it('rejects a secret volume the account does not list, and accepts one it lists', async () => {
    await sas().create(robot(['listed']), NS);
    await forbidden(
      pod((p) => secretVolume(p, 'other')),
      `volume with secret.secretName="other" ${BECAUSE}`,
    );
    const created = await pods().create(
      pod((p) => secretVolume(p, 'listed')),
      NS,
    );
    expect(created.spec?.volumes?.[0]).toMatchObject({ name: 'v', secret: { secretName: 'listed' } });
  });

  it('accepts a pod using no secrets, and the projected API token the plugin mounts', async () => {
    await sas().create(robot([]), NS);
    const created = await pods().create(pod(), NS);
    expect(created.spec?.volumes?.[0]?.projected?.sources?.[0]).toEqual({ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } });
  });

  it('does not check projected secret sources, as Kubernetes does not', async () => {
    await sas().create(robot([]), NS);
    const created = await pods().create(
      pod((p) => (p.spec!.volumes = [{ name: 'p', projected: { sources: [{ secret: { name: 'unlisted' } }] } }])),
      NS,
    );
    expect(created.spec?.volumes?.[0]?.projected?.sources?.[0]).toEqual({ secret: { name: 'unlisted' } });
  });

  it('rejects env secretKeyRef and envFrom secretRef of containers and init containers', async () => {
    await sas().create(robot(['ok']), NS);
    await forbidden(
      pod((p) => (p.spec!.containers[0]!.env = [envRef('ok', 'A'), envRef('db', 'PASSWORD')])),
      `container c with envVar PASSWORD referencing secret.secretName="db" ${BECAUSE}`,
    );
    await forbidden(
      pod((p) => (p.spec!.containers[0]!.envFrom = [{ secretRef: { name: 'ok' } }, { configMapRef: { name: 'cm' } }, { secretRef: { name: 'all' } }])),
      `container c with envFrom referencing secret.secretName="all" ${BECAUSE}`,
    );
    await forbidden(
      pod((p) => (p.spec!.initContainers = [{ name: 'init', image: 'busybox', env: [envRef('db')] }])),
      `init container init with envVar TOKEN referencing secret.secretName="db" ${BECAUSE}`,
    );
    await forbidden(
      pod((p) => (p.spec!.initContainers = [{ name: 'init', image: 'busybox', envFrom: [{ secretRef: { name: 'all' } }] }])),
      `init container init with envFrom referencing secret.secretName="all" ${BECAUSE}`,
    );
    const created = await pods().create(
      pod((p) => {
        p.spec!.containers[0]!.env = [envRef('ok'), { name: 'PLAIN', value: 'v' }, { name: 'CM', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }];
        p.spec!.containers[0]!.envFrom = [{ secretRef: { name: 'ok' } }, { configMapRef: { name: 'unlisted-config' } }];
      }),
      NS,
    );
    expect(created.spec?.containers[0]?.env?.[0]?.valueFrom?.secretKeyRef?.name).toBe('ok');
  });

  it('reports the first offending reference: volumes, then init containers, then containers, then imagePullSecrets', async () => {
    await sas().create(robot([]), NS);
    const everything = (p: Pod) => {
      p.spec!.imagePullSecrets = [{ name: 'pull' }];
      p.spec!.containers[0]!.env = [envRef('c-secret')];
      p.spec!.initContainers = [{ name: 'i', image: 'busybox', envFrom: [{ secretRef: { name: 'i-secret' } }] }];
      secretVolume(p, 'v-secret');
    };
    await forbidden(pod(everything), `volume with secret.secretName="v-secret" ${BECAUSE}`);
    await forbidden(
      pod((p) => {
        everything(p);
        p.spec!.volumes = [];
      }),
      `init container i with envFrom referencing secret.secretName="i-secret" ${BECAUSE}`,
    );
    await forbidden(
      pod((p) => {
        everything(p);
        p.spec!.volumes = [];
        p.spec!.initContainers = [];
      }),
      `container c with envVar TOKEN referencing secret.secretName="c-secret" ${BECAUSE}`,
    );
  });

  it("restricts imagePullSecrets to the account's imagePullSecrets", async () => {
    await sas().create(robot([], 'true', { imagePullSecrets: [{ name: 'registry' }] }), NS);
    await forbidden(
      pod((p) => (p.spec!.imagePullSecrets = [{ name: 'registry' }, { name: 'other' }])),
      'imagePullSecrets[1].name="other" is not allowed because service account robot does not reference that imagePullSecret',
    );
    // A secret listed only in `secrets` is not a pull secret.
    await sas().patch('robot', { secrets: [{ name: 'other' }] }, { type: 'merge', ...NS });
    await forbidden(
      pod((p) => (p.spec!.imagePullSecrets = [{ name: 'other' }])),
      'imagePullSecrets[0].name="other" is not allowed because service account robot does not reference that imagePullSecret',
    );
    // Without imagePullSecrets, the pod gets the account's, which pass.
    const created = await pods().create(pod(), NS);
    expect(created.spec?.imagePullSecrets).toEqual([{ name: 'registry' }]);
    const explicit = await pods().create(
      pod((p) => ((p.metadata!.name = 'y'), (p.spec!.imagePullSecrets = [{ name: 'registry' }]))),
      NS,
    );
    expect(explicit.spec?.imagePullSecrets).toEqual([{ name: 'registry' }]);
  });

  it.each([[null], ['false'], ['False'], ['0'], ['yes'], ['']])('does not restrict when the annotation is %j', async (annotation) => {
    await sas().create(robot([], annotation), NS);
    const created = await pods().create(
      pod((p) => {
        secretVolume(p, 'anything');
        p.spec!.containers[0]!.env = [envRef('db')];
        p.spec!.imagePullSecrets = [{ name: 'pull' }];
      }),
      NS,
    );
    expect(created.spec?.volumes?.[0]).toMatchObject({ secret: { secretName: 'anything' } });
  });

  it.each([['true'], ['True'], ['TRUE'], ['t'], ['1']])('restricts when the annotation is %j (Go ParseBool)', async (annotation) => {
    await sas().create(robot([], annotation), NS);
    await forbidden(
      pod((p) => secretVolume(p, 's')),
      `volume with secret.secretName="s" ${BECAUSE}`,
    );
  });

  it('applies to the default account when the pod names none, and names a generated pod by its prefix', async () => {
    await sas().patch('default', { metadata: { annotations: { [ENFORCE]: 'true' } } }, { type: 'merge', ...NS });
    const p = pod((x) => {
      delete x.spec!.serviceAccountName;
      x.metadata = { generateName: 'web-' };
      secretVolume(x, 's');
    });
    await forbidden(p, 'volume with secret.secretName="s" is not allowed because service account default does not reference that secret');
    await sas().patch('default', { secrets: [{ name: 's' }] }, { type: 'strategic', ...NS });
    const created = await pods().create(p, NS);
    expect(created.metadata?.name).toMatch(/^web-/);
    expect(created.spec?.serviceAccountName).toBe('default');
  });

  it('answers before validation (the plugin runs while admitting), and leaves ephemeral containers to validation', async () => {
    await sas().create(robot([]), NS);
    await forbidden(
      pod((p) => {
        p.spec!.containers[0]!.name = 'Bad_Name';
        secretVolume(p, 's');
      }),
      `volume with secret.secretName="s" ${BECAUSE}`,
    );
    const s = await statusOf(() =>
      pods().create(
        pod((p) => (p.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox', env: [envRef('db')] }])),
        NS,
      ),
    );
    expect(s.code).toBe(422);
    expect(s.details?.causes?.map((c) => c.field)).toContain('spec.ephemeralContainers');
  });

  it('only checks creates: an existing pod is not re-checked when the account starts enforcing', async () => {
    await sas().create(robot([], null), NS);
    const created = await pods().create(
      pod((p) => secretVolume(p, 's')),
      NS,
    );
    await sas().patch('robot', { metadata: { annotations: { [ENFORCE]: 'true' } } }, { type: 'merge', ...NS });
    const relabeled = await pods().patch('x', { metadata: { labels: { a: 'b' } } }, { type: 'merge', ...NS });
    expect(relabeled.metadata?.labels).toEqual({ a: 'b' });
    expect(relabeled.spec?.volumes).toEqual(created.spec?.volumes);
  });

  it("uses the cluster's reserved domain in the annotation key", async () => {
    const c = await testCluster({ reservedDomain: 'example.io' });
    try {
      await sas(c).create({ metadata: { name: 'robot', annotations: { [ENFORCE]: 'true' } } }, NS);
      await pods(c).create(
        pod((p) => secretVolume(p, 's')),
        NS,
      );
      await sas(c).patch('robot', { metadata: { annotations: { 'example.io/enforce-mountable-secrets': 'true' } } }, { type: 'merge', ...NS });
      await forbidden(
        pod((p) => ((p.metadata!.name = 'y'), secretVolume(p, 's'))),
        `volume with secret.secretName="s" ${BECAUSE}`,
        c,
      );
    } finally {
      await c.close();
    }
  });
});

describe('ServiceAccount secrets patch strategy (merge on name)', () => {
  it('merges a strategic merge patch of secrets by name, deletes with $patch, and replaces with a merge patch', async () => {
    await sas().create(robot(['a', 'b'], null), NS);
    const merged = await sas().patch('robot', { secrets: [{ name: 'c' }, { name: 'a' }] }, { type: 'strategic', ...NS });
    expect(merged.secrets?.map((s) => s.name).sort()).toEqual(['a', 'b', 'c']);
    expect(merged.secrets).toHaveLength(3);
    const deleted = await sas().patch('robot', { secrets: [{ name: 'b', $patch: 'delete' }] }, { type: 'strategic', ...NS });
    expect(deleted.secrets?.map((s) => s.name).sort()).toEqual(['a', 'c']);
    const replaced = await sas().patch('robot', { secrets: [{ name: 'z' }] }, { type: 'merge', ...NS });
    expect(replaced.secrets).toEqual([{ name: 'z' }]);
    // imagePullSecrets have no merge key: a strategic patch replaces the list.
    await sas().patch('robot', { imagePullSecrets: [{ name: 'p1' }] }, { type: 'strategic', ...NS });
    const pulls = await sas().patch('robot', { imagePullSecrets: [{ name: 'p2' }] }, { type: 'strategic', ...NS });
    expect(pulls.imagePullSecrets).toEqual([{ name: 'p2' }]);
  });

  it('lets a merged secrets list admit the pod it was patched for', async () => {
    await sas().create(robot(['a']), NS);
    await forbidden(
      pod((p) => secretVolume(p, 'b')),
      `volume with secret.secretName="b" ${BECAUSE}`,
    );
    await sas().patch('robot', { secrets: [{ name: 'b' }] }, { type: 'strategic', ...NS });
    const created = await pods().create(
      pod((p) => secretVolume(p, 'b')),
      NS,
    );
    expect(created.spec?.volumes?.[0]).toMatchObject({ secret: { secretName: 'b' } });
    expect((await sas().get('robot', NS)).secrets?.map((s) => s.name).sort()).toEqual(['a', 'b']);
  });
});
