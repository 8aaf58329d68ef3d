// Voice understanding: does the game hear players right, and does it know when it did not? Synthetic players speak
// at every moment of both fixture stories where a player speaks; each clip goes through the code under test's way
// from audio to an answer (recognition, verification, brain) and its engine, and is judged:
//   - story sentences (every `say` sentence, and the test plans' battle defences) at their own moments and stages:
//     right / wrong decision / not caught; goal >= 98% right and 0 wrong, per story and per voice;
//   - paraphrases (fixtures/speech/*.paraphrases.json, what a player says in other words): goal >= 80% right and
//     <= 3% wrong, the rest not caught;
//   - non-answers (fixtures/speech/non-answers.json: small talk, "can you repeat that?", counting...), non-speech
//     sounds (silence, coughs, hum...) and Debian's pocketsphinx-testdata human recordings, tried at every stage:
//     goal >= 95% rejected, none counted, none ending the run;
//   - human answers: the testdata recordings as the expected sentences of a moment (does verification let real
//     people through?).
// Two disjoint halves: `tuning` (the fixture voices, tuning texts: what the system may be tuned on) and `held_out`
// (other accents, variants, speeds, noise colours, a room, and other texts). Also the time to understand a clip,
// the 10 worst confusions, the same texts typed (`typed`: what the brain alone decides), and (BENCH_VU_LATENCY=1)
// the first reply audio at 1 talker over the real server.
// Knobs: BENCH_VU_CODE (root of the code under test: a pristine checkout gives the BEFORE figures), BENCH_VU_SETS
// (tuning,held_out,human), BENCH_VU_STORIES, BENCH_VU_KINDS, BENCH_VU_DUMP (a JSONL file of every judged clip, with
// the system's features, for tuning), BENCH_VU_NON_ANSWER_VOICES (voices per non-answer and stage; all by default),
// BENCH_VU_DECODE_CACHE (a folder of decodes kept on disk, keyed by the decoder build; BENCH_VU_CACHE_ENGINE names
// another looptale-asr build to key by, when a change leaves its decodes as they were), BENCH_VU_QUICK=1 (a
// quarter-size subset for iterating: one voice per sentence and paraphrase, taken in turn, and a third of the
// non-answers and sounds at each stage; the figures are for comparing runs, the goals are judged on a full run).
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { GameState } from '../../engine/run/state.js';
import type { Story } from '../../engine/story/format.js';
import { traitsOf } from '../../engine/moments/registry.js';
import { isPocketsphinxAvailable } from '../../server/voice/pocketsphinx.js';
import { loadCode, type Code, type Understander } from './lib/speech-code.js';
import { judgeWith, type Item, type Judged, type Kind } from './lib/speech-eval.js';
import { ClipMaker, humanClips, humanWav, loadNonAnswers, loadParaphrases, SOUNDS, VOICES, type SetName } from './lib/speech-sets.js';
import { decides, StageStates, type Stage } from './lib/speech-stages.js';
import { round, summarize } from './lib/stats.js';

const HERE = resolve(import.meta.dirname, '../..');
const SPEECH_DIR = join(HERE, 'fixtures/speech');
const STORIES = ['lantern-keeper', 'clockwork-siege'] as const;
const GOALS = {
  sentences: { right_min: 0.98, wrong_max: 0 },
  paraphrases: { right_min: 0.8, wrong_max: 0.03 },
  non_answers: { rejected_min: 0.95, counted_max: 0, run_ending_max: 0 },
};

const log = (msg: string): void => {
  process.stderr.write(`bench: voice-understanding: ${msg}\n`);
};

const list = (name: string, fallback: readonly string[]): string[] => {
  const v = process.env[name];
  return v ? v.split(',').map((s) => s.trim()).filter(Boolean) : [...fallback];
};

type Counts = { n: number; right: number; wrong: number; not_caught: number; rejected: number; taken: number; counted: number; run_ending: number; typed_right: number };
const empty = (): Counts => ({ n: 0, right: 0, wrong: 0, not_caught: 0, rejected: 0, taken: 0, counted: 0, run_ending: 0, typed_right: 0 });

