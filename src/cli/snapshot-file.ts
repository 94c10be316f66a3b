/**
 * Snapshot files of `memkube serve`: `--load FILE` starts from a file `--save FILE` wrote (a
 * serialized `cluster.snapshot()`); other `--load` files are manifests, created after it.
 */
import { constants } from 'node:fs';
import { access, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { loadSnapshot, SNAPSHOT_KIND, type ClusterSnapshot } from '../storage/snapshot.js';

/** What the `--load` files hold: at most one snapshot to start from, and manifests to create. */
export interface LoadFiles {
  readonly snapshot?: ClusterSnapshot;
  readonly manifests: readonly { readonly file: string; readonly text: string }[];
}

/** The parsed document when `text` is a JSON object of kind ClusterSnapshot (valid or not), else undefined. */
function snapshotDocument(text: string): unknown {
  if (!text.trimStart().startsWith('{')) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined; // not JSON: YAML, or a broken manifest the manifest loader explains
  }
  return doc !== null && typeof doc === 'object' && (doc as { kind?: unknown }).kind === SNAPSHOT_KIND ? doc : undefined;
}

/**
 * Reads every `--load` file. A snapshot is checked whole before anything starts, and a file that
 * is not a valid snapshot, or a second snapshot, throws an Error naming the file.
 */
export async function readLoadFiles(files: readonly string[]): Promise<LoadFiles> {
  let snapshot: { file: string; value: ClusterSnapshot } | undefined;
  const manifests: { file: string; text: string }[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw new Error(`--load ${file}: ${(e as Error).message}`);
    }
    const doc = snapshotDocument(text);
    if (doc === undefined) {
      manifests.push({ file, text });
      continue;
    }
    if (snapshot) throw new Error(`--load ${file}: only one cluster snapshot can be loaded (${snapshot.file} is one)`);
    try {
      snapshot = { file, value: loadSnapshot(doc) };
    } catch (e) {
      throw new Error(`--load ${file}: ${(e as Error).message}`);
    }
  }
  return { ...(snapshot ? { snapshot: snapshot.value } : {}), manifests };
}

/** Fails at start when `--save FILE` could not be written at shutdown (its folder is missing or read-only). */
export async function checkSaveFile(file: string): Promise<void> {
  try {
    await access(dirname(file), constants.W_OK);
  } catch (e) {
    throw new Error(`--save ${file}: ${(e as Error).message}`);
  }
}

/**
 * Writes a snapshot to `file` whole or not at all: into a temporary file beside it, then renamed
 * over it, so that a crash mid-write leaves the previous file. Readable by its owner only: it holds
 * the cluster's Secrets.
 */
export async function writeSnapshotFile(file: string, snapshot: ClusterSnapshot): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, JSON.stringify(snapshot), { mode: 0o600 });
    await rename(temporary, file);
  } catch (e) {
    await rm(temporary, { force: true });
    throw new Error(`--save ${file}: ${(e as Error).message}`);
  }
}
