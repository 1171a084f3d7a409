import { LruCache } from "./cache";
import { parse, retryAfterMs } from "./headers";

export interface RequestOptions {
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

interface CachedResponse {
  etag: string;
  body: unknown;
}

/** An error response from the API. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfter: number,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/**
 * The dashboard's API client: JSON in and out, with ETag revalidation of
 * GETs through a small in-memory cache.
 */
export class SkiffClient {
  private readonly cache = new LruCache<string, CachedResponse>(100);

  constructor(private readonly baseUrl: string) {}

  get<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>("GET", path, opts);
  }

  post<T>(path: string, body: unknown, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>("POST", path, opts, body);
  }

  async request<T>(method: string, path: string, opts: RequestOptions = {}, body?: unknown): Promise<T> {
    const url = this.buildUrl(path, opts.query);
    const headers: Record<string, string> = { Accept: "application/json", ...opts.headers };
    const cached = method === "GET" ? this.cache.get(url) : undefined;
    if (cached) headers["If-None-Match"] = cached.etag;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const resp = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: opts.signal });
    const meta = parse(resp.headers.get("x-skiff-meta") as string);
    if (resp.status === 304 && cached) return cached.body as T;
    if (!resp.ok) {
      throw new HttpError(resp.status, retryAfterMs(resp.headers.get("retry-after")), `${method} ${url}: ${resp.status}`);
    }
    const data = (await resp.json()) as T;
    const etag = resp.headers.get("etag");
    if (method === "GET" && etag && meta.get("cache") !== "no") this.cache.set(url, { etag, body: data });
    return data;
  }

  private buildUrl(path: string, query: RequestOptions["query"] = {}): string {
    const url = new URL(path.replace(/^\//, ""), this.baseUrl.endsWith("/") ? this.baseUrl : this.baseUrl + "/");
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }
}
