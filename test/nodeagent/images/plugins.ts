/** Fake credential provider plugins: small shell scripts in a temp directory. */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class PluginDir {
  readonly dir = mkdtempSync(join(tmpdir(), 'memkube-plugins-'));

  /** A plugin whose body is `script` (POSIX sh); it appends its request to `<name>.log`. */
  plugin(name: string, script: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, `#!/bin/sh\ncat >> "${this.dir}/${name}.log"\necho >> "${this.dir}/${name}.log"\n${script}\n`);
    chmodSync(path, 0o755);
    return path;
  }

  /** A plugin answering `response` (an object, printed as JSON). */
  answering(name: string, response: unknown): string {
    return this.plugin(name, `cat <<'JSON'\n${JSON.stringify(response)}\nJSON`);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export const v1Response = (auth: Record<string, { username: string; password: string }>, extra: Record<string, unknown> = {}) => ({
  kind: 'CredentialProviderResponse',
  apiVersion: 'credentialprovider.kubelet.k8s.io/v1',
  cacheKeyType: 'Image',
  auth,
  ...extra,
});
