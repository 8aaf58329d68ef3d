import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TurnMetrics } from '../../server/http/metrics.js';
import { parsePrometheus, type Sample } from './prometheus.js';
import { formatServerMetrics, scrapeMetrics, serverMetrics } from './server-metrics.js';

const parse = (text: string): Sample[] => {
  const r = parsePrometheus(text);
  if (!r.ok) throw new Error(r.error);
  return r.samples;
};

describe('serverMetrics', () => {
  it('reads what the server prints: stages in ms, counter deltas, sockets, memory in MiB, event-loop delay in ms', async () => {
    const m = new TurnMetrics();
    try {
      m.observe({ brain: 10, decode: 1 });
      const before = parse(await m.render({ sockets: 0 }));
      for (let i = 1; i <= 100; i++) m.observe({ brain: i, decode: 2, stt: -1 });
      m.errors = 2;
      const after = parse(await m.render({ sockets: 3 }));
      const r = serverMetrics(before, after);
      expect(Object.keys(r.stages_ms)).toEqual(['brain', 'decode']);
      expect(r.stages_ms.brain).toEqual({ p50: 50, p95: 95, p99: 99, mean: 50.1, count: 101 });
      expect(r.stages_ms.decode).toMatchObject({ p50: 2, p99: 2, count: 101 });
      expect(r.turns).toEqual({ total: 101, during_load: 100 });
      expect(r.turn_errors).toEqual({ total: 2, during_load: 2 });
      expect(r.websocket_clients).toBe(3);
      expect(r.resident_memory_mib).toBeGreaterThan(1);
      expect(r.heap_used_mib).toBeGreaterThan(1);
      expect(r.event_loop_delay_ms.p50).toEqual(expect.any(Number));
      expect(r.event_loop_delay_ms.p99).toEqual(expect.any(Number));
      expect(r.event_loop_delay_ms.max).toEqual(expect.any(Number));
    } finally {
      m.close();
    }
  });

  it('leaves out what is missing, and gives no delta without a first scrape or after a counter reset', () => {
    const r = serverMetrics(null, parse('looptale_turns_total 5\nlooptale_turn_errors_total 1\n'));
    expect(r).toEqual({
      stages_ms: {}, turns: { total: 5, during_load: null }, turn_errors: { total: 1, during_load: null },
      websocket_clients: null, resident_memory_mib: null, heap_used_mib: null, event_loop_delay_ms: { p50: null, p99: null, max: null },
    });
    expect(serverMetrics(parse('looptale_turns_total 9\n'), parse('looptale_turns_total 5\n')).turns).toEqual({ total: 5, during_load: null });
    expect(serverMetrics(null, parse('s{stage="x",quantile="0.50"} NaN\n'.replace('s{', 'looptale_turn_stage_seconds{'))).stages_ms)
      .toEqual({ x: { p50: null, p95: null, p99: null, mean: null, count: null } });
  });

  it('formats the human report lines, or says /metrics is not available', () => {
    expect(formatServerMetrics(null, 'GET /metrics answered HTTP 404')).toEqual(['server /metrics: not available (GET /metrics answered HTTP 404)']);
    const lines = formatServerMetrics(serverMetrics(parse('looptale_turns_total 1\n'), parse([
      'looptale_turn_stage_seconds{stage="brain",quantile="0.5"} 0.0015',
      'looptale_turn_stage_seconds{stage="brain",quantile="0.95"} 0.002',
      'looptale_turn_stage_seconds{stage="brain",quantile="0.99"} 0.003',
      'looptale_turn_stage_seconds_sum{stage="brain"} 0.16',
      'looptale_turn_stage_seconds_count{stage="brain"} 100',
      'looptale_turns_total 101', 'looptale_turn_errors_total 0', 'looptale_websocket_clients 0',
      'process_resident_memory_bytes 104857600', 'nodejs_heap_used_bytes 52428800',
      'nodejs_eventloop_delay_seconds{quantile="0.5"} 0.0101', 'nodejs_eventloop_delay_seconds{quantile="0.99"} 0.0123', 'nodejs_eventloop_delay_seconds_max 0.0456',
    ].join('\n'))), null);
    expect(lines).toEqual([
      'server /metrics: turns 100 during the load (101 since start), turn errors - during the load (0 since start), websocket clients at the end 0',
      '  memory: resident 100 MiB, heap used 50 MiB; event-loop delay p50 10.1 ms, p99 12.3 ms, max 45.6 ms',
      '  stage brain: p50 1.5 ms, p95 2 ms, p99 3 ms, mean 1.6 ms (latest 100 turns)',
    ]);
  });
});

describe('scrapeMetrics', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));
  const serve = async (status: number, body: string): Promise<string> => {
    server = createServer((_req, res) => res.writeHead(status, { 'content-type': 'text/plain' }).end(body));
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  it('parses a good /metrics', async () => {
    expect(await scrapeMetrics(`${await serve(200, '# TYPE a counter\na 1\n')}/`)).toEqual({ ok: true, samples: [{ name: 'a', labels: {}, value: 1 }] });
  });

  it('says why when /metrics is missing, is something else, is empty or cannot be reached', async () => {
    expect(await scrapeMetrics(await serve(404, 'Not Found'))).toEqual({ ok: false, error: 'GET /metrics answered HTTP 404' });
    await new Promise<void>((r) => server?.close(() => r()));
    expect(await scrapeMetrics(await serve(200, '<!doctype html><html></html>'))).toMatchObject({ ok: false, error: expect.stringMatching(/not in the Prometheus text format/) as unknown });
    await new Promise<void>((r) => server?.close(() => r()));
    expect(await scrapeMetrics(await serve(200, '# nothing\n'))).toEqual({ ok: false, error: 'GET /metrics has no samples' });
    await new Promise<void>((r) => server?.close(() => r()));
    server = undefined;
    expect(await scrapeMetrics('http://127.0.0.1:1')).toMatchObject({ ok: false, error: expect.stringMatching(/GET \/metrics failed/) as unknown });
  });
});
