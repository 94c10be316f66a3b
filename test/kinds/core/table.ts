/** The Table (`kubectl get`) the HTTP door answers for a path. */
import type { Cluster } from '../../../src/cluster.js';

export interface TestTable {
  columnDefinitions: { name: string; type: string; priority: number }[];
  rows: { cells: unknown[] }[];
}

export async function tableOf(cluster: Cluster, path: string): Promise<TestTable> {
  const res = await cluster.fetch(new Request(`http://memkube${path}`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }));
  return (await res.json()) as TestTable;
}

/** The causes of a field error Status as `field: message` lines. */
export function causeLines(status: { details?: { causes?: { field?: string; message?: string }[] } }): string[] {
  return (status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
}
