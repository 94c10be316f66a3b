/**
 * The node agent's settings from its command line, as kubelet's `NewKubeletCommand`
 * (cmd/kubelet/app/server.go) builds them: flags parsed (pflag's messages); the `--config` file
 * loaded (`loadConfigFile`: decoded, defaulted, relative paths resolved against the file's
 * directory); the `--config-dir` drop-ins merged over it (`mergeKubeletConfigurations`: every
 * `*.conf` file, subdirectories included, in lexical order, each a JSON merge patch over the
 * configuration so far, then defaulted again); the flags that set configuration fields applied
 * again so they win (`kubeletConfigFlagPrecedence`); and the result validated. Without `--config`
 * and `--config-dir` the command line's legacy defaults apply. Nothing is ever written.
 *
 * Precedence, lowest first: defaults < `--config` < drop-ins < flags.
 */
import { openSync, readSync, closeSync, readdirSync } from 'node:fs';
import { posix } from 'node:path';
import { ConfigDecodeError, MAX_CONFIG_BYTES } from '../../config/decode.js';
import {
  DEFAULT_EVICTION_HARD,
  FeatureGateError,
  aggregateErrorText,
  decodeDropInObject,
  decodeMergedConfiguration,
  decodeNodeAgentConfiguration,
  isNodeAgentConfigurationKind,
  legacyNodeAgentDefaults,
  resolveFeatureGates,
  validateNodeAgentConfiguration,
  withNodeAgentDefaults,
  type DefaultedNodeAgentConfiguration,
  type NodeAgentConfiguration,
} from '../../config/nodeagent/index.js';
import { mergePatchValues } from '../../patch/merge-patch.js';
import { applyConfigFlags, defaultNodeAgentFlags, nodeAgentUsage, parseNodeAgentFlags, type NodeAgentFlags } from './flags.js';
import { nodeLabelsError } from './node-labels.js';
import { FlagParseError } from './pflag.js';

export type { NodeAgentFlags } from './flags.js';

/**
 * One entry of a directory, as `fs.readdirSync(..., { withFileTypes: true })` gives it (symbolic links not followed).
 * @category Node agent
 */
export interface NodeAgentDirEntry {
  readonly name: string;
  /** A directory itself, not a link to one: Go's `WalkDir` does not follow links either. */
  readonly isDirectory: boolean;
}

/**
 * How the loader reads files; both may throw Node's `ErrnoException`s (`ENOENT`, `EACCES`, `ELOOP`, ...).
 * @category Node agent
 */
export interface NodeAgentLoadOptions {
  /** A file's bytes. Default: a bounded read of the real file. */
  readonly readFile?: (path: string) => Uint8Array | string;
  /** A directory's entries. Default: `fs.readdirSync` with file types. */
  readonly readDir?: (path: string) => readonly NodeAgentDirEntry[];
  /** The directory relative paths start from (`--config`, `--config-dir`). Default `process.cwd()`. */
  readonly cwd?: string;
  /** Refuse unknown and duplicated fields of the `--config` file instead of warning (kubelet warns). */
  readonly strict?: boolean;
}

/**
 * What the node agent runs with.
 * @category Node agent
 */
export interface NodeAgentSettings {
  /** The settings only flags give (`--kubeconfig`, `--root-dir`, `--node-ip`, ...). */
  readonly flags: NodeAgentFlags;
  /** The configuration: defaults, file, drop-ins and flags combined; fully defaulted and validated. */
  readonly config: DefaultedNodeAgentConfiguration;
  /** Deprecated flags used, unknown fields decoded leniently, ... (kubelet logs these). */
  readonly warnings: readonly string[];
  /** With `--help`: the usage text (nothing was loaded or validated). */
  readonly usage?: string;
}

/**
 * Settings kubelet would refuse at start; the message is kubelet's, naming the flag, file or field.
 * @category Node agent
 */
export class NodeAgentConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NodeAgentConfigError';
  }
}

/** At most this many drop-in files are merged, and directories nest this deep (bounds on hostile trees). */
export const MAX_DROP_IN_FILES = 1000;
/** How deep drop-in directories may nest. */
export const MAX_DROP_IN_DEPTH = 32;
const MAX_DIR_ENTRIES = 100_000;

