// Speech lint for story makers (`looptale story lint-speech`), at every stage of every moment where the player speaks
// (a battle's attack and each fighter's defence, an upgrade's bet and each riddle):
//   1. every decision the engine accepts there (answers, branches, rewards, items on characters, team members,
//      attacks by each fighter on each foe, plain or in style, defences, bets, riddle answers) must have a sentence a
//      player can say: one of the story's `say` sentences, or one generated from the team, the opponents, the items
//      and the story's words (engine/brain/coverage.ts). UNSPEAKABLE otherwise, and the lint fails;
//   2. those sentences (the story's, and one generated sentence per decision they leave out, a few per stage) are
//      spoken by several synthetic voices and heard as the server hears them (the stage's models, verification, the
//      brain's check); a sentence is right for a voice when the brain decides from what was heard what it decides from
//      the typed sentence. CONFUSED (heard as another decision) fails the lint; NOT RECOGNISED (a miss) lowers the
//      score.
import { speakableCoverage } from '../../engine/brain/coverage.js';
import { rewardName } from '../../engine/brain/scripted.js';
import { decides, decideTyped, decisionKey, speakable } from '../../engine/brain/speakable.js';
import type { GameState } from '../../engine/run/state.js';
import type { PlayLanguage } from '../../engine/schema/enums.js';
import { statesByStage } from '../../engine/sim/moment-states.js';
import type { Story } from '../../engine/story/format.js';
import { resample, STT_RATE, toInt16 } from './audio.js';
import { EspeakEngine, ESPEAK_RATE } from './espeak-engine.js';
import { hearingStage, type Hearing } from './hearing.js';
import { LINT_PROFILES, speakAsPlayer, type SpeechProfile } from './synthetic-speech.js';
import { encodeWav } from './wav.js';

export type VoiceResult = { voice: string; heard: string | null; ok: boolean; got: string };
export type SentenceLint = { text: string; authored: boolean; expected: string; voices: VoiceResult[]; right: number };
export type MomentLint = {
  id: string; name: string; type: string;
  /** '' for most moments; battle 'attack' / 'defend:<fighter>'; upgrade 'bet' / 'riddle:<level>'. */
  stage: string;
  /** False when no bot reached the moment: nothing could be checked there. */
  reached: boolean;
  sentences: SentenceLint[];
  /** Decisions the engine accepts here: how many, and those no sentence a player can say reaches. */
  actions: number;
  unspeakable: string[];
  /** The story's sentences that, typed, decide nothing at any stage of the moment. */
  unmatched: string[];
  /** Everyday talk (SMALL_TALK) that, typed, decides something here, and what it decides. */
  small_talk: { text: string; decides: string }[];
  right: number; total: number; score: number;
};
export type SpeechLintReport = {
  story: string; language: PlayLanguage; recogniser: string; voices: string[];
  moments: MomentLint[];
  right: number; total: number; score: number;
  /** Sentence x voice results heard as another decision than typed (the dangerous kind). */
  confused: number;
  not_recognised: number;
  unspeakable: number;
  /** Everyday talk taken as a decision (typed): a warning, not a failure. */
  small_talk_taken: number;
};

/**
 * Everyday talk that is never an answer (asking to repeat, thinking aloud, counting, greetings, talk to someone else),
 * tried typed at every stage: what decides something is reported, since a typing player, the native wrapper's own
 * transcription or an HTTP recogniser would have it taken as an answer. Written for the lint, apart from the bench's
 * sets (fixtures/speech/non-answers.json).
 */
export const SMALL_TALK: Readonly<Record<PlayLanguage, readonly string[]>> = {
  english: ['Could you repeat that please?', 'What did you just say?', "Sorry, I didn't catch that", 'Speak up a bit',
    'Hold on', 'Let me think for a second', "I'm not really sure", "I don't know what to say",
    'Good afternoon', 'How are you doing?', 'Nice to meet you', 'One, two, three', 'Four, five, six, seven',
    'Is this working?', 'Can you hear me now?', "I'll be back in a minute", "I'm thinking", "That's a good question",
    'Never mind', 'Oh well', 'It is getting late', 'Where did I put my keys?'],
  french: ['Tu peux répéter ?', "Qu'est-ce que tu as dit ?", 'Attends un peu', 'Je réfléchis', 'Je ne sais pas quoi dire',
    'Bonjour', 'Comment ça va ?', 'Un, deux, trois', 'Tu m\'entends ?', 'Laisse tomber', 'Je reviens tout de suite',
    'Il est tard'],
};