function add(c: Counts, j: Judged): void {
  c.n++;
  if (j.outcome === 'right') c.right++;
  else if (j.outcome === 'wrong') c.wrong++;
  else if (j.outcome === 'not_caught') c.not_caught++;
  else if (j.outcome === 'rejected') c.rejected++;
  else c.taken++;
  if (j.outcome !== 'not_caught' && j.outcome !== 'rejected' && j.counted) c.counted++;
  if (j.ends_run && (j.outcome === 'taken' || j.outcome === 'wrong')) c.run_ending++;
  if (j.typed_right) c.typed_right++;
}

const r3 = (a: number, b: number): number | null => (b ? round(a / b, 3) : null);

function answerFigures(c: Counts, goal: { right_min: number; wrong_max: number }): Record<string, unknown> {
  const right = r3(c.right, c.n);
  const wrong = r3(c.wrong, c.n);
  return {
    n: c.n, right: c.right, wrong: c.wrong, not_caught: c.not_caught, right_rate: right, wrong_rate: wrong,
    ...(c.typed_right ? { typed_right: c.typed_right } : {}),
    run_ending_wrong: c.run_ending,
    met: c.n > 0 && (right ?? 0) >= goal.right_min && (wrong ?? 1) <= goal.wrong_max,
  };
}

function rejectFigures(c: Counts): Record<string, unknown> {
  const rejected = r3(c.rejected, c.n);
  return {
    n: c.n, rejected: c.rejected, taken: c.taken, counted: c.counted, run_ending: c.run_ending, rejected_rate: rejected,
    met: c.n > 0 && (rejected ?? 0) >= GOALS.non_answers.rejected_min && c.counted === 0 && c.run_ending === 0,
  };
}

/** Per story (and per voice within it), per kind. */
function report(judged: readonly Judged[]): Record<string, unknown> {
  const groups = new Map<string, Counts>();
  const bump = (key: string, j: Judged): void => {
    let c = groups.get(key);
    if (!c) groups.set(key, (c = empty()));
    add(c, j);
  };
  const kindOf = (k: Kind): string => (k === 'sound' || k === 'non_answer' || k === 'human_non_answer' ? 'non_answers' : k === 'sentence' || k === 'human_answer' ? 'sentences' : 'paraphrases');
  for (const j of judged) {
    // A non-answer the brain reads as an answer when typed is ambiguous here: counted apart, not in the goal.
    if (j.typed_decides) {
      bump('all|ambiguous_non_answers', j);
      continue;
    }
    const k = kindOf(j.kind);
    bump(`all|${k}`, j);
    bump(`${j.story}|${k}`, j);
    bump(`${j.story}|${k}|${j.voice}`, j);
    bump(`voice|${k}|${j.voice}`, j);
    if (j.kind === 'sound' || j.kind === 'human_non_answer') bump(`all|${j.kind}`, j);
  }
  const fig = (k: string, c: Counts): Record<string, unknown> => (k === 'non_answers' ? rejectFigures(c) : answerFigures(c, k === 'sentences' ? GOALS.sentences : GOALS.paraphrases));
  const out: Record<string, Record<string, unknown>> = { all: {}, by_story: {}, by_voice: {} };
  for (const [key, c] of groups) {
    const [a = '', b = '', v] = key.split('|');
    if (a === 'all') (out.all as Record<string, unknown>)[b] = b === 'sound' || b === 'human_non_answer' || b === 'ambiguous_non_answers' ? rejectFigures(c) : fig(b, c);
    else if (a === 'voice') {
      const byVoice = out.by_voice as Record<string, Record<string, unknown>>;
      (byVoice[v ?? ''] ??= {})[b] = fig(b, c);
    } else {
      const byStory = out.by_story as Record<string, Record<string, unknown>>;
      const s = (byStory[a] ??= {});
      if (v === undefined) s[b] = fig(b, c);
      else ((s.by_voice ??= {}) as Record<string, Record<string, unknown>>)[v] = { ...((s.by_voice as Record<string, Record<string, unknown>>)[v] ?? {}), [b]: fig(b, c) };
    }
  }
  // Every goal, per story and per voice within it.
  const misses: string[] = [];
  for (const [story, s] of Object.entries(out.by_story as Record<string, Record<string, unknown>>)) {
    for (const [voice, kinds] of Object.entries((s.by_voice ?? {}) as Record<string, Record<string, { met?: boolean }>>)) {
      for (const [k, f] of Object.entries(kinds)) if (f.met === false) misses.push(`${story} ${voice} ${k}`);
    }
  }
  return { ...out, goals_met_per_story_and_voice: misses.length === 0, goals_missed: misses };
}

