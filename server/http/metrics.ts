// GET /metrics in the Prometheus text format: per-stage turn timings (decode, stt, brain, engine+db, tts first chunk,
// total to the first GAME_OUTPUT and to the first AUDIO_ANSWER) as summaries over the latest turns, turn and error
// counters, open sockets, memory and event-loop delay. Not public: loopback peers by default, or a bearer
// METRICS_TOKEN (METRICS_ACCESS chooses). prom-client (the maintained Prometheus client for Node) holds the registry
// and writes the exposition (HELP/TYPE lines, label escaping, number formatting, content type) instead of our own
// string building; metric names, labels and types are the ones the load tool, the bench and the tests read.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import { Counter, Gauge, Registry, Summary } from 'prom-client';
import { safeEqual } from '../auth/tokens.js';
import { metricsAccess } from '../config.js';
import type { RouteModule } from './app.js';
import { HttpError } from './errors.js';
import { isLocalRequest } from './local-only.js';
import { route } from './route.js';

const WINDOW = 5000;
const QUANTILES = [0.5, 0.95, 0.99];

type SummaryValues = Awaited<ReturnType<Summary['get']>>;

/**
 * prom-client's Summary estimates quantiles with a t-digest over all samples (or a time window). A turn's stages are
 * read as exact nearest-rank quantiles over the latest WINDOW turns (what the load report and the bench compare run
 * to run), so this summary keeps that window and only its collection differs; naming, HELP/TYPE and the text format
 * are prom-client's.
 */
class StageSummary extends Summary<'stage'> {
  readonly #samples = new Map<string, number[]>();

  observeStage(stage: string, ms: number): void {
    let list = this.#samples.get(stage);
    if (!list) {
      list = [];
      this.#samples.set(stage, list);
    }
    list.push(ms);
    if (list.length > WINDOW) list.splice(0, list.length - WINDOW);
  }

  override async get(): Promise<SummaryValues> {
    const base = await super.get();
    const values: SummaryValues['values'] = [];
    for (const [stage, list] of [...this.#samples].sort(([a], [b]) => a.localeCompare(b))) {
      const sorted = [...list].sort((a, b) => a - b);
      for (const q of QUANTILES) {
        const v = sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
        values.push({ labels: { stage, quantile: q }, value: v / 1000 });
      }
      values.push({ metricName: `${base.name}_sum`, labels: { stage }, value: sorted.reduce((a, b) => a + b, 0) / 1000 });
      values.push({ metricName: `${base.name}_count`, labels: { stage }, value: sorted.length });
    }
    return { ...base, values };
  }
}

/** Node's own event-loop delay histogram (perf_hooks) as a summary: median, p99 and the maximum, in seconds. */
class EventLoopDelaySummary extends Summary {
  constructor(config: ConstructorParameters<typeof Summary>[0], private readonly eld: IntervalHistogram) {
    super(config);
  }

  override async get(): Promise<SummaryValues> {
    const base = await super.get();
    return {
      ...base,
      values: [
        { labels: { quantile: 0.5 }, value: this.eld.percentile(50) / 1e9 },
        { labels: { quantile: 0.99 }, value: this.eld.percentile(99) / 1e9 },
        { metricName: `${base.name}_max`, labels: {}, value: this.eld.max / 1e9 },
      ],
    };
  }
}

/** The server's metrics in a prom-client registry of its own (one per server: tests run several in one process). */
export class TurnMetrics {
  readonly registry = new Registry();
  readonly #eld = monitorEventLoopDelay({ resolution: 10 });
  readonly #stages: StageSummary;
  readonly #turns: Counter;
  readonly #errors: Counter;
  #turnCount = 0;
  #errorCount = 0;
  /** Open game sockets, as given to the latest render. */
  #sockets = 0;

  constructor() {
    this.#eld.enable();
    const registers = [this.registry];
    this.#stages = new StageSummary({ name: 'looptale_turn_stage_seconds', help: 'Time spent in each stage of a turn, over the latest turns.', labelNames: ['stage'], percentiles: QUANTILES, registers });
    this.#turns = new Counter({ name: 'looptale_turns_total', help: 'Turns answered since start.', registers });
    this.#errors = new Counter({ name: 'looptale_turn_errors_total', help: 'Turns answered with an ERROR_MESSAGE.', registers });
    const sockets = (): number => this.#sockets;
    new Gauge({ name: 'looptale_websocket_clients', help: 'Open game sockets.', registers, collect() { this.set(sockets()); } });
    new Gauge({ name: 'process_resident_memory_bytes', help: 'Resident memory.', registers, collect() { this.set(process.memoryUsage.rss()); } });
    new Gauge({ name: 'nodejs_heap_used_bytes', help: 'V8 heap in use.', registers, collect() { this.set(process.memoryUsage().heapUsed); } });
    new EventLoopDelaySummary({ name: 'nodejs_eventloop_delay_seconds', help: 'Event-loop delay since start.', registers }, this.#eld);
  }

  /** Turns answered since start. */
  get turns(): number {
    return this.#turnCount;
  }

  /** Turns answered with an ERROR_MESSAGE (the turn pipeline increments it). */
  get errors(): number {
    return this.#errorCount;
  }

  set errors(n: number) {
    if (n > this.#errorCount) this.#errors.inc(n - this.#errorCount);
    this.#errorCount = n;
  }

  /** Records one turn's stage timings in milliseconds (negative values mean "did not happen"). */
  observe(stages: Readonly<Record<string, number>>): void {
    this.#turnCount++;
    this.#turns.inc();
    for (const [stage, ms] of Object.entries(stages)) {
      if (Number.isFinite(ms) && ms >= 0) this.#stages.observeStage(stage, ms);
    }
  }

  /** The Prometheus text exposition (prom-client's registry). */
  async render(extra: { sockets: number }): Promise<string> {
    this.#sockets = extra.sockets;
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  close(): void {
    this.#eld.disable();
  }
}

declare module './app.js' {
  interface Services {
    metrics: TurnMetrics;
  }
}

/** Whether this request may read /metrics (METRICS_ACCESS); an HttpError otherwise. */
function checkAccess(req: FastifyRequest, access: 'local' | 'token' | 'public', token: string | undefined): void {
  if (access === 'public') return;
  if (access === 'local') {
    if (!isLocalRequest(req)) throw new HttpError(403, 'forbidden', 'Metrics are served to this machine only (set METRICS_TOKEN to read them from elsewhere).');
    return;
  }
  const h = req.headers.authorization ?? '';
  const given = /^bearer /i.test(h) ? h.slice(7).trim() : '';
  if (!token || !given || !safeEqual(given, token)) {
    throw new HttpError(401, 'unauthorized', 'Metrics need Authorization: Bearer <METRICS_TOKEN>.', { 'www-authenticate': 'Bearer' });
  }
}

export const metricsRoutes: RouteModule = (app, s) => {
  s.metrics = new TurnMetrics();
  s.onClose.push(() => s.metrics.close());
  const access = metricsAccess(s.config);
  if (access === 'off') return;
  route(app, { method: 'GET', url: '/metrics', summary: 'Turn stage timings, counters, sockets, memory and event-loop delay (Prometheus text format); loopback peers, or a bearer METRICS_TOKEN (METRICS_ACCESS)', tags: ['operations'], auth: 'none', produces: 'text/plain' },
    async ({ req, reply }) => {
      checkAccess(req, access, s.config.METRICS_TOKEN);
      const text = await s.metrics.render({ sockets: (s as Partial<typeof s>).realtime ? s.realtime.clients() : 0 });
      await reply.header('content-type', s.metrics.contentType).send(text);
      return undefined;
    });
};
