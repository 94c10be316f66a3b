/**
 * Strings that a stored object keeps for its whole life, made compact. V8 builds a concatenated
 * string as a tree of pieces (a UUID from `randomUUID` is about twenty, some 600 bytes); a copy
 * made by the JSON parser is one flat string (about 60 bytes for a UUID).
 */
import { formatTime } from '../clock.js';

/** `text` as one flat string. */
export function flatString(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

let lastSecond = Number.NaN;
let lastText = '';

/**
 * {@link formatTime} (RFC 3339 seconds, UTC), one shared flat string per second: every object
 * written in the same second keeps the same string.
 */
export function timeText(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  if (second !== lastSecond) {
    lastText = flatString(formatTime(epochMs));
    lastSecond = second;
  }
  return lastText;
}
