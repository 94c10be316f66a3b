/** The preconditions a write names in its body: a resourceVersion to match and a uid. */
import { badRequest } from '../machinery/errors.js';

/** Parses a resourceVersion an update names; Kubernetes answers a non-integer one with 400. */
export function parseUpdateResourceVersion(rv: string): number {
  if (!/^\d+$/.test(rv)) throw badRequest(`invalid resource version: ${rv}`);
  return Number(rv);
}
