/**
 * Finding and ending what one harness containerd left behind: its runc shims (which outlive containerd
 * by design) and the processes under them, mounts inside its directory, shim sockets outside it.
 * Everything is found by this containerd's own socket path or directory, and killed by PID.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** PIDs of the runc shims serving the containerd at `socket` (their command line says `-address <socket>`). */
export function shimPids(socket: string): number[] {
  const pids: number[] = [];
  for (const pid of allPids()) {
    const args = cmdline(pid);
    const at = args.indexOf('-address');
    if (at >= 0 && args[at + 1] === socket && (args[0] ?? '').endsWith('containerd-shim-runc-v2')) pids.push(pid);
  }
  return pids;
}

/** Every descendant of `roots` (children first found, so grandchildren follow), roots excluded. */
export function descendants(roots: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  for (const pid of allPids()) {
    const ppid = parentPid(pid);
    if (ppid === undefined) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Mount points at or under `dir`, deepest first, so that each can be unmounted before its parent. */
export function mountsUnder(dir: string): string[] {
  let text: string;
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return [];
  }
  const points = text
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((p): p is string => p !== undefined)
    // mountinfo escapes space, tab, newline and backslash as \ooo.
    .map((p) => p.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))))
    .filter((p) => p === dir || p.startsWith(`${dir}/`));
  return [...new Set(points)].sort((a, b) => b.length - a.length);
}

/** The shims' unix sockets (outside `state`, under /run/containerd/s), read from each task bundle's `address` file. */
export function shimSockets(state: string): string[] {
  const sockets: string[] = [];
  const tasks = join(state, 'io.containerd.runtime.v2.task');
  for (const namespace of safeReaddir(tasks)) {
    for (const id of safeReaddir(join(tasks, namespace))) {
      try {
        const address = readFileSync(join(tasks, namespace, id, 'address'), 'utf8').trim();
        if (address.startsWith('unix://')) sockets.push(address.slice('unix://'.length));
      } catch {
        // no address: the shim never started
      }
    }
  }
  return sockets;
}

/** One task of containerd's v2 runtime: its namespace and container id. */
export interface TaskRef {
  namespace: string;
  id: string;
}

/** The tasks with a bundle under `state` (`io.containerd.runtime.v2.task/<namespace>/<id>`). */
export function taskBundles(state: string): TaskRef[] {
  const tasks = join(state, 'io.containerd.runtime.v2.task');
  return safeReaddir(tasks).flatMap((namespace) => safeReaddir(join(tasks, namespace)).map((id) => ({ namespace, id })));
}

/**
 * Removes the cgroups runc made for `ids` and left behind when its container was killed rather than
 * deleted. With no cgroupsPath in the spec (the CRI plugin's disable_cgroup, `ctr run --cgroup ""`),
 * runc still creates one cgroup per container, named by its id, under its own cgroup in every
 * hierarchy: that is, under this process's, which containerd and the shims inherit. rmdir removes
 * only empty cgroups, so a cgroup still in use stays.
 */
export function removeContainerCgroups(ids: readonly string[]): void {
  if (ids.length === 0) return;
  for (const dir of ownCgroupDirs()) {
    for (const id of ids) {
      try {
        rmdirSync(join(dir, id));
      } catch {
        // never made, already removed or still busy
      }
    }
  }
}

/** This process's cgroup directory in every mounted hierarchy (v1 and v2). */
export function ownCgroupDirs(): string[] {
  let mountinfo: string;
  let membership: string;
  try {
    mountinfo = readFileSync('/proc/self/mountinfo', 'utf8');
    membership = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return [];
  }
  // `<id>:<controllers>:<path>`; cgroup v2's line has id 0 and no controllers.
  const paths = new Map<string, string>();
  for (const line of membership.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (match) paths.set(match[1]!, match[2]!);
  }
  const dirs: string[] = [];
  for (const line of mountinfo.split('\n')) {
    // mountinfo: id parent major:minor root mountpoint options [optional...] - fstype source superoptions
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const [fstype, , superOptions = ''] = right.split(' ');
    const [, , , root, mountPoint] = left.split(' ');
    if (!root || !mountPoint || (fstype !== 'cgroup' && fstype !== 'cgroup2')) continue;
    // A v1 hierarchy is the one whose mount options name all of a membership line's controllers.
    const options = superOptions.split(',');
    const key = fstype === 'cgroup2' ? '' : [...paths.keys()].find((k) => k !== '' && k.split(',').every((c) => options.includes(c)));
    const own = key === undefined ? undefined : paths.get(key);
    if (own === undefined || !(root === '/' || own === root || own.startsWith(`${root}/`))) continue;
    dirs.push(join(mountPoint, own.slice(root === '/' ? 0 : root.length)));
  }
  return dirs;
}

/** SIGKILLs each PID that still exists; answers those signalled. */
export function killAll(pids: readonly number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 'SIGKILL');
      return true;
    } catch {
      return false;
    }
  });
}

/** Whether `pid` names a live (not zombie) process. */
export function alive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Lazily unmounts every mount under `dir` (a shim killed mid-way leaves its rootfs mounted). */
export function unmountAllUnder(dir: string): void {
  for (const point of mountsUnder(dir)) {
    try {
      execFileSync('umount', ['--lazy', point], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  }
}

/** Removes `paths`, ignoring those already gone. */
export function removeAll(paths: readonly string[]): void {
  for (const path of paths) rmSync(path, { recursive: true, force: true });
}

function allPids(): number[] {
  return safeReaddir('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

function parentPid(pid: number): number | undefined {
  try {
    // After the command name in parentheses (which may itself hold spaces and parentheses): state, ppid.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
