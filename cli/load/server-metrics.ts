// The server's own figures for a load report, read from its GET /metrics (see server/http/metrics.ts): per-stage turn
// timings (a summary over the server's latest turns), the turn and error counters as deltas over the load, open
// sockets, memory and event-loop delay. A server without /metrics (or with something else there) gives null.
import { findSample, parsePrometheus, type Sample } from './prometheus.js';

export type StageFigures = { p50: number | null; p95: number | null; p99: number | null; mean: number | null; count: number | null };
/** A counter at the end of the load and its increase during the load (null when either scrape lacks it or it went down). */
export type CounterFigures = { total: number | null; during_load: number | null };

export type ServerMetrics = {
  /** Over the server's latest turns (a window), not only the load's. */
  stages_ms: Record<string, StageFigures>;
  turns: CounterFigures;
  turn_errors: CounterFigures;
  websocket_clients: number | null;
  resident_memory_mib: number | null;
  heap_used_mib: number | null;
  event_loop_delay_ms: { p50: number | null; p99: number | null; max: number | null };
};

export type Scrape = { ok: true; samples: Sample[] } | { ok: false; error: string };

/** GET /metrics, parsed; never throws. */
/** Reads GET /metrics; METRICS_TOKEN (environment) is sent as a bearer token when the server wants one. */
export async function scrapeMetrics(url: string, timeoutMs = 10_000, token = process.env.METRICS_TOKEN): Promise<Scrape> {
  try {
    const res = await fetch(`${url.replace(/\/+$/, '')}/metrics`, { signal: AbortSignal.timeout(timeoutMs), ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) });
    const text = await res.text();
    if (!res.ok) return { ok: false, error: `GET /metrics answered HTTP ${res.status}${res.status === 401 ? ' (set METRICS_TOKEN)' : res.status === 403 ? ' (the server serves metrics to its own machine only)' : ''}` };
    const parsed = parsePrometheus(text);
    if (!parsed.ok) return { ok: false, error: `GET /metrics is not in the Prometheus text format (${parsed.error})` };
    if (!parsed.samples.length) return { ok: false, error: 'GET /metrics has no samples' };
    return parsed;
  } catch (e) {
    return { ok: false, error: `GET /metrics failed: ${(e as Error).message}` };
  }
}

const round = (v: number | null | undefined, digits: number): number | null => {
  if (v === null || v === undefined || !Number.isFinite(v)) return null;
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};
const MS = 1000;
const MIB = 1 / (1024 * 1024);

function scaled(samples: readonly Sample[], name: string, labels: Record<string, string>, factor: number, digits: number): number | null {
  const v = findSample(samples, name, labels)?.value;
  return v === undefined ? null : round(v * factor, digits);
}

/** A summary's quantile, matching the quantile label by number ("0.5" and "0.50" alike). */
function quantile(samples: readonly Sample[], name: string, labels: Record<string, string>, q: number): number | null {
  const s = samples.find((x) => x.name === name && Number(x.labels.quantile) === q && Object.entries(labels).every(([k, v]) => Object.hasOwn(x.labels, k) && x.labels[k] === v));
  return s ? round(s.value * MS, 2) : null;
}

function counter(before: readonly Sample[] | null, after: readonly Sample[], name: string): CounterFigures {
  const end = findSample(after, name)?.value;
  const start = before ? findSample(before, name)?.value : undefined;
  const total = round(end, 6);
  const delta = end !== undefined && start !== undefined && Number.isFinite(end) && Number.isFinite(start) && end >= start ? round(end - start, 6) : null;
  return { total, during_load: delta };
}

/** The report's server figures from the scrape before the load (for deltas; null if it failed) and the one after. */
export function serverMetrics(before: readonly Sample[] | null, after: readonly Sample[]): ServerMetrics {
  const STAGE = 'looptale_turn_stage_seconds';
  const stages: string[] = [];
  for (const s of after) {
    const stage = s.labels.stage;
    if ((s.name === STAGE || s.name === `${STAGE}_count` || s.name === `${STAGE}_sum`) && stage !== undefined && !stages.includes(stage)) stages.push(stage);
  }
  const stages_ms = Object.fromEntries(stages.map((stage): [string, StageFigures] => {
    const count = findSample(after, `${STAGE}_count`, { stage })?.value;
    const sum = findSample(after, `${STAGE}_sum`, { stage })?.value;
    return [stage, {
      p50: quantile(after, STAGE, { stage }, 0.5), p95: quantile(after, STAGE, { stage }, 0.95), p99: quantile(after, STAGE, { stage }, 0.99),
      mean: count && sum !== undefined ? round((sum / count) * MS, 2) : null, count: round(count, 0),
    }];
  }));
  return {
    stages_ms,
    turns: counter(before, after, 'looptale_turns_total'),
    turn_errors: counter(before, after, 'looptale_turn_errors_total'),
    websocket_clients: scaled(after, 'looptale_websocket_clients', {}, 1, 0),
    resident_memory_mib: scaled(after, 'process_resident_memory_bytes', {}, MIB, 1),
    heap_used_mib: scaled(after, 'nodejs_heap_used_bytes', {}, MIB, 1) ?? scaled(after, 'nodejs_heap_size_used_bytes', {}, MIB, 1),
    event_loop_delay_ms: {
      p50: quantile(after, 'nodejs_eventloop_delay_seconds', {}, 0.5),
      p99: quantile(after, 'nodejs_eventloop_delay_seconds', {}, 0.99),
      max: scaled(after, 'nodejs_eventloop_delay_seconds_max', {}, MS, 2),
    },
  };
}

/** The human report's lines for the server's figures. */
export function formatServerMetrics(m: ServerMetrics | null, error: string | null): string[] {
  if (!m) return [`server /metrics: not available${error ? ` (${error})` : ''}`];
  const n = (v: number | null, unit = ''): string => (v === null ? '-' : `${v}${unit}`);
  const c = (x: CounterFigures): string => `${n(x.during_load)} during the load (${n(x.total)} since start)`;
  const eld = m.event_loop_delay_ms;
  return [
    `server /metrics: turns ${c(m.turns)}, turn errors ${c(m.turn_errors)}, websocket clients at the end ${n(m.websocket_clients)}`,
    `  memory: resident ${n(m.resident_memory_mib, ' MiB')}, heap used ${n(m.heap_used_mib, ' MiB')}; event-loop delay p50 ${n(eld.p50, ' ms')}, p99 ${n(eld.p99, ' ms')}, max ${n(eld.max, ' ms')}`,
    ...Object.entries(m.stages_ms).map(([k, s]) => `  stage ${k}: p50 ${n(s.p50, ' ms')}, p95 ${n(s.p95, ' ms')}, p99 ${n(s.p99, ' ms')}, mean ${n(s.mean, ' ms')} (latest ${n(s.count)} turns)`),
  ];
}
