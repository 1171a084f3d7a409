// Parsing of the header values the dashboard cares about.

/**
 * Parse a raw header block, as XMLHttpRequest.getAllResponseHeaders
 * returns it, into a map keyed by lower-case name.
 */
export function parse(raw: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of raw.trim().split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const prev = headers.get(name);
    headers.set(name, prev === undefined ? value : `${prev}, ${value}`);
  }
  return headers;
}

/**
 * Milliseconds a Retry-After value asks to wait: whole seconds or an
 * HTTP date. A missing or unreadable value means no wait.
 */
export function retryAfterMs(value: string | null, now: number = Date.now()): number {
  if (value === null) return 0;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const when = Date.parse(value);
  return Number.isNaN(when) ? 0 : Math.max(0, when - now);
}
