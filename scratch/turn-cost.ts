// Scratch: CPU per turn through the pipeline on PGlite, per SQL statement shape.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Story } from '../engine/story/format.js';
import { migrate } from '../server/db/migrate.js';
import { openPglite } from '../server/db/pglite.js';
import { openPostgres } from '../server/db/postgres.js';
import type { Db, Queryable } from '../server/db/db.js';
import { createLogger } from '../server/log.js';
import { GameRepo } from '../server/store/game.js';
import { StoryRepo } from '../server/store/stories.js';
import { ScriptedBrain } from '../server/game/brain.js';
import { GameService } from '../server/game/service.js';
import { TurnPipeline } from '../server/game/turn-pipeline.js';
import { NoTranscriber } from '../server/voice/transcriber.js';
import { planActions } from '../scripts/bench/lib/players.js';

const RAW = JSON.parse(readFileSync('fixtures/stories/lantern-keeper/story.json', 'utf8'));
const STORY = Story.parse(RAW);
const db: Db = process.env.PG ? await openPostgres(process.env.PG, 10) : await openPglite(process.env.MEM ? null : mkdtempSync(join(tmpdir(), 'tc-')));
await migrate(db);
await new StoryRepo(db).importStory(STORY, RAW);
const times = new Map<string, number[]>();
const key = (sql: string) => sql.replace(/\s+/g, ' ').slice(0, 70);
const wrapQ = (q: Queryable): Queryable => ({
  query: async (sql, params) => { const t = performance.now(); try { return await q.query(sql as string, params); } finally { const k = key(sql as string); (times.get(k) ?? times.set(k, []).get(k)!).push(performance.now() - t); } },
}) as Queryable;
const origTx = db.tx.bind(db);
const wrapped = Object.assign(Object.create(Object.getPrototypeOf(db)), db, wrapQ(db), {
  tx: (fn: (q: Queryable) => Promise<unknown>) => { const t = performance.now(); return origTx((q) => fn(wrapQ(q))).finally(() => (times.get('TX total') ?? times.set('TX total', []).get('TX total')!).push(performance.now() - t)); },
}) as Db;
const log = createLogger('silent');
const store = new GameRepo(wrapped);
const game = new GameService({ store, stories: new StoryRepo(wrapped), log });
const pipeline = new TurnPipeline({ game, store, brain: new ScriptedBrain(), transcriber: new NoTranscriber(), synthesizer: null, log });
const actions = planActions('fixtures/stories/lantern-keeper/win.en.testplan');
const players = await Promise.all(Array.from({ length: 50 }, async () => {
  const userId = randomUUID();
  const run = await game.createRun(userId, STORY.id, { language: 'english' });
  return { userId, runId: run.id, cursor: 0, needStart: true };
}));
let turns = 0;
async function turn(p: typeof players[number]) {
  const a = actions[p.cursor % actions.length]!;
  let input: any;
  if (p.needStart) { if (a.start) p.cursor++; input = { player_story_id: p.runId, is_starting_dialogue: true }; }
  else { p.cursor++; input = a.start ? { player_story_id: p.runId, is_starting_dialogue: true } : { player_story_id: p.runId, is_starting_dialogue: false, transcription: a.text }; }
  let last: any = null; let err: string | null = null;
  await pipeline.run({ userId: p.userId, input: { input_id: randomUUID(), ...input }, audio: null, receivedAt: performance.now(), decodeMs: 0 }, (f) => { if (f.type === 'GAME_OUTPUT') last = f.output; if (f.type === 'ERROR_MESSAGE') err = f.message; return true; });
  turns++;
  if (err || !last) { const run = await game.createRun(p.userId, STORY.id, { language: 'english' }); p.runId = run.id; p.cursor = 0; p.needStart = true; return; }
  p.needStart = last.complete_the_moment;
  if (last.loop_status !== 'loopStatusOnGoing') { const run = await game.createRun(p.userId, STORY.id, { language: 'english' }); p.runId = run.id; p.cursor = 0; p.needStart = true; }
}
for (let r = 0; r < 5; r++) for (const p of players) await turn(p);
times.clear(); turns = 0;
const cpu0 = process.cpuUsage(); const t0 = performance.now();
for (let r = 0; r < 20; r++) for (const p of players) await turn(p);
const wall = performance.now() - t0; const cpu = process.cpuUsage(cpu0);
console.log(`turns ${turns}, wall ${(wall / turns).toFixed(2)} ms/turn, cpu ${((cpu.user + cpu.system) / 1000 / turns).toFixed(2)} ms/turn`);
for (const [k, v] of [...times].sort((a, b) => b[1].reduce((x, y) => x + y, 0) - a[1].reduce((x, y) => x + y, 0))) {
  const sum = v.reduce((x, y) => x + y, 0);
  console.log(`${(sum / turns).toFixed(3)} ms/turn  n/turn ${(v.length / turns).toFixed(2)}  mean ${(sum / v.length).toFixed(3)}  ${k}`);
}
await db.close();
