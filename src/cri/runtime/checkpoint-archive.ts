/**
 * The checkpoint archive memkube's runtime writes, laid out as containerd and CRI-O lay theirs out
 * (the files checkpointctl and CRI-O's restore read, named in checkpoint-restore's metadata
 * package): `config.dump` (the container's identity and image), `spec.dump` (its OCI runtime spec),
 * `rootfs-diff.tar` (the writable layer's changes; empty here), and `checkpoint/` (CRIU's images;
 * memkube has no processes, so a placeholder `inventory.img`).
 */
import type { ContainerConfig, PodSandboxConfig } from '../api.js';
import { writeTar, type TarEntry } from './tar.js';

/** What the archive describes. */
export interface CheckpointSubject {
  readonly id: string;
  /** containerd's container name (`<name>_<pod>_<namespace>_<uid>_<attempt>`). */
  readonly name: string;
  readonly config: ContainerConfig;
  readonly sandboxConfig: PodSandboxConfig;
  readonly sandboxId: string;
  readonly imageName: string;
  readonly imageRef: string;
  readonly createdAtMs: number;
}

/** Only root may read the archive: it would hold every memory page of the container. */
export const CHECKPOINT_FILE_MODE = 0o600;

const MEMKUBE_INVENTORY = 'memkube checkpoint: no process images (memkube runs no processes)\n';

function ociSpec(subject: CheckpointSubject): Record<string, unknown> {
  const { config, sandboxConfig } = subject;
  const args = [...(config.command ?? []), ...(config.args ?? [])];
  return {
    ociVersion: '1.1.0',
    process: {
      terminal: config.tty ?? false,
      user: { uid: Number(config.linux?.securityContext?.runAsUser?.value ?? 0n), gid: 0 },
      args,
      env: (config.envs ?? []).map((e) => `${e.key}=${e.value}`),
      cwd: config.workingDir || '/',
    },
    root: { path: 'rootfs', readonly: config.linux?.securityContext?.readonlyRootfs ?? false },
    hostname: sandboxConfig.hostname ?? '',
    mounts: (config.mounts ?? []).map((m) => ({
      destination: m.containerPath,
      type: 'bind',
      source: m.hostPath,
      options: ['rbind', m.readonly ? 'ro' : 'rw'],
    })),
    annotations: {
      ...(config.annotations ?? {}),
      'io.kubernetes.cri.container-type': 'container',
      'io.kubernetes.cri.container-name': config.metadata.name,
      'io.kubernetes.cri.sandbox-id': subject.sandboxId,
      'io.kubernetes.cri.sandbox-name': sandboxConfig.metadata.name,
      'io.kubernetes.cri.sandbox-namespace': sandboxConfig.metadata.namespace,
      'io.kubernetes.cri.sandbox-uid': sandboxConfig.metadata.uid,
      'io.kubernetes.cri.image-name': subject.imageName,
    },
    linux: { namespaces: [{ type: 'pid' }, { type: 'ipc' }, { type: 'uts' }, { type: 'mount' }, { type: 'network' }] },
  };
}

/** The archive's bytes, every member mode 0600 and owned by root. */
export function checkpointArchive(subject: CheckpointSubject, checkpointedAtMs: number): Buffer {
  const configDump = {
    id: subject.id,
    name: subject.name,
    rootfsImage: subject.config.image.image,
    rootfsImageRef: subject.imageRef,
    rootfsImageName: subject.imageName,
    runtime: 'memkube',
    createdTime: new Date(subject.createdAtMs).toISOString(),
    checkpointedTime: new Date(checkpointedAtMs).toISOString(),
    restoredTime: '0001-01-01T00:00:00Z',
    restored: false,
  };
  const mtime = Math.floor(checkpointedAtMs / 1000);
  const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value, null, 2) + '\n');
  const entries: TarEntry[] = [
    { name: 'config.dump', mode: CHECKPOINT_FILE_MODE, mtime, data: json(configDump) },
    { name: 'spec.dump', mode: CHECKPOINT_FILE_MODE, mtime, data: json(ociSpec(subject)) },
    { name: 'rootfs-diff.tar', mode: CHECKPOINT_FILE_MODE, mtime, data: writeTar([]) },
    { name: 'checkpoint/', type: 'directory', mode: 0o700, mtime },
    { name: 'checkpoint/inventory.img', mode: CHECKPOINT_FILE_MODE, mtime, data: Buffer.from(MEMKUBE_INVENTORY) },
  ];
  return writeTar(entries);
}
