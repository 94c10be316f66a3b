import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  // The code samples of README.md and docs/ import `memkube` as a user would; here it is the sources.
  resolve: {
    alias: [
      { find: /^memkube$/, replacement: src('index.ts') },
      { find: /^memkube\/adapters\/(.*)$/, replacement: src('http/adapters/$1.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/.samples/**', 'node_modules/**'],
    testTimeout: 30_000,
    pool: 'forks',
  },
});
