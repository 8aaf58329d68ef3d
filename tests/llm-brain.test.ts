// The LLM brain against a local fake OpenAI-compatible server: valid decisions are used; every failure (invalid JSON,
// schema mismatch, canon violation, timeout, HTTP errors) is retried a bounded number of times, then the scripted
// brain answers with the failure as `fallback`; json_schema refusals switch to json_object; every call is a prompt log
// row without the key; the cache marks repeats. Then the real server plays an LLM turn over the socket, and
// `looptale eval run` computes a pass rate against the fake.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decideScripted, type BrainInput } from '../engine/brain/scripted.js';
import type { GameOutput } from '../engine/schema/game-output.js';
import type { PlayerStory } from '../engine/schema/player.js';
import { Story } from '../engine/story/format.js';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { inventedNames } from '../server/brain/canon.js';
import { llmSettings, loadBrainConfig, type LlmSettings } from '../server/brain/config.js';
import { turnContext } from '../server/brain/context.js';
import { caseInput, deriveCases } from '../server/brain/eval.js';
import { LlmBrain } from '../server/brain/llm.js';
import { decisionJsonSchema } from '../server/brain/schema.js';
import { ConfigError } from '../server/config.js';
import type { Db } from '../server/db/db.js';
import { openDb } from '../server/db/open.js';
import { createLogger } from '../server/log.js';
import { PromptRepo } from '../server/store/prompts.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeReply } from './helpers/fake-openai.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = join(import.meta.dirname, '..');
const STORY_FILE = join(ROOT, 'fixtures/stories/lantern-keeper/story.json');
const STORY = Story.parse(JSON.parse(readFileSync(STORY_FILE, 'utf8')));
const LEARN = STORY.moments.find((m) => m.type === 'Learn');
const REWARD = STORY.moments.find((m) => m.name.en === 'Nell at the Quay');
const KEY = 'sk-test-SECRET-key-0123456789';

/** The brain input for a line said at a moment of the Lantern Keeper (a fresh run started there). */
function inputAt(momentId: string, line: string, language: 'english' | 'french' = 'english'): BrainInput {
  const m = STORY.moments.find((x) => x.id === momentId);
  if (!m) throw new Error('no moment');
  const r = caseInput(STORY, { moment_type: m.type, language, story_id: STORY.id, moment_id: momentId, player_line: line, expected: {} }, 0);
  if (!r.ok) throw new Error(r.error);
  return r.input;
}

const learnInput = (line = 'When does the light go dark?'): BrainInput => inputAt(LEARN?.id ?? '', line);

const GOOD = {
  reply: 'Always at high tide, near midnight. Something covers the lamp.', emotion: 'normal', intensity: 2, outcome: 'continue',
  next_moment_id: null, perfect: false, score: 70, facts: ['dark_at_high_tide'], battle: null, award: null, equip: null, upgrade: null,
  selection: null, matched: 'when',
};

let llm: FakeOpenAI;
let dir: string;
let db: Db;
let repo: PromptRepo;
const logLines: string[] = [];
const log = createLogger('debug', { write: (l: string) => void logLines.push(l) });

function brain(over: Partial<LlmSettings> = {}): LlmBrain {
  return new LlmBrain({
    settings: { baseUrl: llm.baseUrl, apiKey: KEY, model: 'fake-model', timeoutMs: 2000, maxRetries: 1, cache: false, cacheSize: 100, ...over },
    prompts: repo, log,
  });
}

async function logRows(): Promise<{ outcome: string; fallback_reason: string | null; prompt_tokens: number | null; completion_tokens: number | null; prompt_id: string | null }[]> {
  const r = await db.query<{ outcome: string; fallback_reason: string | null; prompt_tokens: number | null; completion_tokens: number | null; prompt_id: string | null }>(
    'SELECT outcome, fallback_reason, prompt_tokens, completion_tokens, prompt_id::text FROM prompt_management.prompt_logs ORDER BY created_at, id',
  );
  return r.rows;
}

beforeAll(async () => {
  llm = await startFakeOpenAI();
  dir = mkdtempSync(join(tmpdir(), 'looptale-llm-'));
  db = await openDb({ DATA_DIR: dir, DATABASE_URL: undefined, DATABASE_POOL_SIZE: 1 });
  repo = new PromptRepo(db);
  expect(await repo.seedDefaults()).toBe(24);
  expect(await repo.seedDefaults()).toBe(0);
});
afterAll(async () => {
  await llm?.close();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  llm.requests.length = 0;
  llm.rejectJsonSchema = false;
  await db.query('DELETE FROM prompt_management.prompt_logs');
});

