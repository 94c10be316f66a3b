/**
 * Whether an object is related to a node, answered from storage (what the Node authorizer's graph
 * answers in kube-apiserver, `hasPathFrom`): a pod bound to the node uses it, or (for a persistent
 * volume, and the secrets of one) the claim of such a pod is bound to it.
 */
import type { Storage, StoredValue } from '../../storage/storage.js';
import { persistentVolumeSecrets, podReferences } from './pod-references.js';

/** The kinds of object a node may be related to. */
export type RelatedType = 'secret' | 'configmap' | 'pvc' | 'pv' | 'resourceclaim' | 'serviceaccount' | 'volumeattachment' | 'resourceslice' | 'pod';

type Json = Record<string, unknown>;

const nodeNameOf = (value: StoredValue | undefined): string => {
  const spec = value?.['spec'] as Json | undefined;
  return typeof spec?.['nodeName'] === 'string' ? spec['nodeName'] : '';
};

/** Answers relations by reading the pods, persistent volumes, volume attachments and resource slices of a storage. */
export class StorageNodeRelations {
  constructor(
    private readonly storage: Storage,
    /** The cluster's API domain (`k8s.io`): the storage and resource groups are named after it. */
    private readonly apiDomain = 'k8s.io',
  ) {}

  /** The pods bound to `node` (of one namespace when given). */
  private async podsOn(node: string, namespace?: string): Promise<Json[]> {
    const { items } = await this.storage.list('core/pods', { namespace, filter: (pod) => nodeNameOf(pod) === node });
    return items.map((i) => i.value as Json);
  }

  /** The persistent volumes whose claims pods bound to `node` use, keyed `claimNamespace/claimName`. */
  private async volumesOfNode(node: string): Promise<Json[]> {
    const claims = new Set<string>();
    for (const pod of await this.podsOn(node)) {
      const ns = (pod['metadata'] as Json | undefined)?.['namespace'];
      for (const claim of podReferences(pod).claims) claims.add(`${String(ns)}/${claim}`);
    }
    if (claims.size === 0) return [];
    const { items } = await this.storage.list('core/persistentvolumes', {
      filter: (pv) => {
        const ref = ((pv['spec'] as Json | undefined)?.['claimRef'] ?? {}) as Json;
        return claims.has(`${String(ref['namespace'] ?? '')}/${String(ref['name'] ?? '')}`);
      },
    });
    return items.map((i) => i.value as Json);
  }

  /** Whether the object `namespace/name` of `type` is related to `node`. */
  async related(node: string, type: RelatedType, namespace: string, name: string): Promise<boolean> {
    switch (type) {
      case 'pod':
        return nodeNameOf((await this.storage.get({ bucket: 'core/pods', namespace, name }))?.value) === node;
      case 'volumeattachment':
        return nodeNameOf((await this.storage.get({ bucket: `storage.${this.apiDomain}/volumeattachments`, namespace: '', name }))?.value) === node;
      case 'resourceslice':
        return nodeNameOf((await this.storage.get({ bucket: `resource.${this.apiDomain}/resourceslices`, namespace: '', name }))?.value) === node;
      case 'pv': {
        const pv = (await this.storage.get({ bucket: 'core/persistentvolumes', namespace: '', name }))?.value as Json | undefined;
        const ref = ((pv?.['spec'] as Json | undefined)?.['claimRef'] ?? {}) as Json;
        if (typeof ref['name'] !== 'string' || typeof ref['namespace'] !== 'string') return false;
        const claim = ref['name'];
        return (await this.podsOn(node, ref['namespace'])).some((pod) => podReferences(pod).claims.has(claim));
      }
      case 'secret': {
        if ((await this.podsOn(node, namespace)).some((pod) => podReferences(pod).secrets.has(name))) return true;
        return (await this.volumesOfNode(node)).some((pv) => persistentVolumeSecrets(pv).has(`${namespace}/${name}`));
      }
      default: {
        const pods = await this.podsOn(node, namespace);
        return pods.some((pod) => {
          const refs = podReferences(pod);
          if (type === 'configmap') return refs.configMaps.has(name);
          if (type === 'pvc') return refs.claims.has(name);
          if (type === 'resourceclaim') return refs.resourceClaims.has(name);
          return refs.serviceAccount === name;
        });
      }
    }
  }
}
