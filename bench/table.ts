/**
 * The tables `npm run bench` prints: every figure with its samples (`figureTable`), or only the
 * ratios (`ratioTable`, for `--quick`). Pure functions, so tests check them without a run.
 */
import type { FigureError, FigureResult } from './figure.js';
import { formatSummary } from './stats.js';

/** A figure's target as the tables write it: `>= 0.8×`, or `report` without one. */
export function targetText(f: FigureResult): string {
  return f.target ? `${f.target.op} ${f.target.ratio}×` : 'report';
}

/** The full table: each figure's ours, baseline and ratio (median [min–max]), target and whether it is met. */
export function figureTable(figures: readonly FigureResult[], errors: readonly FigureError[]): string {
  const header = ['figure', 'ours', 'baseline', 'ratio', 'target', 'met?'];
  const rows = figures.map((f) => [
    `${f.id}: ${f.title}`,
    `${formatSummary(f.ours)} ${f.unit}`,
    `${formatSummary(f.baseline)} ${f.unit}`,
    `${formatSummary(f.ratio)}×`,
    targetText(f),
    f.met === undefined ? '-' : f.met ? 'yes' : 'NO',
  ]);
  for (const e of errors) rows.push([`${e.id}: ${e.title}`, 'ERROR', e.error.split('\n')[0]!.slice(0, 120), '', '', 'NO']);
  return renderTable(header, rows);
}

/** Rows under a header, each column as wide as its widest cell. */
export function renderTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join(' | ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)].join('\n');
}

/** The quick run's table: each figure's paired ratio and its target. */
export function ratioTable(figures: readonly FigureResult[], errors: readonly FigureError[]): string {
  const rows = figures.map((f) => [f.id, `${formatSummary(f.ratio)}×`, targetText(f), f.met === undefined ? '-' : f.met ? 'yes' : 'NO']);
  for (const e of errors) rows.push([e.id, 'ERROR', '', 'NO']);
  const header = ['figure', 'ratio (ours / baseline)', 'target', 'met?'];
  return renderTable(header, rows);
}
