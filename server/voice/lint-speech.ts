// Speech lint for story makers: every sentence a moment expects (its `say`) is spoken by several synthetic voices,
// recognised with the moment's grammar, and given to the scripted brain; a sentence is right for a voice when the
// brain decides from the recognised words what it decides from the typed sentence. Reports sentences not recognised
// or confused with another answer, and answers no sentence reaches, per moment, with a score.
import type { PlayLanguage } from '../../engine/schema/enums.js';
import type { Decision } from '../../engine/brain/decision.js';
import type { GameState } from '../../engine/run/state.js';
import { statesByMoment } from '../../engine/sim/moment-states.js';
import type { Story } from '../../engine/story/format.js';
import { resample, STT_RATE, toInt16 } from './audio.js';
import { EspeakEngine, ESPEAK_RATE } from './espeak-engine.js';
import { decideLine, decisionKey } from './fixture-lines.js';
import { LINT_PROFILES, speakAsPlayer, type SpeechProfile } from './synthetic-speech.js';
import type { Transcriber } from './transcriber.js';
import { momentVocabulary, sayOf, storyDecoys } from '../game/vocabulary.js';
import { encodeWav } from './wav.js';

export type VoiceResult = { voice: string; heard: string | null; ok: boolean; got: string };
export type SentenceLint = { text: string; expected: string; voices: VoiceResult[]; right: number };
export type MomentLint = {
  id: string; name: string; type: string;
  /** False when no bot reached the moment: its sentences are then judged against the story's first state. */
  reached: boolean;
  sentences: SentenceLint[];
  /** Answers and branches that no sentence of `say` reaches when typed. */
  uncovered: string[];
  /** Sentences that, typed, match nothing at all (the brain's fallback). */
  unmatched: string[];
  right: number; total: number; score: number;
};
export type SpeechLintReport = {
  story: string; language: PlayLanguage; recogniser: string; voices: string[];
  moments: MomentLint[];
  right: number; total: number; score: number;
  /** Sentence x voice results heard as another decision than typed (the dangerous kind). */
  confused: number;
  not_recognised: number;
};

/** A short human label of what the brain decides from a text at a state. */
export function describeDecision(story: Story, state: GameState, text: string): string {
  const d = decideLine(story, state, text);
  const name = (id: string | undefined): string =>
    (id && (state.characters.find((c) => c.id === id)?.name ?? state.opponents.find((o) => o.id === id)?.name ?? state.items.find((i) => i.id === id)?.name)) || '?';
  const parts: string[] = [];
  if (d.matched.startsWith('branch:')) parts.push(`branch to ${story.moments.find((m) => m.id === d.next_moment_id)?.name.en ?? d.next_moment_id ?? '?'}`);
  else if (d.matched) parts.push(`answer '${d.matched}'`);
  if (d.battle) parts.push(`${d.battle.kind} by ${name(d.battle.actor_id)}${d.battle.target_id ? ` on ${name(d.battle.target_id)}` : ''}${d.battle.thematic ? ' (thematic)' : ''}`);
  if (d.selection?.length) parts.push(`team ${d.selection.map(name).join(', ')}`);
  if (d.equip) parts.push(`equip ${name(d.equip.item_id)} on ${name(d.equip.character_id)}`);
  if (d.upgrade) parts.push(d.upgrade.stage === 'bet' ? `bet ${d.upgrade.bet ?? '?'} on ${name(d.upgrade.character_id)}${d.upgrade.level ? ` (${d.upgrade.level})` : ''}` : `riddle ${d.upgrade.correct ? 'right' : 'wrong'}`);
  return parts.join(', ') || 'nothing (fallback reply)';
}

export type LintSpeechOptions = {
  transcriber: Transcriber;
  language?: PlayLanguage;
  profiles?: readonly SpeechProfile[];
  /** Requests in flight at once. */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
};

