/**
 * The node agent's records of image pulls, on disk as the kubelet keeps them
 * (pkg/kubelet/images/pullmanager/fs_pullrecords.go): an `ImagePullIntent` in
 * `<rootDir>/image_manager/pulling/` while a pull runs, an `ImagePulledRecord` in
 * `<rootDir>/image_manager/pulled/` after; each file named `sha256-<hex of the image or imageRef>`,
 * JSON, written to a `.tmp` file first and renamed into place. memkube writes
 * `nodeagent.config.k8s.io/v1beta1` and reads the kubelet's `kubelet.config.k8s.io/v1alpha1` too.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, openSync, closeSync, fstatSync, readSync, readdirSync, renameSync, rmSync, writeFileSync, constants } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigDecodeError, decodeConfig, type ConfigKind } from '../../config/decode.js';

/** The version memkube writes its records in. */
export const PULL_RECORDS_API_VERSION = 'nodeagent.config.k8s.io/v1beta1';
const READ_VERSIONS = [PULL_RECORDS_API_VERSION, 'kubelet.config.k8s.io/v1alpha1'];
/** Records larger than this are refused as tampered with. */
export const MAX_RECORD_BYTES = 1024 * 1024;

const SecretSchema = z.object({ uid: z.string(), namespace: z.string(), name: z.string(), credentialHash: z.string() });
const ServiceAccountSchema = z.object({ uid: z.string(), namespace: z.string(), name: z.string() });
const CredentialsSchema = z.object({
  kubernetesSecrets: z.array(SecretSchema).optional(),
  kubernetesServiceAccounts: z.array(ServiceAccountSchema).optional(),
  nodePodsAccessible: z.boolean().optional(),
});

/** A pull secret that served an image: its coordinates and the hash of its credentials. */
export type ImagePullSecret = z.infer<typeof SecretSchema>;
/** A service account whose token served an image. */
export type ImagePullServiceAccount = z.infer<typeof ServiceAccountSchema>;
/** The credentials an image was pulled with (`ImagePullCredentials`). */
export type ImagePullCredentials = z.infer<typeof CredentialsSchema>;

/** `ImagePullIntent`: a pull of `image` was started. */
export interface ImagePullIntent {
  readonly image: string;
}

/** `ImagePulledRecord`: who may use the pulled `imageRef`. */
export interface ImagePulledRecord {
  /** RFC 3339. */
  readonly lastUpdatedTime: string;
  readonly imageRef: string;
  /** By image name without tag or digest (`docker.io/library/nginx`). */
  readonly credentialMapping: Readonly<Record<string, ImagePullCredentials>>;
}

const kind = (name: string, fields: z.ZodRawShape): ConfigKind => ({
  kind: name,
  versions: READ_VERSIONS.map((apiVersion) => ({ apiVersion, schema: z.object({ apiVersion: z.literal(apiVersion), kind: z.literal(name), ...fields }) })),
});
const IntentKind = kind('ImagePullIntent', { image: z.string().optional() });
const PulledKind = kind('ImagePulledRecord', {
  lastUpdatedTime: z.string().optional(),
  imageRef: z.string().optional(),
  credentialMapping: z.record(z.string(), CredentialsSchema).optional(),
});

/** Thrown for a record file that cannot be read or decoded. */
export class PullRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PullRecordError';
  }
}

/** The record file name of an image or imageRef (`cacheFilename`). */
export function recordFileName(key: string): string {
  return `sha256-${createHash('sha256').update(key).digest('hex')}`;
}

/** Reads and writes the pull records under a root directory. */
export interface PullRecords {
  readonly pullingDir: string;
  readonly pulledDir: string;
  /** Writes the record that a pull of `image` is under way. */
  writeIntent(image: string): void;
  /** Whether an intent for exactly `image` is on disk; throws {@link PullRecordError} for a bad file. */
  intentExists(image: string): boolean;
  /** Deletes the intent of `image`, if any. */
  deleteIntent(image: string): void;
  /** Every readable intent, and the errors of the unreadable ones. */
  listIntents(): { intents: ImagePullIntent[]; errors: string[] };
  /** The record of `imageRef`; `undefined` when absent or about another imageRef; throws for a bad file. */
  getPulled(imageRef: string): ImagePulledRecord | undefined;
  /** Writes the record of a pulled image, replacing the one of the same imageRef. */
  writePulled(record: ImagePulledRecord): void;
  /** Deletes the pulled record of `imageRef`, if any. */
  deletePulled(imageRef: string): void;
  /** Every readable pulled record, and the errors of the unreadable ones. */
  listPulled(): { records: ImagePulledRecord[]; errors: string[] };
}