/** The same texts typed (what the brain decides from a keyboard, the native wrapper's own transcription or an HTTP
 *  recogniser's words, with no speech recognition in the way), each (story, stage, text) once: non-answers the brain
 *  reads as an answer, and paraphrases it reads as meant. */
function typed(judged: readonly Judged[]): Record<string, unknown> {
  const seen = new Set<string>();
  const na = { n: 0, decided: 0, examples: [] as string[] };
  const para = { n: 0, right: 0 };
  for (const j of judged) {
    const key = `${j.story}|${j.stage}|${j.text}`;
    if (seen.has(key)) continue;
    if (j.typed_decides !== null) {
      seen.add(key);
      na.n++;
      if (j.typed_decides) {
        na.decided++;
        if (na.examples.length < 10) na.examples.push(`"${j.text}" at ${j.stage}`);
      }
    } else if (j.typed_right !== null) {
      seen.add(key);
      para.n++;
      if (j.typed_right) para.right++;
    }
  }
  return { non_answers: na, paraphrases: { ...para, right_rate: para.n ? round(para.right / para.n, 3) : null } };
}

/** The 10 most frequent mistakes: (stage, meant, got), with examples of what was said and heard. */
function confusions(judged: readonly Judged[]): unknown[] {
  const map = new Map<string, { stage: string; expected: string; got: string; count: number; run_ending: number; examples: string[] }>();
  for (const j of judged) {
    if (j.outcome !== 'wrong' && j.outcome !== 'taken') continue;
    const key = `${j.stage}|${j.expected}|${j.got}`;
    let e = map.get(key);
    if (!e) map.set(key, (e = { stage: j.stage, expected: j.expected, got: j.got, count: 0, run_ending: 0, examples: [] }));
    e.count++;
    if (j.ends_run) e.run_ending++;
    if (e.examples.length < 3) e.examples.push(`"${j.text}" (${j.voice}) heard "${j.heard ?? ''}"`);
  }
  return [...map.values()].sort((a, b) => b.run_ending - a.run_ending || b.count - a.count).slice(0, 10);
}

/** The fixture story with its Learn moment listening for the testdata transcripts (each its own 'wrong' answer). */
function humanStory(code: Code, base: Story, momentId: string, transcripts: string[]): Story {
  const json = JSON.parse(JSON.stringify(base)) as Record<string, unknown> & { moments: Record<string, unknown>[] };
  const m = json.moments.find((x) => x.id === momentId);
  if (!m) throw new Error('human story: no moment');
  m.say = { en: transcripts };
  m.answers = transcripts.map((t, i) => ({
    id: `human_${i}`, outcome: 'wrong', score: 0, match: { en: [t] }, reply: [{ en: 'Heard.', fr: 'Entendu.' }],
  }));
  return code.parseStory(json);
}