export async function lintSpeech(story: Story, opts: LintSpeechOptions): Promise<SpeechLintReport> {
  const language = opts.language ?? 'english';
  const profiles = opts.profiles ?? LINT_PROFILES;
  const states = statesByMoment(story, { language });
  const fallbackState = states.values().next().value?.[0];
  const decoys = storyDecoys(story, language);
  type Job = { moment: MomentLint; sentence: SentenceLint; state: GameState; profile: SpeechProfile; sentences: string[]; vocabulary: string[] };
  const jobs: Job[] = [];
  const moments: MomentLint[] = [];
  for (const m of story.moments) {
    // The moment's own sentences make its grammar, also when it is judged at another moment's state (not reached).
    const phrases = sayOf(m, language);
    if (phrases.length === 0 && m.answers.length === 0) continue;
    const reached = states.get(m.id) ?? [];
    const state = reached[0] ?? fallbackState;
    if (!state) continue;
    const vocabulary = momentVocabulary(story, state, language);
    const lint: MomentLint = { id: m.id, name: m.name.en, type: m.type, reached: reached.length > 0, sentences: [], uncovered: [], unmatched: [], right: 0, total: 0, score: 0 };
    const typed = new Set<string>();
    const decide = (st: GameState, text: string): Decision => decideLine(story, st, text);
    const matches = (d: Decision): boolean => Boolean(d.matched || d.battle || d.selection?.length || d.equip || d.upgrade?.stage === 'bet' || (d.upgrade?.stage === 'answer' && d.upgrade.correct));
    for (const text of phrases) {
      // The first state of the moment where the typed sentence means something (later stages: an upgrade's riddle).
      const at = (reached.length ? reached : [state]).find((st) => matches(decide(st, text))) ?? state;
      const d = decide(at, text);
      typed.add(d.matched);
      if (d.next_moment_id) typed.add(`next:${d.next_moment_id}`);
      if (!matches(d)) lint.unmatched.push(text);
      const s: SentenceLint = { text, expected: describeDecision(story, at, text), voices: [], right: 0 };
      lint.sentences.push(s);
      for (const profile of profiles) jobs.push({ moment: lint, sentence: s, state: at, profile, sentences: phrases, vocabulary });
    }
    for (const a of m.answers) if (!typed.has(a.id)) lint.uncovered.push(`answer '${a.id}'`);
    if (m.transitions.length > 1) {
      for (const t of m.transitions) {
        if (!t.match && !t.label) continue;
        if (!typed.has(`branch:${t.next_moment_id}`) && !typed.has(`next:${t.next_moment_id}`)) lint.uncovered.push(`branch to ${story.moments.find((x) => x.id === t.next_moment_id)?.name.en ?? t.next_moment_id}`);
      }
    }
    moments.push(lint);
  }

  // One eSpeak engine per voice keeps each voice's output independent of the order of the others.
  const engines = new Map<string, EspeakEngine>();
  for (const p of profiles) engines.set(p.id, await EspeakEngine.create());
  let done = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const j = jobs[next++];
      if (!j) break;
      const engine = engines.get(j.profile.id);
      if (!engine) continue;
      const signal = speakAsPlayer(engine, j.sentence.text, language, j.profile, `${j.moment.id}.${j.sentence.text}.${j.profile.id}`);
      const wav = encodeWav(toInt16(resample(signal, ESPEAK_RATE, STT_RATE)), STT_RATE);
      const r = await opts.transcriber.transcribe({ audio: { bytes: wav, format: 'wav' }, language, sentences: j.sentences, vocabulary: j.vocabulary, decoys });
      const heard = r.ok ? r.text : null;
      const ok = decisionKey(story, j.state, j.sentence.text) === decisionKey(story, j.state, heard ?? '');
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
    story: story.name, language, recogniser: opts.transcriber.name, voices: profiles.map((p) => p.id), moments,
    right, total, score: total ? Math.round((right / total) * 1000) / 10 : 100, confused, not_recognised: notRecognised,
  };
}

/** The report as text: one line per moment, then one per problem. */
export function formatSpeechLint(r: SpeechLintReport): string {
  const out = [`${r.story}: speech lint, ${r.language}, ${r.voices.length} voices (${r.voices.join(', ')}), recogniser ${r.recogniser}`];
  for (const m of r.moments) {
    out.push(`  ${m.right}/${m.total} ${String(m.score).padStart(5)}%  ${m.name} (${m.type})${m.reached ? '' : ' [not reached by the bots: judged at the first moment\'s state]'}`);
    for (const s of m.sentences) {
      for (const v of s.voices) {
        if (v.ok) continue;
        out.push(v.heard === null
          ? `      NOT RECOGNISED "${s.text}" (${s.expected}) with voice ${v.voice}`
          : `      CONFUSED "${s.text}" (${s.expected}) heard as "${v.heard}" (${v.got}) with voice ${v.voice}`);
      }
    }
    for (const t of m.unmatched) out.push(`      MATCHES NOTHING "${t}": typed, at every state the bots reached here, the brain gives its fallback reply`);
    for (const u of m.uncovered) out.push(`      UNCOVERED ${u}: no sentence in say reaches it`);
  }
  out.push(`Score ${r.right}/${r.total} (${r.score}%): ${r.confused} confused, ${r.not_recognised} not recognised, ${r.moments.reduce((n, m) => n + m.uncovered.length, 0)} uncovered, ${r.moments.reduce((n, m) => n + m.unmatched.length, 0)} matching nothing`);
  return `${out.join('\n')}\n`;
}