/** A short human label of what the brain decides from a text at a state. */
export function describeDecision(story: Story, state: GameState, text: string): string {
  const d = decideTyped(story, state, text);
  const name = (id: string | undefined): string =>
    (id && (state.characters.find((c) => c.id === id)?.name ?? state.opponents.find((o) => o.id === id)?.name ?? state.items.find((i) => i.id === id)?.name)) || '?';
  const parts: string[] = [];
  // A reward taken by its name (the brain's `matched` is then "character:<id>"...): the name, not the id.
  const byName = d.award && d.matched === `${d.award.reward_type}:${d.award.id}` ? rewardName(story, d.award.reward_type, d.award.id, 'english') : '';
  if (d.matched.startsWith('branch:')) parts.push(`branch to ${story.moments.find((m) => m.id === d.next_moment_id)?.name.en ?? d.next_moment_id ?? '?'}`);
  else if (byName) parts.push(`reward ${byName}`);
  else if (d.matched) parts.push(`answer '${d.matched}'`);
  if (d.battle) parts.push(`${d.battle.kind} by ${name(d.battle.actor_id)}${d.battle.target_id ? ` on ${name(d.battle.target_id)}` : ''}${d.battle.thematic ? ' (thematic)' : ''}`);
  if (d.selection?.length) parts.push(`team ${d.selection.map(name).join(', ')}`);
  if (d.equip) parts.push(`equip ${name(d.equip.item_id)} on ${name(d.equip.character_id)}`);
  if (d.upgrade) parts.push(d.upgrade.stage === 'bet' ? `bet ${d.upgrade.bet ?? '?'} on ${name(d.upgrade.character_id)}${d.upgrade.level ? ` (${d.upgrade.level})` : ''}` : `riddle ${d.upgrade.correct ? 'right' : 'wrong'}`);
  return parts.join(', ') || 'nothing (fallback reply)';
}

export type LintSpeechOptions = {
  /** How sentences are heard; not needed with coverageOnly. */
  hearing: Hearing | null;
  language?: PlayLanguage;
  profiles?: readonly SpeechProfile[];
  /** Generated sentences spoken per stage, beyond the story's own (one per decision they leave out). */
  generatedPerStage?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Only check that every decision has a sentence (no speech). */
  coverageOnly?: boolean;
  onProgress?: (done: number, total: number) => void;
};

/** The sentences to speak at a stage: the story's own that decide something here, then generated ones for the
 *  decisions those leave out, spread over the patterns, at most `extra`. */
function sentencesOf(story: Story, state: GameState, language: PlayLanguage, extra: number): { text: string; authored: boolean }[] {
  const out: { text: string; authored: boolean }[] = [];
  const covered = new Set<string>();
  for (const p of speakable(story, state, language).filter((x) => x.authored)) {
    out.push({ text: p.example, authored: true });
    covered.add(decisionKey(decideTyped(story, state, p.example)));
  }
  let added = 0;
  for (const c of speakableCoverage(story, state, language)) {
    if (added >= extra || !c.sentence || c.authored) continue;
    const key = decisionKey(decideTyped(story, state, c.sentence));
    if (covered.has(key)) continue;
    covered.add(key);
    out.push({ text: c.sentence, authored: false });
    added++;
  }
  return out;
}

