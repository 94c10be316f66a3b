/**
 * The ConfigMaps and Secrets a container's environment names (`envFrom`, `valueFrom.configMapKeyRef`,
 * `valueFrom.secretKeyRef`), read from the API server before the container is configured, as
 * kubelet's configmap and secret managers serve `makeEnvironmentVariables`.
 */
import type { Container, Pod } from '../../kinds/types/core-v1.js';
import { KubeApiError, type KubeApiClient } from '../kube-api.js';

/** The data of each named object; `undefined` for one that does not exist. */
export interface EnvSourceData {
  readonly configMaps: ReadonlyMap<string, Readonly<Record<string, string>> | undefined>;
  readonly secrets: ReadonlyMap<string, Readonly<Record<string, string>> | undefined>;
}

/** Reads the sources of one container's environment. */
export type EnvSourceReader = (pod: Pod, container: Container) => Promise<EnvSourceData>;

/** The names of the ConfigMaps and Secrets a container's environment refers to. */
export function envSourceNames(container: Container): { configMaps: Set<string>; secrets: Set<string> } {
  const configMaps = new Set<string>();
  const secrets = new Set<string>();
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef?.name) configMaps.add(from.configMapRef.name);
    if (from.secretRef?.name) secrets.add(from.secretRef.name);
  }
  for (const env of container.env ?? []) {
    if (env.valueFrom?.configMapKeyRef?.name) configMaps.add(env.valueFrom.configMapKeyRef.name);
    if (env.valueFrom?.secretKeyRef?.name) secrets.add(env.valueFrom.secretKeyRef.name);
  }
  return { configMaps, secrets };
}

/** A reader over the API server: a missing object is `undefined`, any other failure throws. */
export function apiServerEnvSources(kube: KubeApiClient): EnvSourceReader {
  return async (pod, container) => {
    const ns = encodeURIComponent(pod.metadata?.namespace ?? '');
    const names = envSourceNames(container);
    const get = async (resource: string, name: string) => {
      try {
        return await kube.request<{ data?: Record<string, string> }>('GET', `/api/v1/namespaces/${ns}/${resource}/${encodeURIComponent(name)}`);
      } catch (e) {
        if (e instanceof KubeApiError && e.code === 404) return undefined;
        throw e;
      }
    };
    const configMaps = new Map<string, Record<string, string> | undefined>();
    const secrets = new Map<string, Record<string, string> | undefined>();
    for (const name of names.configMaps) {
      const configMap = await get('configmaps', name);
      configMaps.set(name, configMap ? (configMap.data ?? {}) : undefined);
    }
    for (const name of names.secrets) {
      const secret = await get('secrets', name);
      secrets.set(
        name,
        secret ? Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')])) : undefined,
      );
    }
    return { configMaps, secrets };
  };
}
