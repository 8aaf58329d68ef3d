// The code a voice-understanding bench run measures, loaded from a checkout's root (this one by default, or a pristine
// checkout of older code for the BEFORE figures): its engine, its scripted brain, its fixture stories and its way of
// turning a player's audio into an answer or a miss. Nothing here is written for one version: modules are imported
// from the root given, and a root without server/voice/understanding.ts is driven the way its server drove
// pocketsphinx (the moment's grammar, then the brain on whatever it heard).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Decision } from '../../../engine/brain/decision.js';
import type { GameEvent } from '../../../engine/run/events.js';
import type { GameState } from '../../../engine/run/state.js';
import type { StepResult } from '../../../engine/run/step.js';
import type { Story } from '../../../engine/story/format.js';
import type { PlanResult, PlanStep } from '../../../engine/story/testplan.js';

export type Heard =
  | { ok: true; text: string; features?: Record<string, number | string | null> }
  | { ok: false; heard: string | null; reason: string; features?: Record<string, number | string | null> };

export type Understander = {
  name: string;
  understand(story: Story, state: GameState, wav: Uint8Array): Promise<Heard>;
  close(): Promise<void>;
};

export type Code = {
  root: string;
  label: string;
  commit: string;
  parseStory(json: unknown): Story;
  step(state: GameState, event: GameEvent, ctx: { now: number; story: Story }): StepResult;
  initialState(userId: string, storyId: string, seed: number): GameState;
  parsePlan(text: string): { ok: true; steps: PlanStep[] } | { ok: false; error: string };
  runPlan(story: Story, steps: readonly PlanStep[]): PlanResult;
  statesByMoment(story: Story, opts: { language?: 'english' | 'french'; runs?: number; perMoment?: number }): Map<string, GameState[]>;
  decide(story: Story, state: GameState, text: string): Decision;
  story(slug: string): Story;
  plans(slug: string): string[];
  understander(): Promise<Understander>;
};

const FIXED_INPUT_ID = '00000000-0000-4000-8000-000000000000';

async function load<T>(root: string, rel: string): Promise<T> {
  return (await import(pathToFileURL(join(root, rel)).href)) as T;
}

function gitCommit(root: string): string {
  try {
    const head = readFileSync(join(root, '.git'), 'utf8').trim();
    const gitDir = head.startsWith('gitdir:') ? head.slice(7).trim() : join(root, '.git');
    const ref = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (!ref.startsWith('ref:')) return ref.slice(0, 12);
    const name = ref.slice(4).trim();
    const common = existsSync(join(gitDir, 'commondir')) ? join(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim()) : gitDir;
    for (const dir of [gitDir, common]) if (existsSync(join(dir, name))) return readFileSync(join(dir, name), 'utf8').trim().slice(0, 12);
    const packed = readFileSync(join(common, 'packed-refs'), 'utf8').split('\n').find((l) => l.endsWith(` ${name}`));
    return packed?.slice(0, 12) ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

type BaselineStt = {
  transcribe(req: { audio: { bytes: Uint8Array; format: 'wav' }; language: 'english'; sentences: string[]; vocabulary: string[]; decoys: string[] }): Promise<{ ok: true; text: string } | { ok: false; message: string }>;
  prepare?(req: { sentences: string[]; vocabulary: string[]; decoys: string[] }): Promise<void>;
  close(): Promise<void>;
};

export async function loadCode(root: string, label: string): Promise<Code> {
  const format = await load<{ Story: { parse(x: unknown): Story } }>(root, 'engine/story/format.ts');
  const stepMod = await load<{ step: Code['step'] }>(root, 'engine/run/step.ts');
  const stateMod = await load<{ initialState: Code['initialState'] }>(root, 'engine/run/state.ts');
  const plan = await load<{ parsePlan: Code['parsePlan']; runPlan: Code['runPlan'] }>(root, 'engine/story/testplan.ts');
  const sim = await load<{ statesByMoment: Code['statesByMoment'] }>(root, 'engine/sim/moment-states.ts');
  const brain = await load<{ decideScripted(input: { story: Story; state: GameState; transcription: string; is_starting_dialogue: boolean; input_id: string }): Decision }>(root, 'engine/brain/scripted.ts');
  const stories = new Map<string, Story>();
  const code: Code = {
    root, label, commit: gitCommit(root),
    parseStory: (json) => format.Story.parse(json),
    step: stepMod.step,
    initialState: stateMod.initialState,
    parsePlan: plan.parsePlan,
    runPlan: plan.runPlan,
    statesByMoment: sim.statesByMoment,
    decide: (story, state, text) => brain.decideScripted({ story, state, transcription: text, is_starting_dialogue: false, input_id: FIXED_INPUT_ID }),
    story(slug) {
      let s = stories.get(slug);
      if (!s) {
        s = format.Story.parse(JSON.parse(readFileSync(join(root, 'fixtures/stories', slug, 'story.json'), 'utf8')));
        stories.set(slug, s);
      }
      return s;
    },
    plans: (slug) => readdirSync(join(root, 'fixtures/stories', slug)).filter((f) => f.endsWith('.en.testplan')).sort()
      .map((f) => readFileSync(join(root, 'fixtures/stories', slug, f), 'utf8')),
    async understander() {
      if (existsSync(join(root, 'server/voice/understanding.ts'))) {
        const mod = await load<{ createBenchUnderstander(): Promise<Understander> }>(root, 'server/voice/understanding.ts');
        return mod.createBenchUnderstander();
      }
      // Older code: the server's own path (server/game/service.ts): the moment's grammar, then whatever was heard.
      const ps = await load<{ PocketsphinxTranscriber: new (o: { mode: string; poolSize: number }) => BaselineStt }>(root, 'server/voice/pocketsphinx.ts');
      const vocab = await load<{ momentSpeech(story: Story, state: GameState, language: 'english'): { sentences: string[]; vocabulary: string[]; decoys: string[] } }>(root, 'server/game/vocabulary.ts');
      const stt = new ps.PocketsphinxTranscriber({ mode: 'hybrid', poolSize: 2 });
      return {
        name: 'pocketsphinx (hybrid), grammar of the moment\'s say sentences and decoys',
        async understand(story, state, wav) {
          const r = await stt.transcribe({ audio: { bytes: wav, format: 'wav' }, language: 'english', ...vocab.momentSpeech(story, state, 'english') });
          return r.ok ? { ok: true, text: r.text } : { ok: false, heard: null, reason: r.message };
        },
        close: () => stt.close(),
      };
    },
  };
  return code;
}
