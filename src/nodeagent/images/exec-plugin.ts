/**
 * Running one credential provider exec plugin (pkg/credentialprovider/plugin/plugin.go
 * `execPlugin.ExecPlugin`): `<binDir>/<name> args...` with the node agent's environment plus the
 * provider's `env`, a `CredentialProviderRequest` on stdin, a `CredentialProviderResponse` expected
 * on stdout in the provider's `apiVersion`. The kubelet's catch-all timeout is one minute; memkube
 * also bounds the output, since a plugin printing without end would otherwise fill the memory.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { z } from 'zod';
import { parseGoDuration } from '../../util/go-time.js';
import { ConfigDecodeError, decodeStrictly } from '../../config/decode.js';
import type { ValidCredentialProvider } from './credential-provider-config.js';

/** The kubelet's timeout of one plugin run. */
export const DEFAULT_PLUGIN_TIMEOUT_MS = 60_000;
/** The most stdout (and, separately, stderr) read from a plugin. */
export const DEFAULT_PLUGIN_MAX_OUTPUT_BYTES = 1024 * 1024;

/** The key a response is cached under: the image, its registry, or one key for every image. */
export type PluginCacheKeyType = 'Image' | 'Registry' | 'Global';

/** A decoded `CredentialProviderResponse`. */
export interface CredentialProviderResponse {
  readonly cacheKeyType: PluginCacheKeyType;
  /** How long to cache, in milliseconds; absent: the provider's `defaultCacheDuration`. */
  readonly cacheDurationMs?: number;
  /** Credentials by image glob (`registry.io`, `*.registry.io/team`). */
  readonly auth: Readonly<Record<string, { readonly username: string; readonly password: string }>>;
}

/** A plugin run that failed; the message is the kubelet's and never holds the plugin's stdout. */
export class CredentialPluginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialPluginError';
  }
}

const AuthConfigSchema = z.object({ username: z.string().optional(), password: z.string().optional() });
const ResponseSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  cacheKeyType: z.string().optional(),
  cacheDuration: z.string().optional(),
  auth: z.record(z.string(), AuthConfigSchema).optional(),
});

/** Options of one run. */
export interface ExecPluginOptions {
  readonly binDir: string;
  readonly provider: ValidCredentialProvider;
  readonly image: string;
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** The environment the plugin starts from; default the node agent's. */
  readonly environment?: NodeJS.ProcessEnv;
}

/** Runs the plugin for `image` and decodes its answer; throws {@link CredentialPluginError}. */
export async function execCredentialPlugin(options: ExecPluginOptions): Promise<CredentialProviderResponse> {
  const { provider, image } = options;
  const request = JSON.stringify({ kind: 'CredentialProviderRequest', apiVersion: provider.apiVersion, image });
  const env: NodeJS.ProcessEnv = { ...(options.environment ?? process.env) };
  for (const v of provider.env) env[v.name] = v.value;
  const run = await runBounded(
    join(options.binDir, provider.name),
    provider.args,
    env,
    request,
    options.timeoutMs ?? DEFAULT_PLUGIN_TIMEOUT_MS,
    options.maxOutputBytes ?? DEFAULT_PLUGIN_MAX_OUTPUT_BYTES,
  );
  const failure = run.timedOut
    ? 'context deadline exceeded'
    : run.overflow
      ? `output exceeded ${options.maxOutputBytes ?? DEFAULT_PLUGIN_MAX_OUTPUT_BYTES} bytes`
      : run.error;
  if (failure !== undefined) {
    throw new CredentialPluginError(`error execing credential provider plugin ${provider.name} for image ${image}: ${failure}: ${run.stderr}`);
  }
  return decodeResponse(run.stdout, provider.apiVersion);
}

function decodeResponse(stdout: string, apiVersion: string): CredentialProviderResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch (e) {
    throw new CredentialPluginError(`error reading GVK from response: couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CredentialPluginError("error reading GVK from response: couldn't get version/kind; json parse error: not a JSON object");
  }
  const gv = (parsed as { apiVersion?: unknown }).apiVersion;
  const actual = typeof gv === 'string' ? gv : '';
  if (actual !== apiVersion) {
    throw new CredentialPluginError(`apiVersion from credential plugin response did not match expected apiVersion:${apiVersion}, actual apiVersion:${actual}`);
  }
  let response: z.infer<typeof ResponseSchema>;
  try {
    response = decodeStrictly<z.infer<typeof ResponseSchema>>(parsed, ResponseSchema);
  } catch (e) {
    // As the kubelet, the decoder's words are not repeated: they may quote credentials.
    if (e instanceof ConfigDecodeError) throw new CredentialPluginError('error decoding credential provider plugin response from stdout');
    throw e;
  }
  if (response.kind !== 'CredentialProviderResponse') {
    throw new CredentialPluginError(`failed to decode CredentialProviderResponse, unexpected Kind: ${JSON.stringify(response.kind ?? '')}`);
  }
  const cacheKeyType = response.cacheKeyType;
  if (cacheKeyType !== 'Image' && cacheKeyType !== 'Registry' && cacheKeyType !== 'Global') {
    throw new CredentialPluginError(`credential provider plugin did not return a valid cacheKeyType: ${JSON.stringify(cacheKeyType ?? '')}`);
  }
  let cacheDurationMs: number | undefined;
  if (response.cacheDuration !== undefined) {
    const ns = parseGoDuration(response.cacheDuration);
    if (ns === undefined) throw new CredentialPluginError('error decoding credential provider plugin response from stdout');
    cacheDurationMs = Number(ns / 1_000_000n);
  }
  const auth: Record<string, { username: string; password: string }> = {};
  for (const [key, value] of Object.entries(response.auth ?? {})) auth[key] = { username: value.username ?? '', password: value.password ?? '' };
  return { cacheKeyType, ...(cacheDurationMs !== undefined ? { cacheDurationMs } : {}), auth };
}

interface RunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly overflow: boolean;
  /** `exit status 1`, `signal: killed`, or the spawn error. */
  readonly error?: string;
}

function runBounded(file: string, args: readonly string[], env: NodeJS.ProcessEnv, stdin: string, timeoutMs: number, maxBytes: number): Promise<RunResult> {
  return new Promise((resolve) => {
    // Its own process group, so a timeout kills what the plugin started too (a shell's `sleep`).
    const child = spawn(file, [...args], { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let timedOut = false;
    let overflow = false;
    let spawnError: string | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxBytes) {
        overflow = true;
        kill();
      } else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      // Stderr only decorates an error message: keep its first bytes, drop the rest.
      if (errBytes < maxBytes) err.push(chunk.subarray(0, maxBytes - errBytes));
      errBytes += chunk.length;
    });
    child.stdin.on('error', () => {
      // A plugin that exits without reading its request: its exit status tells the story.
    });
    child.on('error', (e) => {
      spawnError = `fork/exec ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : e.message}`;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const error = spawnError ?? (code !== 0 && code !== null ? `exit status ${code}` : signal ? `signal: ${signalName(signal)}` : undefined);
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        timedOut,
        overflow,
        ...(error !== undefined ? { error } : {}),
      });
    });
    child.stdin.end(stdin);
  });
}

function signalName(signal: NodeJS.Signals): string {
  return signal === 'SIGKILL' ? 'killed' : signal === 'SIGTERM' ? 'terminated' : signal;
}