export async function lintSpeech(story: Story, opts: LintSpeechOptions): Promise<SpeechLintReport> {
  const language = opts.language ?? 'english';
  const profiles = opts.profiles ?? LINT_PROFILES;
  const stages = statesByStage(story, { language });
  type Job = { moment: MomentLint; sentence: SentenceLint; state: GameState; profile: SpeechProfile };
  const jobs: Job[] = [];
  const moments: MomentLint[] = [];
  for (const m of story.moments) {
    const mine = stages.filter((s) => s.moment.id === m.id);
    const says = (language === 'french' ? (m.say?.fr ?? m.say?.en) : m.say?.en) ?? [];
    if (mine.length === 0) {
      if (says.length > 0 || m.answers.length > 0) {
        moments.push({ id: m.id, name: m.name.en, type: m.type, stage: '', reached: false, sentences: [], actions: 0, unspeakable: [], unmatched: [], small_talk: [], right: 0, total: 0, score: 100 });
      }
      continue;
    }
    // A story sentence that decides nothing at any stage of its moment.
    const unmatched = says.filter((t) => !mine.some((s) => decides(decideTyped(story, s.state, t))));
    for (const [k, s] of mine.entries()) {
      const coverage = speakableCoverage(story, s.state, language);
      const lint: MomentLint = {
        id: m.id, name: m.name.en, type: m.type, stage: s.stage, reached: true, sentences: [], actions: coverage.length,
        unspeakable: coverage.filter((c) => !c.sentence).map((c) => c.action), unmatched: k === 0 ? unmatched : [],
        small_talk: SMALL_TALK[language].filter((t) => decides(decideTyped(story, s.state, t))).map((t) => ({ text: t, decides: describeDecision(story, s.state, t) })),
        right: 0, total: 0, score: 0,
      };
      for (const t of sentencesOf(story, s.state, language, opts.generatedPerStage ?? 6)) {
        const sentence: SentenceLint = { text: t.text, authored: t.authored, expected: describeDecision(story, s.state, t.text), voices: [], right: 0 };
        lint.sentences.push(sentence);
        if (!opts.coverageOnly) for (const profile of profiles) jobs.push({ moment: lint, sentence, state: s.state, profile });
      }
      moments.push(lint);
    }
  }

  // Fresh engines: a sentence's audio is the same whatever was said before it and from run to run.
  const engines = new Map<string, EspeakEngine>();
  if (jobs.length > 0) for (const p of profiles) engines.set(p.id, await EspeakEngine.create({ fresh: true }));
  let done = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const j = jobs[next++];
      if (!j) break;
      const engine = engines.get(j.profile.id);
      if (!engine) continue;
      const signal = speakAsPlayer(engine, j.sentence.text, language, j.profile, `${j.moment.id}.${j.moment.stage}.${j.sentence.text}.${j.profile.id}`);
      const wav = encodeWav(toInt16(resample(signal, ESPEAK_RATE, STT_RATE)), STT_RATE);
      if (!opts.hearing) break;
      const r = await opts.hearing.hear({ audio: { bytes: wav, format: 'wav' }, stage: hearingStage(story, j.state, language) });
      const heard = r.ok ? r.words : null;
      const ok = heard !== null && decisionKey(decideTyped(story, j.state, j.sentence.text)) === decisionKey(decideTyped(story, j.state, heard));
      j.sentence.voices.push({ voice: j.profile.id, heard, ok, got: heard === null ? 'not recognised' : describeDecision(story, j.state, heard) });
      opts.onProgress?.(++done, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 2) }, worker));

  let confused = 0;
  let notRecognised = 0;
  for (const m of moments) {
    for (const s of m.sentences) {
      s.voices.sort((a, b) => profiles.findIndex((p) => p.id === a.voice) - profiles.findIndex((p) => p.id === b.voice));
      s.right = s.voices.filter((v) => v.ok).length;
      m.right += s.right;
      m.total += s.voices.length;
      for (const v of s.voices) {
        if (v.ok) continue;
        if (v.heard === null) notRecognised++;
        else confused++;
      }
    }
    m.score = m.total ? Math.round((m.right / m.total) * 1000) / 10 : 100;
  }
  const right = moments.reduce((n, m) => n + m.right, 0);
  const total = moments.reduce((n, m) => n + m.total, 0);
  return {
    story: story.name, language, recogniser: opts.coverageOnly || !opts.hearing ? 'none' : opts.hearing.name, voices: opts.coverageOnly ? [] : profiles.map((p) => p.id), moments,
    right, total, score: total ? Math.round((right / total) * 1000) / 10 : 100, confused, not_recognised: notRecognised,
    unspeakable: moments.reduce((n, m) => n + m.unspeakable.length, 0),
    small_talk_taken: moments.reduce((n, m) => n + m.small_talk.length, 0),
  };
}

/** The report as text: one line per moment stage, then one per problem. */
export function formatSpeechLint(r: SpeechLintReport): string {
  const out = [r.voices.length
    ? `${r.story}: speech lint, ${r.language}, ${r.voices.length} voices (${r.voices.join(', ')}), recogniser ${r.recogniser}`
    : `${r.story}: speech lint, ${r.language}, coverage only (is every decision speakable?)`];
  for (const m of r.moments) {
    const where = `${m.name} (${m.type}${m.stage ? `, ${m.stage}` : ''})`;
    if (!m.reached) {
      out.push(`      -    NOT REACHED  ${where}: no bot reached it, nothing checked`);
      continue;
    }
    out.push(r.voices.length
      ? `  ${`${m.right}/${m.total}`.padStart(7)} ${String(m.score).padStart(5)}%  ${where}, ${m.actions} decisions, ${m.sentences.length} sentences`
      : `  ${String(m.actions - m.unspeakable.length).padStart(3)}/${String(m.actions).padEnd(3)} speakable  ${where}`);
    for (const s of m.sentences) {
      for (const v of s.voices) {
        if (v.ok) continue;
        const kind = s.authored ? '' : ' [generated]';
        out.push(v.heard === null
          ? `      NOT RECOGNISED "${s.text}"${kind} (${s.expected}) with voice ${v.voice}`
          : `      CONFUSED "${s.text}"${kind} (${s.expected}) heard as "${v.heard}" (${v.got}) with voice ${v.voice}`);
      }
    }
    for (const t of m.unmatched) out.push(`      MATCHES NOTHING "${t}": typed, it decides nothing at any stage the bots reached here`);
    for (const u of m.unspeakable) out.push(`      UNSPEAKABLE ${u}: no sentence a player can say reaches it (add one to say, or words to the story)`);
    for (const t of m.small_talk) out.push(`      SMALL TALK TAKEN "${t.text}" (${t.decides}) when typed: reword the phrase it meets, or add the everyday word to decoys`);
  }
  out.push(r.voices.length
    ? `Score ${r.right}/${r.total} (${r.score}%): ${r.confused} confused, ${r.not_recognised} not recognised, ${r.unspeakable} unspeakable, ${r.moments.reduce((n, m) => n + m.unmatched.length, 0)} matching nothing, ${r.small_talk_taken} small talk taken (a warning)`
    : `Coverage only (no speech): ${r.unspeakable} unspeakable, ${r.moments.reduce((n, m) => n + m.unmatched.length, 0)} matching nothing, ${r.small_talk_taken} small talk taken (a warning)`);
  return `${out.join('\n')}\n`;
}