async function runSet(code: Code, u: Understander, set: SetName | 'human', opts: { stories: string[]; kinds: string[]; naVoices: number; quick: boolean }): Promise<Judged[]> {
  const maker = new ClipMaker();
  const judged: Judged[] = [];
  const jobs: { item: Item; story: Story; state: GameState }[] = [];
  const push = (item: Item, story: Story, state: GameState): void => {
    jobs.push({ item, story, state });
  };
  // Quick mode: one voice per text, each in turn (every voice is still heard, on a quarter of the texts).
  let turn = 0;
  const voicesFor = (all: readonly (typeof VOICES)[SetName][number][]): (typeof all)[number][] => {
    if (!opts.quick) return [...all];
    const v = all[turn++ % all.length];
    return v ? [v] : [];
  };
  const nonAnswers = loadNonAnswers(SPEECH_DIR);
  for (const slug of opts.stories) {
    const story = code.story(slug);
    const stages = new StageStates(code, story, code.plans(slug));
    const allStages = stages.all();
    if (set === 'human') {
      const clips = humanClips();
      if (clips.length === 0) {
        log('human: no recordings of people (apt-get install pocketsphinx-testdata; .ci/run installs it): no human figures');
        continue;
      }
      // Human recordings at every stage of every story: never an answer.
      if (opts.kinds.includes('non_answers')) {
        for (const st of allStages) for (const c of clips) push({ set, kind: 'human_non_answer', story: slug, stage: st, voice: `human:${c.id}`, text: c.transcript ?? `(${c.id})`, wav: humanWav(c) }, story, st.state);
      }
      if (slug === 'lantern-keeper' && opts.kinds.includes('sentences')) {
        // The recordings' transcripts are taken as answers at the story's Learn moment.
        const learn = allStages.find((s) => s.moment.name.en === 'The Keeper\'s Log');
        const withText = clips.filter((c) => c.transcript);
        if (learn) {
          const hs = humanStory(code, story, learn.moment.id, withText.map((c) => c.transcript ?? ''));
          for (const c of withText) push({ set, kind: 'human_answer', story: 'human', stage: { ...learn, key: 'testdata transcripts (Learn)' }, voice: `human:${c.id}`, text: c.transcript ?? '', means: c.transcript ?? '', wav: humanWav(c) }, hs, learn.state);
        }
      }
      continue;
    }
    const voices = VOICES[set];
    if (opts.kinds.includes('sentences')) {
      // Every say sentence at the first stage of its moment where it decides something typed.
      for (const m of story.moments) {
        const says = m.say?.en ?? [];
        const mine = allStages.filter((s) => s.moment.id === m.id);
        for (const text of says) {
          const st = mine.find((s) => decides(code.decide(story, s.state, text))) ?? mine[0];
          if (!st) continue;
          for (const v of voicesFor(voices)) push({ set, kind: 'sentence', story: slug, stage: st, voice: v.id, text, means: text, wav: await maker.speak(text, v) }, story, st.state);
        }
      }
      // The plans' battle defences, at the defence stage of the character they are for.
      const battle = story.moments.find((m) => traitsOf(m.type).stages.includes('defend'));
      const defences = new Set<string>();
      for (const plan of code.plans(slug)) for (const line of plan.split('\n')) if (line.startsWith('defend ')) for (const part of line.slice(7).split('|')) defences.add(part.trim());
      for (const d of defences) {
        const [who = '', words = ''] = d.split(/:\s*/, 2);
        const char = story.characters.find((c) => c.name === who || c.aliases.includes(who));
        const st = battle && char ? stages.get(battle.name.en, `defend:${char.name}`) : null;
        if (!st) continue;
        for (const v of voicesFor(voices)) push({ set, kind: 'sentence', story: slug, stage: st, voice: v.id, text: words, means: words, wav: await maker.speak(words, v) }, story, st.state);
      }
    }
    if (opts.kinds.includes('paraphrases')) {
      for (const d of loadParaphrases(SPEECH_DIR, slug).decisions) {
        const st = stages.get(d.moment, d.stage ?? '');
        if (!st) {
          log(`${slug}: no state for ${d.moment} ${d.stage ?? ''}: skipped`);
          continue;
        }
        if (!decides(code.decide(story, st.state, d.means))) log(`${slug}: '${d.means}' decides nothing at ${st.key}`);
        for (const text of d[set]) for (const v of voicesFor(voices)) push({ set, kind: 'paraphrase', story: slug, stage: st, voice: v.id, text, means: d.means, wav: await maker.speak(text, v) }, story, st.state);
      }
    }
    if (opts.kinds.includes('non_answers')) {
      allStages.forEach((st, si) => {
        nonAnswers[set].forEach((text, i) => {
          if (opts.quick && (i + si) % 3 !== 0) return;
          const picked = voices.filter((_, k) => opts.naVoices >= voices.length || (i + k) % voices.length < opts.naVoices);
          for (const v of picked) jobs.push({ item: { set, kind: 'non_answer', story: slug, stage: st, voice: v.id, text, wav: new Uint8Array() }, story, state: st.state });
        });
        SOUNDS.forEach((s, i) => {
          if (!opts.quick || (i + si) % 3 === 0) push({ set, kind: 'sound', story: slug, stage: st, voice: 'sound', text: s, wav: maker.sound(s, set) }, story, st.state);
        });
      });
    }
  }
  // Non-answer audio is made as it is needed (there are many).
  const voiceById = new Map(Object.values(VOICES).flat().map((v) => [v.id, v]));
  log(`${set}: ${jobs.length} clips`);
  let done = 0;
  const t0 = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const index = next++;
      const job = jobs[index];
      if (!job) break;
      if (job.item.wav.length === 0) {
        const v = voiceById.get(job.item.voice);
        if (v) job.item.wav = await maker.speak(job.item.text, v);
      }
      // Kept in the order the clips were made, not the order the two workers finish them: the report's lists
      // (goals missed, examples) and the dump then read the same on every run.
      judged[index] = await judgeWith(code, u, job.item, job.story, job.state);
      if (++done % 250 === 0) log(`${set}: ${done}/${jobs.length} (${round((performance.now() - t0) / 1000, 0)} s)`);
    }
  };
  await Promise.all([worker(), worker()]);
  return judged;
}

