// GET /metrics in the Prometheus text format: per-stage turn timings (decode, stt, brain, engine+db, tts first chunk,
// total to the first GAME_OUTPUT and to the first AUDIO_ANSWER) as summaries over the latest turns, turn and error
// counters, open sockets, memory and event-loop delay. Not public: loopback peers by default, or a bearer
// METRICS_TOKEN (METRICS_ACCESS chooses).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import { safeEqual } from '../auth/tokens.js';
import { metricsAccess } from '../config.js';
import type { RouteModule } from './app.js';
import { HttpError } from './errors.js';
import { isLocalRequest } from './local-only.js';
import { route } from './route.js';

const WINDOW = 5000;

export class TurnMetrics {
  readonly #samples = new Map<string, number[]>();
  readonly #eld = monitorEventLoopDelay({ resolution: 10 });
  turns = 0;
  errors = 0;

  constructor() {
    this.#eld.enable();
  }

  /** Records one turn's stage timings in milliseconds (negative values mean "did not happen"). */
  observe(stages: Readonly<Record<string, number>>): void {
    this.turns++;
    for (const [stage, ms] of Object.entries(stages)) {
      if (!Number.isFinite(ms) || ms < 0) continue;
      let list = this.#samples.get(stage);
      if (!list) {
        list = [];
        this.#samples.set(stage, list);
      }
      list.push(ms);
      if (list.length > WINDOW) list.splice(0, list.length - WINDOW);
    }
  }

  render(extra: { sockets: number }): string {
    const out: string[] = [
      '# HELP looptale_turn_stage_seconds Time spent in each stage of a turn, over the latest turns.',
      '# TYPE looptale_turn_stage_seconds summary',
    ];
    for (const [stage, list] of [...this.#samples].sort(([a], [b]) => a.localeCompare(b))) {
      const sorted = [...list].sort((a, b) => a - b);
      for (const q of [0.5, 0.95, 0.99]) {
        const v = sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
        out.push(`looptale_turn_stage_seconds{stage="${stage}",quantile="${q}"} ${(v / 1000).toFixed(6)}`);
      }
      out.push(`looptale_turn_stage_seconds_sum{stage="${stage}"} ${(sorted.reduce((a, b) => a + b, 0) / 1000).toFixed(6)}`);
      out.push(`looptale_turn_stage_seconds_count{stage="${stage}"} ${sorted.length}`);
    }
    const mem = process.memoryUsage();
    out.push(
      '# HELP looptale_turns_total Turns answered since start.', '# TYPE looptale_turns_total counter', `looptale_turns_total ${this.turns}`,
      '# HELP looptale_turn_errors_total Turns answered with an ERROR_MESSAGE.', '# TYPE looptale_turn_errors_total counter', `looptale_turn_errors_total ${this.errors}`,
      '# HELP looptale_websocket_clients Open game sockets.', '# TYPE looptale_websocket_clients gauge', `looptale_websocket_clients ${extra.sockets}`,
      '# HELP process_resident_memory_bytes Resident memory.', '# TYPE process_resident_memory_bytes gauge', `process_resident_memory_bytes ${mem.rss}`,
      '# HELP nodejs_heap_used_bytes V8 heap in use.', '# TYPE nodejs_heap_used_bytes gauge', `nodejs_heap_used_bytes ${mem.heapUsed}`,
      '# HELP nodejs_eventloop_delay_seconds Event-loop delay since start.', '# TYPE nodejs_eventloop_delay_seconds summary',
      `nodejs_eventloop_delay_seconds{quantile="0.5"} ${(this.#eld.percentile(50) / 1e9).toFixed(6)}`,
      `nodejs_eventloop_delay_seconds{quantile="0.99"} ${(this.#eld.percentile(99) / 1e9).toFixed(6)}`,
      `nodejs_eventloop_delay_seconds_max ${(this.#eld.max / 1e9).toFixed(6)}`,
    );
    return `${out.join('\n')}\n`;
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
      await reply.header('content-type', 'text/plain; version=0.0.4').send(s.metrics.render({ sockets: (s as Partial<typeof s>).realtime ? s.realtime.clients() : 0 }));
      return undefined;
    });
};
