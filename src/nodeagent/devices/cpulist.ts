/**
 * The smallest CPU of a Linux CPU list (`0-3,8-11`), parsed as k8s.io/utils/cpuset `Parse` parses
 * one but without expanding ranges, so a hostile `0-4294967295` costs nothing.
 */
import { goAtoi } from './sysfs.js';

/** The smallest CPU of `list`, `undefined` for an empty list; throws for a malformed one. */
export function smallestCPU(list: string): number | undefined {
  if (list === '') return undefined;
  let smallest: number | undefined;
  for (const range of list.split(',')) {
    const dash = range.indexOf('-', 1);
    const start = goAtoi(dash === -1 ? range : range.slice(0, dash));
    if (dash !== -1) {
      const end = goAtoi(range.slice(dash + 1));
      if (start > end) throw new Error(`invalid range ${JSON.stringify(range)} (${start} > ${end})`);
    }
    if (smallest === undefined || start < smallest) smallest = start;
  }
  return smallest;
}
