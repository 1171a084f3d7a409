import { HttpError, SkiffClient } from "./client";

export interface GatewayStats {
  requests: number;
  hits: number;
  upstreamErrors: number;
}

/** Render gateway stats into el as a small definition list. */
export function renderStats(el: HTMLElement, stats: GatewayStats): void {
  const ratio = stats.requests === 0 ? 0 : stats.hits / stats.requests;
  el.innerHTML = `
    <dl>
      <dt>Requests</dt><dd>${stats.requests}</dd>
      <dt>Cache hit ratio</dt><dd>${(ratio * 100).toFixed(1)} %</dd>
      <dt>Upstream errors</dt><dd>${stats.upstreamErrors}</dd>
    </dl>`;
}

/** Fetch the stats and render them, backing off when the API asks us to. */
export async function refresh(client: SkiffClient, el: HTMLElement): Promise<number> {
  try {
    const stats = await client.get<GatewayStats>("/stats");
    renderStats(el, stats);
    return 5000;
  } catch (err) {
    if (err instanceof HttpError && err.retryAfter > 0) return err.retryAfter;
    el.textContent = `Could not load stats: ${String(err)}`;
    return 30000;
  }
}

/** Poll the stats forever, at the pace refresh returns. */
export function start(client: SkiffClient, el: HTMLElement): void {
  const tick = async () => {
    const delay = await refresh(client, el);
    setTimeout(tick, delay);
  };
  void tick();
}
