// CPU profiles for the benches: V8 sampling profiles of a process's main thread AND its worker threads (through the
// inspector's NodeWorker domain, so PGlite or eSpeak workers are seen too), and a summary of where the time went:
// by area (PGlite, JSON, zod, ws, engine, store, the turn pipeline...) and by function (self time).
// `npx tsx scripts/bench/lib/profile.ts <file.cpuprofile>...` summarises saved profiles.
import { writeFileSync, readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
export type CpuProfile = { nodes: Node[]; startTime: number; endTime: number; samples?: number[]; timeDeltas?: number[] };

const AREAS: [string, RegExp][] = [
  ['pglite (wasm + js)', /@electric-sql\/pglite|wasm:\/\//],
  ['pg driver', /node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//],
  ['zod', /node_modules\/zod/],
  ['ws', /node_modules\/ws\//],
  ['fastify/http', /node_modules\/(fastify|find-my-way|light-my-request|avvio)|node:http|_http_/],
  ['pino', /node_modules\/(pino|sonic-boom|thread-stream)/],
  ['engine', /\/engine\//],
  ['server/store + db', /\/server\/(store|db)\//],
  ['server/game + realtime', /\/server\/(game|realtime)\//],
  ['server/auth', /\/server\/auth\//],
  ['server other', /\/server\//],
  ['tsx loader', /node_modules\/tsx\//],
  ['node internals', /^node:|^internal\//],
];

function area(url: string, fn: string): string {
  if (fn === '(garbage collector)') return 'gc';
  if (fn === '(program)') return 'program';
  for (const [name, re] of AREAS) if (re.test(url)) return name;
  if (url === '') {
    if (/^(stringify|parse)$/.test(fn)) return 'JSON (native)';
    if (/^(writev|writeBuffer|writeString|writeUtf8String|fstat|open|close|read|lstat|fsync|fdatasync|ftruncate)$/.test(fn)) return 'file/socket I/O (native)';
    if (fn === 'scrypt' || fn === 'pbkdf2') return 'password hashing';
    return 'other native';
  }
  return 'other';
}

export type ProfileSummary = {
  thread: string;
  sampled_s: number;
  busy_s: number;
  /** Busy time per area, ms and share of the busy time. */
  areas: Record<string, { ms: number; share: number }>;
  top_self: string[];
};

export function summarizeProfile(p: CpuProfile, thread: string, top = 15): ProfileSummary {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i] as number;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0));
  }
  const areas = new Map<string, number>();
  const fns = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    if (!n || n.callFrame.functionName === '(idle)') continue;
    busy += us;
    const a = area(n.callFrame.url, n.callFrame.functionName);
    areas.set(a, (areas.get(a) ?? 0) + us);
    const file = n.callFrame.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/(engine|server|scripts|cli)\//, '$1/');
    const key = `${n.callFrame.functionName || '(anonymous)'} ${file}${file ? `:${n.callFrame.lineNumber + 1}` : ''}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
  }
  const share = (us: number): number => Math.round((1000 * us) / Math.max(1, busy)) / 10;
  return {
    thread,
    sampled_s: Math.round((p.endTime - p.startTime) / 1e4) / 100,
    busy_s: Math.round(busy / 1e4) / 100,
    areas: Object.fromEntries([...areas].sort((a, b) => b[1] - a[1]).filter(([, v]) => share(v) >= 0.5).map(([k, v]) => [k, { ms: Math.round(v / 1000), share: share(v) }])),
    top_self: [...fns].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `${share(v)}% ${k}`),
  };
}

type WorkerReply = { result?: { profile?: CpuProfile }; error?: { message: string } };

/**
 * This process's worker threads through an inspector session (the NodeWorker domain): each alive at the call, and a
 * way to send one of them an inspector command and await its reply.
 */
export async function inspectWorkers(s: Session): Promise<{ workers: { sessionId: string; title: string }[]; toWorker: (sessionId: string, method: string, params?: Record<string, unknown>) => Promise<WorkerReply> }> {
  const workers: { sessionId: string; title: string }[] = [];
  let nextId = 1;
  const pending = new Map<number, (m: WorkerReply) => void>();
  s.on('NodeWorker.attachedToWorker', (m: { params: { sessionId: string; workerInfo: { title: string } } }) => {
    workers.push({ sessionId: m.params.sessionId, title: m.params.workerInfo.title });
  });
  s.on('NodeWorker.receivedMessageFromWorker', (m: { params: { message: string } }) => {
    const msg = JSON.parse(m.params.message) as WorkerReply & { id?: number };
    const p = msg.id === undefined ? undefined : pending.get(msg.id);
    if (p && msg.id !== undefined) {
      pending.delete(msg.id);
      p(msg);
    }
  });
  const toWorker = (sessionId: string, method: string, params: Record<string, unknown> = {}) => new Promise<WorkerReply>((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    void s.post('NodeWorker.sendMessageToWorker', { sessionId, message: JSON.stringify({ id, method, params }) });
  });
  await s.post('NodeWorker.enable', { waitForDebuggerOnStart: false });
  await new Promise((r) => setTimeout(r, 100));
  return { workers, toWorker };
}

/**
 * A full garbage collection (twice) in this process's main isolate (`gc`, exposed by --expose-gc) and, with 'all', in
 * each worker thread's too (the inspector's HeapProfiler.collectGarbage, V8's low-memory collection, which also gives
 * the freed pages back), so memory read afterwards is what is live.
 */
export async function collectGarbage(scope: 'main' | 'all'): Promise<{ main: boolean; workers: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  if (scope === 'main') return { main: Boolean(gc), workers: 0 };
  const s = new Session();
  s.connect();
  try {
    const { workers, toWorker } = await inspectWorkers(s);
    for (const w of workers) {
      await toWorker(w.sessionId, 'HeapProfiler.collectGarbage');
      await toWorker(w.sessionId, 'HeapProfiler.collectGarbage');
    }
    await s.post('NodeWorker.disable').catch(() => undefined);
    return { main: Boolean(gc), workers: workers.length };
  } finally {
    s.disconnect();
  }
}

/** Profiles this process (main thread and every worker thread alive at start) until stop(). */
export async function startProfiling(intervalUs = 500): Promise<{ stop(dir: string, tag: string): Promise<{ files: string[]; profiles: { thread: string; profile: CpuProfile }[] }> }> {
  const s = new Session();
  s.connect();
  const { workers, toWorker } = await inspectWorkers(s);
  await s.post('Profiler.enable');
  await s.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await s.post('Profiler.start');
  for (const w of workers) {
    await toWorker(w.sessionId, 'Profiler.enable');
    await toWorker(w.sessionId, 'Profiler.setSamplingInterval', { interval: intervalUs });
    await toWorker(w.sessionId, 'Profiler.start');
  }
  return {
    async stop(dir, tag) {
      const profiles: { thread: string; profile: CpuProfile }[] = [];
      const main = (await s.post('Profiler.stop')) as { profile: CpuProfile };
      profiles.push({ thread: 'main', profile: main.profile });
      for (const w of workers) {
        const r = await toWorker(w.sessionId, 'Profiler.stop');
        if (r.result?.profile) profiles.push({ thread: w.title, profile: r.result.profile });
      }
      await s.post('NodeWorker.disable').catch(() => undefined);
      s.disconnect();
      const files = profiles.map((p, i) => {
        const f = join(dir, `${tag}-${i}-${p.thread.replace(/[^a-z0-9]+/gi, '_')}.cpuprofile`);
        writeFileSync(f, JSON.stringify(p.profile));
        return f;
      });
      return { files, profiles };
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const f of process.argv.slice(2)) {
    process.stdout.write(`${JSON.stringify(summarizeProfile(JSON.parse(readFileSync(f, 'utf8')) as CpuProfile, f, 30), null, 2)}\n`);
  }
}