describe('configuration', () => {
  it('picks the scripted brain unless an LLM is configured, and names what BRAIN=llm lacks', () => {
    expect(llmSettings(loadBrainConfig({}))).toBeNull();
    expect(llmSettings(loadBrainConfig({ LLM_BASE_URL: 'http://localhost:11434/v1' }))).toBeNull();
    const s = llmSettings(loadBrainConfig({ LLM_BASE_URL: 'http://localhost:11434/v1', LLM_MODEL: 'llama3.1' }));
    expect(s).toMatchObject({ baseUrl: 'http://localhost:11434/v1', model: 'llama3.1', timeoutMs: 4000, maxRetries: 1, cache: false });
    expect(s && 'apiKey' in s).toBe(false);
    expect(llmSettings(loadBrainConfig({ BRAIN: 'scripted', LLM_BASE_URL: 'http://x/v1', LLM_MODEL: 'm' }))).toBeNull();
    expect(() => llmSettings(loadBrainConfig({ BRAIN: 'llm', LLM_MODEL: 'm' }))).toThrow(/LLM_BASE_URL/);
    expect(() => loadBrainConfig({ LLM_TIMEOUT_MS: 'soon' })).toThrow(ConfigError);
    expect(llmSettings(loadBrainConfig({ BRAIN: 'llm', LLM_BASE_URL: 'https://api.openai.com/v1', LLM_MODEL: 'gpt-4o-mini', LLM_CACHE: 'true' }))?.cache).toBe(true);
  });
});

describe('prompts and schema', () => {
  it('seeds a default prompt for every moment type in English and French, and the latest one wins', async () => {
    const n = await db.query<{ n: number }>("SELECT count(DISTINCT moment_type || language)::int AS n FROM prompt_management.prompts WHERE name LIKE 'looptale-default:%'");
    expect(n.rows[0]?.n).toBe(24);
    const fr = await repo.latestPrompt('Battle', 'french');
    expect(fr?.system_prompt).toContain('Règles');
    expect(fr?.system_prompt).toContain('{{opponents}}');
    const before = await repo.latestPrompt('Test', 'english');
    await db.query(
      `INSERT INTO prompt_management.prompts (name, moment_type, language, system_prompt, user_template, version, updated_at)
       VALUES ($1, 'Test', 'english', $2, $3, 2, now() + interval '1 second')`,
      [before?.name, `TUNED ${before?.system_prompt ?? ''}`, before?.user_template],
    );
    expect((await repo.latestPrompt('Test', 'english'))?.version).toBe(2);
  });

  it('derives a strict JSON schema: every property required, optional ones nullable, no extra properties', () => {
    const schema = decisionJsonSchema();
    const objects: Record<string, unknown>[] = [];
    const walk = (n: unknown): void => {
      if (Array.isArray(n)) n.forEach(walk);
      else if (n && typeof n === 'object') {
        const o = n as Record<string, unknown>;
        if (o.type === 'object') objects.push(o);
        expect(o).not.toHaveProperty('oneOf');
        expect(o).not.toHaveProperty('maxLength');
        Object.values(o).forEach(walk);
      }
    };
    walk(schema);
    expect(objects.length).toBeGreaterThanOrEqual(5);
    for (const o of objects) {
      expect(o.additionalProperties).toBe(false);
      expect(o.required).toEqual(Object.keys(o.properties as object));
    }
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect(props.next_moment_id).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(props.intensity).toEqual({ type: 'integer', enum: [1, 2, 3, 4, 5] });
    expect(props).not.toHaveProperty('lines_used');
    expect(props).not.toHaveProperty('cache_hit');
  });

  it('tells the model the canon: the speaker, the goal, the authored answers, the transitions', async () => {
    llm.respond = () => ({ decision: GOOD });
    await brain().decide(learnInput());
    const system = llm.requests[0]?.body.messages?.[0]?.content ?? '';
    expect(system).toContain('You are Ysolde Marrow');
    expect(system).toContain('Ask Ysolde when the light goes out');
    expect(system).toContain('id "when" (progress; score 70; facts: dark_at_high_tide)');
    expect(system).toContain(REWARD?.id);
    expect(system).toContain('The Tide Caves');
    expect(system).not.toContain('{{');
    expect(llm.requests[0]?.body.messages?.[1]?.content).toContain('"When does the light go dark?"');
  });

  it('finds invented names and leaves story names, possessives and sentence starts alone', () => {
    const ctx = turnContext(learnInput('Who is Captain Rourke?'));
    if (!ctx) throw new Error('no context');
    expect(inventedNames("Nell's boat is at the Quay. Ysolde saw it, and Wren too.", ctx, '')).toEqual([]);
    expect(inventedNames('Well, Madame Marrow keeps the Storm Lantern. Yes, I think so.', ctx, '')).toEqual([]);
    expect(inventedNames('Go and ask Bartholomew at Castle Grimwald.', ctx, '')).toEqual(['Bartholomew', 'Castle', 'Grimwald']);
    expect(inventedNames('There is no Rourke here.', ctx, 'Who is Captain Rourke?')).toEqual([]);
  });
});

