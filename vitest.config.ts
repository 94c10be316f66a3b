import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  // The code samples of README.md and docs/ import `memkube` as a user would; here it is the sources.
  resolve: {
    alias: [
      { find: /^memkube$/, replacement: src('index.ts') },
      { find: /^memkube\/adapters\/(.*)$/, replacement: src('http/adapters/$1.ts') },
      { find: /^memkube\/vitest$/, replacement: src('testing/vitest.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/.samples/**', 'node_modules/**'],
    testTimeout: 30_000,
    pool: 'forks',
    // Test files of a worker share its module cache instead of importing memkube anew each: the
    // suite spends most of its time importing, not testing (about 9 minutes instead of 13 on two
    // cores). No test changes globals or mocks modules, so the files stay independent.
    isolate: false,
    // Many files wait on processes they start (kubectl, containerd, Prometheus) more than they
    // compute: at least two workers, even where vitest's default (one fewer than the cores) is one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