/** The records of the node agent whose `--root-dir` is `rootDir`; creates the directories (0700). */
export function createPullRecords(rootDir: string): PullRecords {
  const pullingDir = join(rootDir, 'image_manager', 'pulling');
  const pulledDir = join(rootDir, 'image_manager', 'pulled');
  mkdirSync(pullingDir, { recursive: true, mode: 0o700 });
  mkdirSync(pulledDir, { recursive: true, mode: 0o700 });

  const decodeIntent = (text: string): ImagePullIntent => {
    const value = decode<{ image?: string }>(text, IntentKind);
    return { image: value.image ?? '' };
  };
  const decodePulled = (text: string): ImagePulledRecord => {
    const value = decode<{ lastUpdatedTime?: string; imageRef?: string; credentialMapping?: Record<string, ImagePullCredentials> }>(text, PulledKind);
    return { lastUpdatedTime: value.lastUpdatedTime ?? '', imageRef: value.imageRef ?? '', credentialMapping: value.credentialMapping ?? {} };
  };

  return {
    pullingDir,
    pulledDir,
    writeIntent(image) {
      writeAtomically(pullingDir, recordFileName(image), JSON.stringify({ kind: 'ImagePullIntent', apiVersion: PULL_RECORDS_API_VERSION, image }));
    },
    intentExists(image) {
      const text = readRecord(join(pullingDir, recordFileName(image)));
      return text !== undefined && decodeIntent(text).image === image;
    },
    deleteIntent(image) {
      rmSync(join(pullingDir, recordFileName(image)), { force: true });
    },
    listIntents() {
      const { values, errors } = listDir(pullingDir, decodeIntent, 'ImagePullIntent');
      return { intents: values, errors };
    },
    getPulled(imageRef) {
      const text = readRecord(join(pulledDir, recordFileName(imageRef)));
      if (text === undefined) return undefined;
      const record = decodePulled(text);
      return record.imageRef === imageRef ? record : undefined;
    },
    writePulled(record) {
      const body = { kind: 'ImagePulledRecord', apiVersion: PULL_RECORDS_API_VERSION, ...record };
      writeAtomically(pulledDir, recordFileName(record.imageRef), JSON.stringify(body));
    },
    deletePulled(imageRef) {
      rmSync(join(pulledDir, recordFileName(imageRef)), { force: true });
    },
    listPulled() {
      const { values, errors } = listDir(pulledDir, decodePulled, 'ImagePulledRecord');
      return { records: values, errors };
    },
  };
}

function decode<T>(text: string, configKind: ConfigKind): T {
  try {
    return decodeConfig<T>(text, configKind).value;
  } catch (e) {
    if (e instanceof ConfigDecodeError) throw new PullRecordError(e.message);
    throw e;
  }
}

/** The text of a record file, `undefined` when absent; only regular files, at most {@link MAX_RECORD_BYTES}. */
function readRecord(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new PullRecordError(`failed to read ${JSON.stringify(path)}: ${(e as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new PullRecordError(`failed to read ${JSON.stringify(path)}: not a regular file`);
    if (stat.size > MAX_RECORD_BYTES) throw new PullRecordError(`failed to read ${JSON.stringify(path)}: larger than ${MAX_RECORD_BYTES} bytes`);
    const buffer = Buffer.alloc(stat.size);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function listDir<T>(dir: string, decodeOne: (text: string) => T, kindName: string): { values: T[]; errors: string[] } {
  const values: T[] = [];
  const errors: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // Only files the node agent wrote, never a half-written .tmp.
    if (entry.isDirectory() || !entry.name.startsWith('sha256-') || entry.name.endsWith('.tmp')) continue;
    const path = join(dir, entry.name);
    try {
      const text = readRecord(path);
      if (text !== undefined) values.push(decodeOne(text));
    } catch (e) {
      errors.push(`failed to deserialize content of file ${JSON.stringify(path)} into ${kindName}: ${(e as Error).message}`);
    }
  }
  return { values, errors };
}

function writeAtomically(dir: string, name: string, content: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const target = join(dir, name);
  const tmp = `${target}.tmp`;
  try {
    writeFileSync(tmp, content, { mode: 0o600 });
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