/** Go's `syscall.Errno` texts. */
const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EISDIR: 'is a directory',
  EMFILE: 'too many open files',
};

/** Go's `*fs.PathError` text: `open /x: no such file or directory`. */
function pathError(op: string, path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code ?? '';
  const text = ERRNO_TEXT[code] ?? (e instanceof Error ? e.message : String(e));
  return `${code === 'EISDIR' && op === 'open' ? 'read' : op} ${path}: ${text}`;
}

class FileTooLarge extends Error {}

/** Reads at most {@link MAX_CONFIG_BYTES} + 1 bytes, so a huge file (or `/dev/zero`) is never read whole. */
function boundedReadFile(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.alloc(64 * 1024);
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (total > MAX_CONFIG_BYTES) throw new FileTooLarge();
    }
    return Buffer.concat(chunks);
  } finally {
    closeSync(fd);
  }
}

function defaultReadDir(path: string): NodeAgentDirEntry[] {
  return readdirSync(path, { withFileTypes: true }).map((d) => ({ name: d.name, isDirectory: d.isDirectory() }));
}

interface Io {
  readonly readFile: (path: string) => Uint8Array | string;
  readonly readDir: (path: string) => readonly NodeAgentDirEntry[];
  readonly cwd: string;
}

/** A file's text, or the loader's message: `failed to read <what> "<path>", error: open <path>: ...` / `... was empty`. */
function readText(io: Io, abs: string, what: string): string {
  let data: Uint8Array | string;
  try {
    data = io.readFile(abs);
  } catch (e) {
    if (e instanceof FileTooLarge)
      throw new ConfigDecodeError(`failed to read ${what} ${JSON.stringify(abs)}, error: file is larger than ${MAX_CONFIG_BYTES} bytes`);
    throw new ConfigDecodeError(`failed to read ${what} ${JSON.stringify(abs)}, error: ${pathError('open', abs, e)}`);
  }
  const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  if (bytes > MAX_CONFIG_BYTES)
    throw new ConfigDecodeError(`failed to read ${what} ${JSON.stringify(abs)}, error: file is larger than ${MAX_CONFIG_BYTES} bytes`);
  if (bytes === 0) throw new ConfigDecodeError(`kubelet config file ${JSON.stringify(abs)} was empty`);
  return typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
}

/** `KubeletConfigurationPathRefs` resolved against `root` (`resolveRelativePaths`): empty and absolute paths stay. */
function resolveRelativePaths(c: DefaultedNodeAgentConfiguration, root: string): DefaultedNodeAgentConfiguration {
  const fix = (p: string | undefined) => (p && !p.startsWith('/') ? posix.join(root, p) : p);
  return {
    ...c,
    staticPodPath: fix(c.staticPodPath)!,
    tlsCertFile: fix(c.tlsCertFile)!,
    tlsPrivateKeyFile: fix(c.tlsPrivateKeyFile)!,
    resolvConf: fix(c.resolvConf),
    volumePluginDir: fix(c.volumePluginDir),
    authentication: { ...c.authentication, x509: { clientCAFile: fix(c.authentication.x509.clientCAFile)! } },
  };
}

