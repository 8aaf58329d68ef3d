// `looptale story lint-speech` on a fixture story, with the real recogniser (pocketsphinx, installed by .ci/run).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import type { SpeechLintReport } from '../server/voice/lint-speech.js';

const run = promisify(execFile);
// `npm test` needs pocketsphinx (README; .ci/run installs it).
it('finds a sentence for every decision, speaks them in three voices and scores each stage', async () => {
  const { stdout } = await run('node', ['bin/looptale.js', 'story', 'lint-speech', 'fixtures/stories/lantern-keeper/story.json', '--json', '--min-score', '85'], { maxBuffer: 1 << 24 });
  const r = JSON.parse(stdout) as SpeechLintReport;
  expect(r.voices).toEqual(['m3-175-50', 'f2-150-70-noise20', 'm7-200-35']);
  expect(r.recogniser).toBe('pocketsphinx');
  const spoken = r.moments.reduce((n, m) => n + m.sentences.length, 0);
  expect(spoken).toBeGreaterThanOrEqual(24);
  expect(r.total).toBe(spoken * 3);
  // Every decision at every stage has a sentence a player can say.
  expect(r.moments.every((m) => m.reached && m.unspeakable.length === 0 && m.actions > 0)).toBe(true);
  expect(r.unspeakable).toBe(0);
  // Measured 69/72 on this machine; never a sentence heard as another answer.
  expect(r.confused).toBe(0);
  expect(r.score).toBeGreaterThanOrEqual(85);
}, 480_000); // 60-120 s on 2 busy cores; bounded by the story (93 sentence x voice decodes)

// The Clockwork Siege: every decision speakable (battle attacks and each fighter's defence, bets, riddles, equip), and
// no sentence heard as another decision. Its score is below #13's goal of 90 (157-163 of 201 measured in session 6,
// 170 in session 14, 177 in session 15 once generated sentences were said as a player would: the m7 voice's bets and
// attacks and the wrong guess "it is the spring" are missed, not confused): the floor guards what is reached.
it('speaks The Clockwork Siege and never confuses a decision', async () => {
  const { stdout } = await run('node', ['bin/looptale.js', 'story', 'lint-speech', 'fixtures/stories/clockwork-siege/story.json', '--json', '--min-score', '85'], { maxBuffer: 1 << 24 });
  const r = JSON.parse(stdout) as SpeechLintReport;
  expect(r.moments.every((m) => m.reached && m.unspeakable.length === 0 && m.actions > 0)).toBe(true);
  expect(r.moments.some((m) => m.stage.startsWith('defend:'))).toBe(true);
  expect(r.moments.some((m) => m.stage.startsWith('riddle:'))).toBe(true);
  expect(r.confused).toBe(0);
  expect(r.score).toBeGreaterThanOrEqual(85);
}, 600_000); // 60-180 s on 2 busy cores (201 sentence x voice decodes)

it('refuses French without a transcription server, naming the variable', async () => {
  const err = await run('node', ['bin/looptale.js', 'story', 'lint-speech', 'fixtures/stories/lantern-keeper/story.json', '--language', 'fr'], { env: { ...process.env, STT_BASE_URL: '' } }).catch((e: { code: number; stderr: string }) => e);
  expect(err).toMatchObject({ code: 2 });
  expect((err as { stderr: string }).stderr).toContain('STT_BASE_URL');
});
