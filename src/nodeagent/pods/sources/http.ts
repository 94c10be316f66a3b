/**
 * Static pods from `staticPodURL`, as kubelet's HTTP source fetches them: a GET with the
 * `staticPodURLHeader` headers; the body is a Pod, or a PodList whose items are each defaulted.
 * An answer that will not do throws (the caller keeps the pods it had).
 */
import type { Pod } from '../../../kinds/types/core-v1.js';
import { applyStaticPodDefaults, asPod, decodeManifest, ManifestError, MAX_MANIFEST_BYTES } from './static-pod.js';

/**
 * The fetch the source uses (the global `fetch` by default).
 * @category Node agent
 */
export type UrlFetch = (url: string, init: { headers: Headers; signal?: AbortSignal }) => Promise<Response>;

async function boundedText(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_MANIFEST_BYTES) throw new ManifestError(`manifest of ${declared} bytes is larger than the ${MAX_MANIFEST_BYTES} bytes allowed`);
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > MAX_MANIFEST_BYTES) {
      await reader.cancel();
      throw new ManifestError(`manifest larger than the ${MAX_MANIFEST_BYTES} bytes allowed`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The pods the URL serves. */
export async function fetchStaticPodUrl(
  url: string,
  header: Readonly<Record<string, readonly string[]>> | undefined,
  nodeName: string,
  seen: string,
  fetch: UrlFetch = globalThis.fetch,
): Promise<Pod[]> {
  const headers = new Headers();
  for (const [k, values] of Object.entries(header ?? {})) for (const v of values) headers.append(k, v);
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new ManifestError(`${url}: ${res.status} ${res.statusText}`);
  }
  const text = await boundedText(res);
  if (text.trim() === '') return [];
  const value = decodeManifest(text);
  const obj = value as { kind?: unknown; items?: unknown };
  if (obj && typeof obj === 'object' && obj.kind === 'PodList') {
    if (!Array.isArray(obj.items)) throw new ManifestError(`${url}: a PodList without items`);
    return obj.items.map((item: unknown) =>
      applyStaticPodDefaults(asPod(isBareObject(item) ? { apiVersion: 'v1', kind: 'Pod', ...item } : item), nodeName, 'http', url, seen),
    );
  }
  try {
    return [applyStaticPodDefaults(asPod(value), nodeName, 'http', url, seen)];
  } catch (e) {
    throw new ManifestError(
      `${url}: received ${JSON.stringify(text.slice(0, 200))}, but couldn't parse as single pod (${(e as Error).message}) or as pod list`,
    );
  }
}

function isBareObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