describe('the LLM brain', () => {
  it('returns the LLM decision when it is valid, sending the key and a strict json_schema', async () => {
    llm.respond = () => ({ decision: { ...GOOD, facts: ['dark_at_high_tide', 'the lamp is haunted'] }, usage: { prompt_tokens: 900, completion_tokens: 60 } });
    const r = await brain().decide(learnInput());
    // Facts the moment does not teach are dropped.
    expect(r.brain).toBe('llm');
    expect(r.fallback).toBeUndefined();
    expect(r.decision).toMatchObject({ reply: GOOD.reply, outcome: 'continue', matched: 'when', facts: ['dark_at_high_tide'], score: 70, cache_hit: false });
    expect(r.decision).not.toHaveProperty('next_moment_id');
    expect(llm.requests).toHaveLength(1);
    const req = llm.requests[0];
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req?.body.model).toBe('fake-model');
    expect(req?.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'decision', strict: true } });
    const rows = await logRows();
    expect(rows).toEqual([expect.objectContaining({ outcome: 'ok', fallback_reason: null, prompt_tokens: 900, completion_tokens: 60 })]);
    expect(rows[0]?.prompt_id).toBe((await repo.latestPrompt('Learn', 'english'))?.id);
  });

  it('speaks authored openings through the scripted brain, without a call', async () => {
    const input = { ...learnInput(), is_starting_dialogue: true, transcription: '' };
    const r = await brain().decide(input);
    expect(r).toEqual({ decision: decideScripted(input), brain: 'scripted' });
    expect(llm.requests).toHaveLength(0);
  });

  const failures: [string, FakeReply, string, string][] = [
    ['invalid JSON', { content: 'Sure! Here is my answer: {reply: oops' }, 'invalid_json', 'invalid'],
    ['JSON that does not fit the schema', { decision: { ...GOOD, outcome: 'victory', intensity: 9 } }, 'schema_mismatch', 'invalid'],
    ['a reply holding NUL, which no store can hold', { decision: { ...GOOD, reply: 'The lamp\u0000 is out.' } }, 'invalid_json', 'invalid'],
    ['a reply naming an invented character', { decision: { ...GOOD, reply: 'Ask old Captain Rourke, he keeps the key.' } }, 'canon_violation', 'canon_violation'],
    ['an unknown next moment', { decision: { ...GOOD, outcome: 'complete', next_moment_id: randomUUID() } }, 'canon_violation', 'canon_violation'],
    ['500 errors', { status: 500, body: '{"error":{"message":"overloaded"}}' }, 'http_error', 'error'],
    ['a slow server (beyond the timeout)', { delayMs: 1500, then: { decision: GOOD } }, 'timeout', 'timeout'],
  ];
  it.each(failures)('falls back to the scripted brain on %s, after a bounded number of attempts', async (_name, reply, reason, outcome) => {
    llm.respond = () => reply;
    const input = learnInput('Is anything missing?');
    const t0 = performance.now();
    const r = await brain({ timeoutMs: 300, maxRetries: 1 }).decide(input);
    expect(r.brain).toBe('scripted');
    expect(r.fallback).toBe(reason);
    expect(r.decision).toEqual(decideScripted(input));
    expect(r.decision.matched).toBe('missing');
    expect(llm.requests).toHaveLength(2);
    if (reason === 'timeout') expect(performance.now() - t0).toBeLessThan(1400);
    const rows = await logRows();
    expect(rows.map((x) => x.outcome)).toEqual([outcome, outcome]);
    expect(rows.every((x) => x.fallback_reason?.startsWith(reason))).toBe(true);
  });

  it('refuses awards that are not the moment\'s rewards', async () => {
    llm.respond = () => ({ decision: { ...GOOD, reply: 'Take this, friend.', outcome: 'complete', award: { reward_type: 'item', id: STORY.items[0]?.id }, matched: 'accept', facts: [] } });
    const input = inputAt(REWARD?.id ?? '', 'Yes, come with us!');
    const r = await brain({ maxRetries: 0 }).decide(input);
    expect(r.fallback).toBe('canon_violation');
    expect(r.decision).toEqual(decideScripted(input));
    const nell = STORY.characters.find((c) => c.name === 'Nell Cardew')?.id;
    llm.respond = () => ({ decision: { ...GOOD, reply: 'Then I am coming with you.', outcome: 'complete', award: { reward_type: 'character', id: nell }, matched: 'accept', facts: [] } });
    expect((await brain({ maxRetries: 0 }).decide(input)).decision.award).toEqual({ reward_type: 'character', id: nell });
  });

  it('bounds retries (LLM_MAX_RETRIES) and uses a later valid answer', async () => {
    llm.respond = () => ({ status: 503 });
    expect((await brain({ maxRetries: 3 }).decide(learnInput())).fallback).toBe('http_error');
    expect(llm.requests).toHaveLength(4);
    llm.requests.length = 0;
    expect((await brain({ maxRetries: 0 }).decide(learnInput())).fallback).toBe('http_error');
    expect(llm.requests).toHaveLength(1);
    llm.requests.length = 0;
    llm.respond = (_req, n) => (n === 0 ? { content: 'not json' } : { decision: GOOD });
    const r = await brain({ maxRetries: 2 }).decide(learnInput());
    expect(r).toMatchObject({ brain: 'llm', decision: { matched: 'when' } });
    expect(r.fallback).toBeUndefined();
    expect(llm.requests).toHaveLength(2);
    expect((await logRows()).map((x) => x.outcome)).toEqual(['error', 'error', 'error', 'error', 'error', 'invalid', 'ok']);
  });

  it('switches to json_object when the server refuses json_schema, and remembers it for that server', async () => {
    const other = await startFakeOpenAI();
    try {
      other.rejectJsonSchema = true;
      other.respond = () => ({ decision: GOOD });
      const b = new LlmBrain({ settings: { baseUrl: other.baseUrl, model: 'm', timeoutMs: 2000, maxRetries: 0, cache: false, cacheSize: 10 }, prompts: repo });
      expect(b.responseFormat).toBe('json_schema');
      const r = await b.decide(learnInput());
      expect(r).toMatchObject({ brain: 'llm', decision: { matched: 'when' } });
      expect(other.requests.map((q) => q.body.response_format?.type)).toEqual(['json_schema', 'json_object']);
      expect(other.requests[1]?.body.messages?.[0]?.content).toContain('JSON Schema');
      expect(other.requests[0]?.headers.authorization).toBeUndefined();
      // A new brain on the same server asks for json_object at once; the fake server of the other tests is unaffected.
      await new LlmBrain({ settings: { baseUrl: other.baseUrl, model: 'm', timeoutMs: 2000, maxRetries: 0, cache: false, cacheSize: 10 }, prompts: repo }).decide(learnInput());
      expect(other.requests.map((q) => q.body.response_format?.type)).toEqual(['json_schema', 'json_object', 'json_object']);
      expect(brain().responseFormat).toBe('json_schema');
      expect((await logRows()).map((x) => x.outcome)).toEqual(['error', 'ok', 'ok']);
    } finally {
      await other.close();
    }
  });

  it('never stores or logs the API key, even when the server echoes it', async () => {
    llm.respond = (req) => ({ status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${String(req.headers.authorization)}` } }) });
    logLines.length = 0;
    const r = await brain({ maxRetries: 0 }).decide(learnInput());
    expect(r.fallback).toBe('http_error');
    const stored = await db.query('SELECT * FROM prompt_management.prompt_logs');
    expect(stored.rows).toHaveLength(1);
    expect(JSON.stringify(stored.rows)).not.toContain(KEY);
    expect(JSON.stringify(stored.rows)).toContain('[redacted]');
    expect(logLines.join('\n')).not.toContain(KEY);
  });

  it('serves identical situations from the cache when enabled, as free cache hits', async () => {
    llm.respond = () => ({ decision: GOOD });
    const cached = brain({ cache: true });
    const first = await cached.decide(learnInput('When does the light go dark?'));
    const again = await cached.decide(learnInput('when does the light go DARK'));
    expect(first.decision.cache_hit).toBe(false);
    expect(again).toMatchObject({ brain: 'llm', decision: { cache_hit: true, reply: GOOD.reply } });
    expect(llm.requests).toHaveLength(1);
    // Other words, or the same words once the facts changed, are new situations.
    await cached.decide(learnInput('Is anything missing?'));
    const later = learnInput('When does the light go dark?');
    const pm = later.state.moments.find((m) => m.id === later.state.run?.current_player_moment_id);
    if (pm) pm.player_facts = ['brass_key_missing'];
    expect((await cached.decide(later)).decision.cache_hit).toBe(false);
    expect(llm.requests).toHaveLength(3);
    // Off by default: every turn is a call.
    const plain = brain();
    await plain.decide(learnInput());
    expect((await plain.decide(learnInput())).decision.cache_hit).toBe(false);
    expect(llm.requests).toHaveLength(5);
  });

  it('answers French runs with the French prompt', async () => {
    llm.respond = () => ({ decision: { ...GOOD, reply: 'Toujours à marée haute, vers minuit.' } });
    const r = await brain().decide(inputAt(LEARN?.id ?? '', 'Quand la lumière s\'éteint-elle ?', 'french'));
    expect(r.decision.reply).toBe('Toujours à marée haute, vers minuit.');
    expect(llm.requests[0]?.body.messages?.[0]?.content).toContain('Vous êtes Ysolde Marrow');
    expect(llm.requests[0]?.body.messages?.[1]?.content).toContain('« Quand la lumière');
  });
});

describe('the real server with BRAIN=llm', () => {
  let srv: TestServer;
  const saved: Record<string, string | undefined> = {};
  const env = { BRAIN: 'llm', LLM_MODEL: 'fake-model', LLM_API_KEY: KEY, LLM_TIMEOUT_MS: '1500', LLM_MAX_RETRIES: '1' };

  beforeAll(async () => {
    // The server reads BRAIN and LLM_* from the process environment (its Config keeps only its own variables).
    for (const [k, v] of Object.entries({ ...env, LLM_BASE_URL: llm.baseUrl })) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: join(ROOT, 'fixtures/stories'), ...env, LLM_BASE_URL: llm.baseUrl });
  });
  afterAll(async () => {
    await srv?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('answers a turn over the socket with the LLM, falls back when it fails, and the game goes on', async () => {
    llm.respond = (req) => {
      const line = llm.playerLine(req);
      if (/dark/i.test(line)) return { decision: GOOD };
      if (/missing/i.test(line)) return { status: 500 };
      return { decision: { ...GOOD, reply: 'Small wet footprints on the stairs. Now I see it all.', outcome: 'complete', facts: ['small_wet_footprints'], matched: 'stairs' } };
    };
    const api = new Api(srv.url);
    await api.signUp(`llm-${randomUUID()}@example.com`, 'a long enough password');
    const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: STORY.id, language: 'english' });
    const socket = await GameSocket.connect(srv.url, api.token ?? '');
    try {
      const say = async (text: string | null): Promise<GameOutput> => {
        const r = await socket.send({ player_story_id: run.id, is_starting_dialogue: text === null, ...(text === null ? {} : { transcription: text }) });
        expect(r.error).toBeNull();
        const out = r.outputs.at(-1);
        if (!out) throw new Error('no output');
        return out;
      };
      // The client starts moments until one waits for the player (the first ones are monologues).
      let opening = await say(null);
      while (opening.complete_the_moment) opening = await say(null);
      expect(opening.blueprint_moment_id).toBe(LEARN?.id);
      expect(llm.requests).toHaveLength(0);

      const answered = await say('When does the light go dark?');
      expect(answered.dialogue).toBe(GOOD.reply);
      expect(answered.complete_the_moment).toBe(false);
      expect(llm.requests).toHaveLength(1);

      const fellBack = await say('Is anything missing?');
      expect(fellBack.dialogue).toBe('My brass key to the lamp room. Forty years on the same hook, and now the hook is bare.');
      expect(llm.requests).toHaveLength(3);

      const done = await say('What did you find on the stairs?');
      expect(done.dialogue).toContain('Small wet footprints');
      expect(done.complete_the_moment).toBe(true);
      const next = await say(null);
      expect(next.blueprint_moment_id).toBe(REWARD?.id);
    } finally {
      await socket.close();
    }
    const turns = srv.logs.map((l) => JSON.parse(l) as { msg?: string; brain?: string; fallback?: string }).filter((l) => l.msg === 'turn');
    expect(turns.slice(-4).map((t) => [t.brain, t.fallback ?? null])).toEqual([['llm', null], ['scripted', 'http_error'], ['llm', null], ['scripted', null]]);
    expect(turns.slice(0, -4).every((t) => t.brain === 'scripted' && t.fallback === undefined)).toBe(true);
    expect(srv.logs.join('\n')).not.toContain(KEY);
    const rows = await srv.services.db.query<{ outcome: string; player_story_id: string | null }>(
      'SELECT outcome, player_story_id::text FROM prompt_management.prompt_logs ORDER BY created_at, id',
    );
    expect(rows.rows.map((r) => r.outcome)).toEqual(['ok', 'error', 'error', 'ok']);
    expect(rows.rows.every((r) => r.player_story_id === run.id)).toBe(true);
  });
});

describe('looptale eval', () => {
  type Run = { code: number; stdout: string; stderr: string };
  const looptale = (args: string[], env: Record<string, string>): Promise<Run> => new Promise((resolve) => {
    execFile(process.execPath, ['bin/looptale.js', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: '', BRAIN: '', LLM_BASE_URL: '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });

  it('derives cases from the authored answers', () => {
    const cases = deriveCases(STORY, 'Learn', 'english');
    expect(cases.map((c) => [c.player_line, c.expected.outcome, c.expected.matched])).toEqual([
      ['when dark', 'continue', 'when'], ['missing', 'continue', 'missing'], ['stairs', 'continue', 'stairs'], ['ghost', 'continue', 'ghost'],
    ]);
    expect(deriveCases(STORY, 'Crossroad', 'english').some((c) => c.expected.next_moment_id !== undefined)).toBe(true);
    expect(deriveCases(STORY, 'Battle', 'english')).toEqual([]);
  });

  it('runs an evaluation against the LLM, stores the run and its pass rate, and exits 1 below --min-pass', async () => {
    const data = mkdtempSync(join(tmpdir(), 'looptale-eval-'));
    try {
      llm.respond = (req) => {
        const line = llm.playerLine(req);
        if (line === 'when dark') return { decision: GOOD };
        if (line === 'missing') return { decision: { ...GOOD, reply: 'My brass key is gone.', matched: 'missing', facts: ['brass_key_missing'] } };
        if (line === 'stairs') return { decision: { ...GOOD, reply: 'Nothing at all.', matched: '' } };
        return { content: '{"reply": "unfinished' };
      };
      const env = { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_API_KEY: KEY, LLM_MAX_RETRIES: '0' };
      const r = await looptale(['eval', 'run', 'Learn', '--story', STORY_FILE, '--data-dir', data, '--json', '--min-pass', '0.9'], env);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('below --min-pass 0.9');
      const out = JSON.parse(r.stdout) as { brain: string; pass_rate: number; total: number; run_id: string; evaluation_id: string; results: { pass: boolean; mismatches: string[] }[] };
      expect(out).toMatchObject({ brain: 'llm', pass_rate: 0.5, total: 4 });
      expect(out.results.map((x) => x.pass)).toEqual([true, true, false, false]);
      expect(out.results[2]?.mismatches).toEqual(["matched: expected 'stairs', got ''"]);
      expect(out.results[3]?.mismatches[0]).toBe('fell back to the scripted brain (invalid_json)');

      const listed = await looptale(['eval', 'list', '--data-dir', data, '--json'], {});
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: out.evaluation_id, cases: 4, runs: 1, last_pass_rate: 0.5, prompt_name: 'looptale-default:Learn:english' })]);

      // Without an LLM the scripted brain is the baseline, and says so.
      const baseline = await looptale(['eval', 'run', 'Learn', '--story', STORY_FILE, '--data-dir', data], {});
      expect(baseline.code).toBe(0);
      expect(baseline.stderr).toContain('No LLM is configured');
      expect(baseline.stdout).toContain('Pass rate: 4/4 (100.0%)');
      const store = await openDb({ DATA_DIR: data, DATABASE_URL: undefined, DATABASE_POOL_SIZE: 1 });
      try {
        const runs = await new PromptRepo(store).runs(out.evaluation_id);
        expect(runs.map((x) => x.pass_rate)).toEqual([1, 0.5]);
        const logs = await store.query('SELECT outcome FROM prompt_management.prompt_logs ORDER BY created_at, id');
        expect(logs.rows.map((x) => x.outcome)).toEqual(['ok', 'ok', 'ok', 'invalid']);
        expect(JSON.stringify(logs.rows)).not.toContain(KEY);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
