/**
 * The ways kubelet's server writes an answer, each with Go's exact bytes and headers: net/http's
 * `http.Error` (text, `nosniff`, a trailing newline), go-restful's `WriteErrorString` (the text as
 * is, its type sniffed by net/http as `text/plain; charset=utf-8`), and kubelet's
 * `writeJSONResponse` (`application/json`).
 */
import type { ServerResponse } from 'node:http';

const TEXT_PLAIN = 'text/plain; charset=utf-8';

/** net/http `http.Error`: the message and a newline, `text/plain`, `X-Content-Type-Options: nosniff`. */
export function httpError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': TEXT_PLAIN, 'X-Content-Type-Options': 'nosniff' });
  res.end(`${message}\n`);
}

/** go-restful `Response.WriteErrorString`: the text alone; net/http sniffs its type (plain text). */
export function writeErrorString(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, text.length ? { ...headers, 'Content-Type': TEXT_PLAIN } : headers);
  res.end(text);
}

/** kubelet's `writeJSONResponse`: already encoded JSON, 200. */
export function writeJson(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(body);
}

/** net/http's `http.Redirect` with 301 (the HTML body only for GET and HEAD, as Go writes it). */
export function movedPermanently(res: ServerResponse, method: string, location: string): void {
  if (method === 'GET' || method === 'HEAD') {
    res.writeHead(301, { Location: location, 'Content-Type': 'text/html; charset=utf-8' });
    res.end(method === 'GET' ? `<a href="${htmlEscape(location)}">Moved Permanently</a>.\n\n` : undefined);
    return;
  }
  res.writeHead(301, { Location: location });
  res.end();
}

function htmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' })[c]!);
}
