import { describe, expect, it } from 'vitest';
import { main } from '../examples/in-process-client.js';

describe('examples/in-process-client', () => {
  it('runs and prints what it did', async () => {
    const lines: string[] = [];
    await main((l) => lines.push(l));
    expect(lines[0]).toMatch(/^created settings at resourceVersion \d+$/);
    expect(lines[1]).toMatch(/^updated to mode=safe, resourceVersion \d+$/);
    expect(lines[2]).toBe(
      '409 Conflict: Operation cannot be fulfilled on configmaps "settings": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect(lines[3]).toBe('listed 1 ConfigMap(s) with app=demo');
  });
});
