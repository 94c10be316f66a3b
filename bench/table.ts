/**
 * The tables `npm run bench` prints: every figure with its samples (`figureTable`), or only the
 * ratios (`ratioTable`, for `--quick`). Pure functions, so tests check them without a run.
 */
import type { FigureError, FigureResult } from './figure.js';
import { formatNumber, formatSummary } from './stats.js';

/**
 * A figure's targets as the tables write them: `>= 0.8×` (the ratio), `<= 1,536 B/object` (ours
 * itself), both joined by `and`, or `report` without one.
 */
export function targetText(f: FigureResult): string {
  const parts: string[] = [];
  if (f.absoluteTarget) parts.push(`${f.absoluteTarget.op} ${formatNumber(f.absoluteTarget.value)} ${f.unit}`);
  if (f.target) parts.push(`${f.target.op} ${f.target.ratio}×`);
  return parts.length ? parts.join(' and ') : 'report';
}

/** `yes`, `NO`, or `-` without a target; with two targets, the one missed is named (`NO (ratio)`). */
export function metText(f: FigureResult): string {
  if (f.met === undefined) return '-';
  if (f.met) return 'yes';
  const missed = Object.entries(f.metBy ?? {})
    .filter(([, ok]) => !ok)
    .map(([which]) => which);
  return Object.keys(f.metBy ?? {}).length > 1 ? `NO (${missed.join(', ')})` : 'NO';
}

/** A ratio summary as the tables write it; `-` for a figure without a baseline. */
function ratioText(f: FigureResult): string {
  return f.ratio.n === 0 ? '-' : `${formatSummary(f.ratio)}×`;
}

/** The full table: each figure's ours, baseline and ratio (median [min–max]), target and whether it is met. */
export function figureTable(figures: readonly FigureResult[], errors: readonly FigureError[]): string {
  const header = ['figure', 'ours', 'baseline', 'ratio', 'target', 'met?'];
  const rows = figures.map((f) => [
    `${f.id}: ${f.title}`,
    `${formatSummary(f.ours)} ${f.unit}`,
    f.baseline.n === 0 ? '-' : `${formatSummary(f.baseline)} ${f.unit}`,
    ratioText(f),
    targetText(f),
    metText(f),
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

/**
 * The quick run's table: each figure's paired ratio and its targets; for a figure with an absolute
 * target also the median of ours (what that target bounds), in its unit.
 */
export function ratioTable(figures: readonly FigureResult[], errors: readonly FigureError[]): string {
  const rows = figures.map((f) => [f.id, ratioText(f), f.absoluteTarget ? `${formatSummary(f.ours)} ${f.unit}` : '', targetText(f), metText(f)]);
  for (const e of errors) rows.push([e.id, 'ERROR', '', '', 'NO']);
  const header = ['figure', 'ratio (ours / baseline)', 'ours', 'target', 'met?'];
  return renderTable(header, rows);
}