/** `loadConfigFile`: the file decoded, defaulted against the flags' gates, paths made absolute, eviction defaults. */
function loadConfigFile(io: Io, name: string, gates: Record<string, boolean>, strict: boolean, warnings: string[]): DefaultedNodeAgentConfiguration {
  const abs = posix.resolve(io.cwd, name);
  let decoded;
  try {
    const text = readText(io, abs, 'kubelet config file');
    try {
      decoded = decodeNodeAgentConfiguration(text, { strict });
    } catch (e) {
      if (e instanceof ConfigDecodeError) throw new ConfigDecodeError(`failed to decode: ${e.message}`);
      throw e;
    }
  } catch (e) {
    if (e instanceof ConfigDecodeError)
      throw new NodeAgentConfigError(
        `failed to load kubelet config file, path: ${name}, error: failed to load Kubelet config file ${name}, error ${e.message}`,
      );
    throw e;
  }
  warnings.push(...decoded.warnings);
  let config: DefaultedNodeAgentConfiguration;
  try {
    config = withNodeAgentDefaults(decoded.config, gates);
  } catch (e) {
    // kubelet's defaulting panics on a gate it cannot set; the file is the cause.
    if (e instanceof FeatureGateError) throw new NodeAgentConfigError(`failed to load kubelet config file, path: ${name}, error: ${e.message}`);
    throw e;
  }
  config = resolveRelativePaths(config, posix.dirname(abs));
  if (config.evictionHard === undefined) config = { ...config, evictionHard: { ...DEFAULT_EVICTION_HARD } };
  else if (config.mergeDefaultEvictionSettings) config = { ...config, evictionHard: { ...DEFAULT_EVICTION_HARD, ...config.evictionHard } };
  return config;
}

/** `filepath.WalkDir` of a drop-in directory: files in lexical order, directories entered where they sort. */
function* walkDropIns(io: Io, root: string): Generator<string> {
  let entries: readonly NodeAgentDirEntry[];
  const rootAbs = posix.resolve(io.cwd, root);
  try {
    entries = io.readDir(rootAbs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException | undefined)?.code;
    // The root may be a single file (WalkDir visits it alone).
    if (code === 'ENOTDIR') {
      yield root;
      return;
    }
    throw new ConfigDecodeError(pathError(code === 'ENOENT' || code === 'ELOOP' ? 'lstat' : 'open', root, e));
  }
  let seen = 0;
  const stack: { dir: string; entries: readonly NodeAgentDirEntry[]; at: number; depth: number }[] = [
    { dir: root, entries: sortEntries(entries), at: 0, depth: 0 },
  ];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.at >= top.entries.length) {
      stack.pop();
      continue;
    }
    const entry = top.entries[top.at++]!;
    if (++seen > MAX_DIR_ENTRIES) throw new ConfigDecodeError(`more than ${MAX_DIR_ENTRIES} entries in the drop-in directory`);
    const path = posix.join(top.dir, entry.name);
    if (!entry.isDirectory) {
      yield path;
      continue;
    }
    if (top.depth + 1 > MAX_DROP_IN_DEPTH) throw new ConfigDecodeError(`${path}: drop-in directories nest deeper than ${MAX_DROP_IN_DEPTH} levels`);
    let children: readonly NodeAgentDirEntry[];
    try {
      children = io.readDir(posix.resolve(io.cwd, path));
    } catch (e) {
      throw new ConfigDecodeError(pathError('open', path, e));
    }
    stack.push({ dir: path, entries: sortEntries(children), at: 0, depth: top.depth + 1 });
  }
}

/** Go's `os.ReadDir` order: by name, byte-wise. */
function sortEntries(entries: readonly NodeAgentDirEntry[]): NodeAgentDirEntry[] {
  return [...entries].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
}

/** `mergeKubeletConfigurations`: each `*.conf` drop-in merged over `base` as a JSON merge patch, then decoded and defaulted. */
function mergeDropIns(io: Io, dir: string, base: NodeAgentConfiguration, gates: Record<string, boolean>): DefaultedNodeAgentConfiguration {
  let merged: unknown = structuredClone(base);
  let files = 0;
  try {
    for (const path of walkDropIns(io, dir)) {
      if (posix.extname(path) !== '.conf') continue;
      if (++files > MAX_DROP_IN_FILES) throw new ConfigDecodeError(`more than ${MAX_DROP_IN_FILES} drop-in files`);
      let object;
      try {
        object = decodeDropInObject(readText(io, posix.resolve(io.cwd, path), 'drop-in kubelet config file'));
      } catch (e) {
        if (e instanceof ConfigDecodeError) throw new ConfigDecodeError(`failed to load kubelet dropin file, path: ${path}, error: ${e.message}`);
        throw e;
      }
      if (!isNodeAgentConfigurationKind(object.apiVersion, object.kind)) {
        const gv = object.apiVersion.includes('/') ? object.apiVersion : `/${object.apiVersion}`;
        throw new ConfigDecodeError(`failed to load kubelet dropin file, path: ${path}, unknown apiVersion/kind: ${gv}, Kind=${object.kind}`);
      }
      merged = mergePatchValues(merged, structuredClone(object.object));
    }
  } catch (e) {
    if (e instanceof ConfigDecodeError)
      throw new NodeAgentConfigError(`failed to merge kubelet configs: failed to walk through kubelet dropin directory ${JSON.stringify(dir)}: ${e.message}`);
    throw e;
  }
  let decoded: NodeAgentConfiguration;
  try {
    decoded = decodeMergedConfiguration(merged as Record<string, unknown>);
  } catch (e) {
    if (e instanceof ConfigDecodeError)
      throw new NodeAgentConfigError(`failed to merge kubelet configs: failed to unmarshal merged JSON into kubelet configuration: ${e.message}`);
    throw e;
  }
  try {
    return withNodeAgentDefaults(decoded, gates);
  } catch (e) {
    if (e instanceof FeatureGateError) throw new NodeAgentConfigError(`failed to merge kubelet configs: ${e.message}`);
    throw e;
  }
}

