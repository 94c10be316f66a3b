/**
 * A real containerd (Debian's 1.6, with its CRI plugin and runc) for memkube's end-to-end tests.
 *
 * Use, once per test file (starting takes one to three seconds once the packages are cached; the
 * first run on a machine downloads about 30 MB of .deb files from Debian, 10-20 s, see debs.ts):
 *
 *   let containerd: RunningContainerd;
 *   beforeAll(async () => { containerd = await startContainerd(); }, 180_000);
 *   afterAll(() => containerd?.stop());
 *
 *   const cri = createCriClient(containerd.endpoint);   // 'unix:///tmp/memkube-containerd-.../containerd.sock'
 *   await containerd.ctr('plugins', 'ls');             // containerd's own client, namespace k8s.io
 *
 * Images: `containerd.images.busybox` (`memkube.test/busybox:1`: /bin/sh and every busybox applet,
 * default command `sh`) and `containerd.images.pause` (`memkube.test/pause:1`, the CRI plugin's
 * sandbox_image: busybox sleeping for ever), both imported into namespace k8s.io, so ImageStatus finds
 * them. PullImage of them works too: `containerd.registry`, a read-only registry on 127.0.0.1, serves
 * them for the host memkube.test (any other registry is unreachable from a test machine).
 *
 * What this containerd can run: host-network pods only (no CNI plugins are installed:
 * `linux.securityContext.namespaceOptions.network = 'NODE'`), with an EMPTY sandbox hostname (runc
 * refuses to set a hostname without a private UTS namespace, and a host-network sandbox shares the
 * node's). Pods get no cgroups of their own (`disable_cgroup`), so resource limits are accepted but not
 * enforced; no AppArmor. Put pod log directories under `containerd.dir`, which stop() removes.
 * Needs root. containerd's log is `containerd.logFile`.
 *
 * Everything lives in one temporary directory; stop() (also run when the test process exits) deletes
 * the tasks left, kills containerd and whatever shims and containers remain by PID, unmounts what they
 * left mounted, removes their cgroups and the directory, and closes the registry.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive, descendants, killAll, removeAll, removeContainerCgroups, shimPids, shimSockets, taskBundles, unmountAllUnder } from './cleanup.js';
import { containerdConfig, registryHostsToml } from './config.js';
import { run } from '../debs.js';
import { containerdBinaries, type ContainerdBinaries } from './debs.js';
import { cachedTestImages, TEST_IMAGES, type CachedTestImages } from './image.js';
import { startTestRegistry, type TestRegistry } from './registry.js';

/** How {@link startContainerd} sets containerd up. */
export interface ContainerdOptions {
  /** The snapshotter; by default overlayfs, or native when overlayfs does not load on this machine. */
  snapshotter?: 'overlayfs' | 'native';
  /** containerd's log level, `info` by default; the log is in {@link RunningContainerd.logFile}. */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** Where the .deb packages are cached (`<repo>/.cache/debs` by default). */
  cacheDir?: string;
}