export async function run(): Promise<Record<string, unknown>> {
  const available = await isPocketsphinxAvailable();
  if (!available.ok) return { name: 'voice-understanding', skipped: 'pocketsphinx not installed', missing: available.missing };
  const root = resolve(process.env.BENCH_VU_CODE ?? HERE);
  const sets = list('BENCH_VU_SETS', ['tuning', 'held_out', 'human']) as (SetName | 'human')[];
  const stories = list('BENCH_VU_STORIES', STORIES);
  const kinds = list('BENCH_VU_KINDS', ['sentences', 'paraphrases', 'non_answers']);
  const quick = process.env.BENCH_VU_QUICK === '1';
  const naVoices = Number(process.env.BENCH_VU_NON_ANSWER_VOICES ?? (quick ? 1 : 99));
  const began = performance.now();
  const load = os.loadavg()[0] ?? 0;
  const code = await loadCode(root, root === HERE ? 'this checkout' : root);
  const u = await code.understander();
  const out: Record<string, unknown> = {
    name: 'voice-understanding',
    code: { root: code.label, commit: code.commit, system: u.name },
    started_at: new Date().toISOString(),
    ...(quick ? { quick: true } : {}),
    goals: GOALS,
    voices: Object.fromEntries(Object.entries(VOICES).map(([k, v]) => [k, v.map((p) => p.id)])),
  };
  const all: Judged[] = [];
  try {
    for (const set of sets) {
      const judged = await runSet(code, u, set, { stories, kinds, naVoices, quick });
      all.push(...judged);
      out[set] = {
        ...report(judged),
        worst_confusions: confusions(judged),
        typed: typed(judged),
        understand_ms: summarize(judged.map((j) => j.ms), 1),
      };
    }
  } finally {
    await u.close();
  }
  const dump = process.env.BENCH_VU_DUMP;
  if (dump) writeFileSync(dump, all.map((j) => JSON.stringify(j)).join('\n') + '\n');
  out.machine_load_avg_1m = { before: round(load, 2), after: round(os.loadavg()[0] ?? 0, 2) };
  out.total_s = round((performance.now() - began) / 1000, 1);
  return out;
}

export type { Stage };