function gatesOrFail(gates: Record<string, boolean> | undefined): Record<string, boolean> {
  try {
    resolveFeatureGates(gates);
  } catch (e) {
    if (e instanceof FeatureGateError) throw new NodeAgentConfigError(`failed to set feature gates from initial flags-based config: ${e.message}`);
    throw e;
  }
  return { ...(gates ?? {}) };
}

/**
 * The node agent's settings from `argv` (its arguments, without the program name). Throws a
 * {@link NodeAgentConfigError} with kubelet's message:
 * `failed to parse kubelet flag: unknown flag: --x`,
 * `failed to load kubelet config file, path: ..., error: ...`,
 * `failed to merge kubelet configs: ...`,
 * `failed to validate kubelet configuration, error: invalid configuration: port (--port) 0 must be between 1 and 65535, inclusive`.
 * @category Node agent
 */
export function loadNodeAgentSettings(argv: readonly string[], options: NodeAgentLoadOptions = {}): NodeAgentSettings {
  const io: Io = { readFile: options.readFile ?? boundedReadFile, readDir: options.readDir ?? defaultReadDir, cwd: options.cwd ?? process.cwd() };
  const flags = defaultNodeAgentFlags();
  const targets = { config: legacyNodeAgentDefaults() as NodeAgentConfiguration, flags };
  let parsed;
  try {
    parsed = parseNodeAgentFlags(argv, targets);
  } catch (e) {
    if (e instanceof FlagParseError) throw new NodeAgentConfigError(`failed to parse kubelet flag: ${e.message}`);
    throw e;
  }
  const warnings = [...parsed.warnings];
  if (parsed.parsed.args.length > 0) throw new NodeAgentConfigError(`unknown command ${parsed.parsed.args[0]}`);
  if (flags.help) {
    return {
      flags,
      config: targets.config as DefaultedNodeAgentConfiguration,
      warnings,
      usage: nodeAgentUsage({ config: legacyNodeAgentDefaults(), flags: defaultNodeAgentFlags() }),
    };
  }
  const flagGates = gatesOrFail(targets.config.featureGates);
  const labels = nodeLabelsError(flags.nodeLabels);
  if (labels) throw new NodeAgentConfigError(`failed to validate kubelet flags: ${labels}`);

  let config = targets.config as DefaultedNodeAgentConfiguration;
  if (flags.config) config = loadConfigFile(io, flags.config, flagGates, options.strict ?? false, warnings);
  if (flags.configDir) config = mergeDropIns(io, flags.configDir, config, flagGates);
  if (flags.config || flags.configDir) {
    config = applyConfigFlags(parsed.parsed, config) as DefaultedNodeAgentConfiguration;
    gatesOrFail(config.featureGates);
  }
  const errs = validateNodeAgentConfiguration(config);
  if (errs.length > 0) throw new NodeAgentConfigError(`failed to validate kubelet configuration, error: ${aggregateErrorText(errs)}`);
  return { flags, config, warnings };
}
