/** Helpers of the apps workload tests: the Table `kubectl get` asks for, and a cause's text. */
import type { Cluster } from '../../../src/cluster.js';
import type { Status } from '../../../src/machinery/errors.js';

export interface TableAnswer {
  columnDefinitions: { name: string; type: string; priority: number; description: string }[];
  rows: { cells: unknown[] }[];
}

/** The Table of a list of `resource` (apps/v1, namespace default), as kubectl requests it. */
export async function tableOf(cluster: Cluster, resource: string): Promise<TableAnswer> {
  const res = await cluster.fetch(
    new Request(`http://memkube/apis/apps/v1/namespaces/default/${resource}`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }),
  );
  return (await res.json()) as TableAnswer;
}

/** Each cause as `<field>: <message>`, in order. */
export function causesOf(status: Status): string[] {
  return (status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
}
