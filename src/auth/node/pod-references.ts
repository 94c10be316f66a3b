/**
 * What a pod and a persistent volume refer to, as the Node authorizer's graph records it
 * (`plugin/pkg/auth/authorizer/node/graph_populator.go` and `graph.go` AddPod, AddPV; the
 * visitors of `pkg/api/v1/pod` and `pkg/api/v1/persistentvolume`): the secrets, config maps,
 * claims, resource claims and service account a pod uses, and the secrets a volume needs.
 */

type Json = Record<string, unknown>;

const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The objects of one namespace a pod refers to, by kind. */
export interface PodReferences {
  readonly secrets: Set<string>;
  readonly configMaps: Set<string>;
  readonly claims: Set<string>;
  readonly resourceClaims: Set<string>;
  readonly serviceAccount: string;
}

function containers(spec: Json): Json[] {
  return [...arr(spec['initContainers']), ...arr(spec['containers']), ...arr(spec['ephemeralContainers'])].map(obj);
}

/** `VisitPodSecretNames`, `VisitPodConfigmapNames`, the claims of its volumes and its resource claims. */
export function podReferences(pod: Json): PodReferences {
  const meta = obj(pod['metadata']);
  const spec = obj(pod['spec']);
  const status = obj(pod['status']);
  const secrets = new Set<string>();
  const configMaps = new Set<string>();
  const claims = new Set<string>();
  const resourceClaims = new Set<string>();
  const add = (set: Set<string>, name: unknown) => {
    if (str(name)) set.add(str(name));
  };
  for (const s of arr(spec['imagePullSecrets'])) add(secrets, obj(s)['name']);
  for (const c of containers(spec)) {
    for (const e of arr(c['envFrom']).map(obj)) {
      add(secrets, obj(e['secretRef'])['name']);
      add(configMaps, obj(e['configMapRef'])['name']);
    }
    for (const e of arr(c['env']).map(obj)) {
      const from = obj(e['valueFrom']);
      add(secrets, obj(from['secretKeyRef'])['name']);
      add(configMaps, obj(from['configMapKeyRef'])['name']);
    }
  }
  for (const v of arr(spec['volumes']).map(obj)) {
    add(secrets, obj(v['secret'])['secretName']);
    add(secrets, obj(v['azureFile'])['secretName']);
    for (const plugin of ['cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos']) add(secrets, obj(obj(v[plugin])['secretRef'])['name']);
    add(secrets, obj(obj(v['csi'])['nodePublishSecretRef'])['name']);
    for (const source of arr(obj(v['projected'])['sources']).map(obj)) {
      add(secrets, obj(source['secret'])['name']);
      add(configMaps, obj(source['configMap'])['name']);
    }
    add(configMaps, obj(v['configMap'])['name']);
    add(claims, obj(v['persistentVolumeClaim'])['claimName']);
    // A generic ephemeral volume's claim is named after the pod and the volume.
    if (v['ephemeral'] !== undefined) add(claims, `${str(meta['name'])}-${str(v['name'])}`);
  }
  for (const c of arr(spec['resourceClaims']).map(obj)) add(resourceClaims, c['resourceClaimName']);
  for (const c of arr(status['resourceClaimStatuses']).map(obj)) add(resourceClaims, c['resourceClaimName']);
  return { secrets, configMaps, claims, resourceClaims, serviceAccount: str(spec['serviceAccountName']) };
}

/** `VisitPVSecretNames`: the `namespace/name` of each secret a persistent volume needs (a reference without a namespace means its claim's). */
export function persistentVolumeSecrets(pv: Json): Set<string> {
  const spec = obj(pv['spec']);
  const claimNamespace = str(obj(spec['claimRef'])['namespace']);
  const out = new Set<string>();
  const add = (ref: Json) => {
    const name = str(ref['name']);
    if (name) out.add(`${str(ref['namespace']) || claimNamespace}/${name}`);
  };
  const azure = obj(spec['azureFile']);
  if (str(azure['secretName'])) out.add(`${str(azure['secretNamespace']) || claimNamespace}/${str(azure['secretName'])}`);
  for (const plugin of ['cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos']) add(obj(obj(spec[plugin])['secretRef']));
  const csi = obj(spec['csi']);
  for (const ref of ['controllerPublishSecretRef', 'nodeStageSecretRef', 'nodePublishSecretRef', 'controllerExpandSecretRef', 'nodeExpandSecretRef'])
    add(obj(csi[ref]));
  return out;
}
