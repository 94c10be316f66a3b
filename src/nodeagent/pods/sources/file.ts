/**
 * Static pods from `staticPodPath`, as kubelet's file source reads it: one manifest file, or
 * every file of a directory (not recursing, hidden files ignored), each a Pod in JSON or YAML.
 * A file that will not do is logged and skipped; the others still run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Pod } from '../../../kinds/types/core-v1.js';
import type { AgentLog } from '../../agent-log.js';
import { applyStaticPodDefaults, asPod, decodeManifest, ManifestError, MAX_MANIFEST_BYTES } from './static-pod.js';

/** Reads the manifest at `path` (size-checked first). */
function readManifest(path: string, size: number): Pod {
  if (size > MAX_MANIFEST_BYTES) throw new ManifestError(`manifest of ${size} bytes is larger than the ${MAX_MANIFEST_BYTES} bytes allowed`);
  return asPod(decodeManifest(readFileSync(path, 'utf8')));
}

/** The pods of the static pod path; `seen` stamps `kubernetes.io/config.seen`. */
export function readStaticPodPath(path: string, nodeName: string, log: AgentLog, seen: string): Pod[] {
  let stat;
  try {
    stat = statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const files: { file: string; size: number }[] = [];
  if (stat.isDirectory()) {
    for (const name of readdirSync(path).sort()) {
      if (name.startsWith('.')) continue;
      const file = join(path, name);
      let s;
      try {
        s = statSync(file);
      } catch (e) {
        log.errorS(e, 'Could not get metadata for manifest file', 'path', file);
        continue;
      }
      if (s.isDirectory()) {
        log.infoS('Not recursing into manifest path', 'path', file);
        continue;
      }
      if (s.isFile()) files.push({ file, size: s.size });
    }
  } else if (stat.isFile()) {
    files.push({ file: path, size: stat.size });
  } else {
    log.infoS('Path is not a directory or file', 'path', path);
    return [];
  }
  const pods: Pod[] = [];
  for (const { file, size } of files) {
    try {
      pods.push(applyStaticPodDefaults(readManifest(file, size), nodeName, 'file', file, seen));
    } catch (e) {
      log.errorS(e, 'Could not process manifest file', 'path', file);
    }
  }
  return pods;
}