/** One running containerd of the harness. */
export interface RunningContainerd {
  /** The gRPC unix socket path. */
  socket: string;
  /** The socket as a gRPC target: `unix:///...`. */
  endpoint: string;
  /** The harness's temporary directory: holds root, state, config and log; removed by stop(). */
  dir: string;
  /** containerd's root directory. */
  root: string;
  /** containerd's state directory. */
  state: string;
  /** containerd's PID. */
  pid: number;
  /** The snapshotter in use. */
  snapshotter: 'overlayfs' | 'native';
  /** The imported images (namespace k8s.io). */
  images: { busybox: string; pause: string };
  /** The unpacked binaries. */
  binaries: ContainerdBinaries;
  /** The registry serving the test images as `memkube.test/...`, so that PullImage of them works. */
  registry: TestRegistry;
  /** containerd's combined stdout and stderr. */
  logFile: string;
  /** Runs `ctr --address <socket> --namespace k8s.io ...args`, answering stdout. */
  ctr(...args: string[]): Promise<string>;
  /** Stops containerd, kills its shims and containers, unmounts and removes {@link dir}. Idempotent. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;
const POLL_MS = 50;
const CTR_TIMEOUT_MS = 60_000;
/** The registry host of the test images' names. */
const TEST_REGISTRY_HOST = TEST_IMAGES.busybox.slice(0, TEST_IMAGES.busybox.indexOf('/'));

/** Fetches (once, cached) and starts a containerd with the CRI plugin and the test images imported. */
export async function startContainerd(options: ContainerdOptions = {}): Promise<RunningContainerd> {
  if (process.getuid?.() !== 0) throw new Error('the containerd harness needs root: containerd, its shims and runc mount and make namespaces');
  const binaries = await containerdBinaries(options.cacheDir);
  const images = cachedTestImages(binaries.busybox, binaries.cacheDir);
  const started = await startWith(binaries, images, options.snapshotter ?? 'overlayfs', options, { allowSnapshotterFailure: !options.snapshotter });
  if (started) return started;
  const native = await startWith(binaries, images, 'native', options);
  if (!native) throw new Error('containerd started with neither the overlayfs nor the native snapshotter');
  return native;
}

/** Starts one containerd; with `allowSnapshotterFailure`, answers undefined (and cleans up) when the snapshotter did not load. */
async function startWith(
  binaries: ContainerdBinaries,
  images: CachedTestImages,
  snapshotter: 'overlayfs' | 'native',
  options: ContainerdOptions,
  { allowSnapshotterFailure = false } = {},
): Promise<RunningContainerd | undefined> {
  // Short: the socket path must fit a unix socket address (108 bytes).
  const dir = mkdtempSync(join(tmpdir(), 'memkube-containerd-'));
  const root = join(dir, 'root');
  const state = join(dir, 'state');
  const socket = join(dir, 'containerd.sock');
  const logFile = join(dir, 'containerd.log');
  for (const sub of ['root', 'state', 'cni/conf', 'cni/bin', 'opt']) mkdirSync(join(dir, sub), { recursive: true });
  const registry = await startTestRegistry(images.set, TEST_REGISTRY_HOST);
  const registryConfigDir = join(dir, 'certs.d');
  mkdirSync(join(registryConfigDir, TEST_REGISTRY_HOST), { recursive: true });
  writeFileSync(join(registryConfigDir, TEST_REGISTRY_HOST, 'hosts.toml'), registryHostsToml(registry.url));
  const configFile = join(dir, 'config.toml');
  writeFileSync(
    configFile,
    containerdConfig({
      root,
      state,
      socket,
      runc: binaries.runc,
      sandboxImage: TEST_IMAGES.pause,
      snapshotter,
      cniConfDir: join(dir, 'cni/conf'),
      cniBinDir: join(dir, 'cni/bin'),
      optDir: join(dir, 'opt'),
      registryConfigDir,
      logLevel: options.logLevel,
    }),
  );

  const env = {
    ...process.env,
    // containerd looks the shim up on PATH; runc needs libseccomp.so.2.
    PATH: `${binaries.binDir}:${process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin'}`,
    LD_LIBRARY_PATH: [binaries.libDir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
  };
  const log = openSync(logFile, 'a');
  const child = spawn(binaries.containerd, ['--config', configFile], { env, stdio: ['ignore', log, log] });
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const ctrIn = (namespace: string, ...args: string[]) =>
    run(binaries.ctr, ['--address', socket, '--namespace', namespace, ...args], { env, timeoutMs: CTR_TIMEOUT_MS });
  const ctr = (...args: string[]) => ctrIn('k8s.io', ...args);
  let stopped: Promise<void> | undefined;
  const onExit = () => cleanUpNow(child, socket, state, dir);
  process.once('exit', onExit);
  const stop = () => {
    stopped ??= (async () => {
      process.removeListener('exit', onExit);
      await stopGracefully(child, exited, ctrIn, socket, state, dir);
      await registry.close();
    })();
    return stopped;
  };

  try {
    await waitForSocket(child, socket, logFile);
    const plugins = pluginStatus(await ctr('plugins', 'ls'));
    if (plugins.get(`io.containerd.snapshotter.v1.${snapshotter}`) !== 'ok') {
      if (allowSnapshotterFailure) {
        await stop();
        return undefined;
      }
      throw new Error(`containerd's ${snapshotter} snapshotter did not load:\n${tail(logFile)}`);
    }
    if (plugins.get('io.containerd.grpc.v1.cri') !== 'ok') throw new Error(`containerd's CRI plugin did not load:\n${tail(logFile)}`);
    // ctr prints `unpacking <name> (sha256:...)...done` for each image it imported and unpacked.
    const imported = await ctr('images', 'import', '--snapshotter', snapshotter, images.archive);
    for (const image of Object.values(TEST_IMAGES)) {
      if (!imported.includes(`unpacking ${image} `)) throw new Error(`ctr images import did not import ${image}:\n${imported}`);
    }
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    socket,
    endpoint: `unix://${socket}`,
    dir,
    root,
    state,
    pid: child.pid!,
    snapshotter,
    images: { ...TEST_IMAGES },
    binaries,
    registry,
    logFile,
    ctr,
    stop,
  };
}

/** Waits until containerd answers on `socket`, failing early (with its log) when it exits. */
async function waitForSocket(child: ChildProcess, socket: string, logFile: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`containerd exited (${child.exitCode ?? child.signalCode}) while starting:\n${tail(logFile)}`);
    }
    if (existsSync(socket) && (await accepts(socket))) return;
    if (Date.now() > deadline) throw new Error(`containerd did not answer on ${socket} within ${START_TIMEOUT_MS / 1000} s:\n${tail(logFile)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Whether a connection to the unix socket `path` is accepted: containerd serves gRPC once it listens. */
function accepts(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const connection = connect(path);
    connection.once('connect', () => {
      connection.destroy();
      resolve(true);
    });
    connection.once('error', () => resolve(false));
  });
}

/** Plugin id (`type.id`) to status, from `ctr plugins ls`'s table (TYPE ID PLATFORMS STATUS). */
export function pluginStatus(table: string): Map<string, string> {
  const status = new Map<string, string>();
  for (const line of table.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length >= 4) status.set(`${cols[0]}.${cols[1]}`, cols[cols.length - 1]!);
  }
  return status;
}

/**
 * The orderly stop: ask containerd to kill and delete every task left (so that runc removes its
 * cgroup and the shim unmounts its rootfs), kill whatever shims and containers remain, SIGTERM
 * containerd (SIGKILL after 5 s), then sweep: mounts, shim sockets, cgroups, the directory.
 */
async function stopGracefully(
  child: ChildProcess,
  exited: Promise<void>,
  ctrIn: (namespace: string, ...args: string[]) => Promise<string>,
  socket: string,
  state: string,
  dir: string,
): Promise<void> {
  const tasks = taskBundles(state);
  const sockets = shimSockets(state);
  if (child.exitCode === null && child.signalCode === null) {
    for (const namespace of new Set(tasks.map((t) => t.namespace))) {
      const ids = tasks.filter((t) => t.namespace === namespace).map((t) => t.id);
      await ctrIn(namespace, 'tasks', 'delete', '--force', ...ids).catch(() => undefined); // the sweep below covers a failure
    }
  }
  await killTreesAndWait(shimPids(socket));
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  // containerd may have started `containerd-shim-runc-v2 delete` cleanups before it stopped.
  await killTreesAndWait(shimPids(socket));
  unmountAllUnder(dir);
  removeContainerCgroups(tasks.map((t) => t.id));
  removeAll([...sockets, dir]);
}

async function killTreesAndWait(shims: readonly number[]): Promise<void> {
  const pids = killAll([...descendants(shims), ...shims]);
  const deadline = Date.now() + 5_000;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
}

/** The synchronous sweep for process exit, when nothing can be awaited. */
function cleanUpNow(child: ChildProcess, socket: string, state: string, dir: string): void {
  try {
    const tasks = taskBundles(state);
    const sockets = shimSockets(state);
    const shims = shimPids(socket);
    killAll([...descendants(shims), ...shims]);
    if (child.pid !== undefined) killAll([child.pid]);
    unmountAllUnder(dir);
    removeContainerCgroups(tasks.map((t) => t.id)); // best effort: killed processes may not be gone yet
    removeAll([...sockets, dir]);
  } catch {
    // exiting anyway
  }
}

/** The last lines of containerd's log, for error messages. */
function tail(logFile: string, lines = 30): string {
  try {
    return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
