import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Story } from '../../engine/story/format.js';
import { formatSpeechLint, lintSpeech } from './lint-speech.js';

const json = (slug: string): Record<string, unknown> => JSON.parse(readFileSync(`fixtures/stories/${slug}/story.json`, 'utf8')) as Record<string, unknown>;

describe('lint-speech, coverage only', () => {
  it('warns of everyday talk a typing player would have taken as an answer, and a decoy clears it', async () => {
    const r = await lintSpeech(Story.parse(json('lantern-keeper')), { hearing: null, coverageOnly: true });
    expect(r.unspeakable).toBe(0);
    const taken = r.moments.flatMap((m) => m.small_talk.map((t) => `${m.name}: ${t.text} -> ${t.decides}`));
    // "well" is one letter from Nell, a name (not a familiar word), so typed it still names her.
    expect(taken).toContain('Nell at the Quay: Oh well -> reward Nell Cardew');
    expect(r.small_talk_taken).toBe(taken.length);
    const text = formatSpeechLint(r);
    expect(text).toContain('SMALL TALK TAKEN "Oh well" (reward Nell Cardew) when typed: reword the phrase it meets, or add the everyday word to decoys');
    expect(taken).toContain("The Keeper's Log: Where did I put my keys? -> answer 'missing'");
    expect(text).toMatch(/Coverage only \(no speech\): 0 unspeakable, 0 matching nothing, \d+ small talk taken \(a warning\)/);

    const withDecoy = json('lantern-keeper');
    const decoys = (withDecoy.decoys ?? { en: [] }) as { en: string[] };
    // The answer's phrase "key" fits one word; the decoy "put my keys" fits two ("my" is a stopword) and wins. The
    // decoy "well" is heard exactly where "Nell" was only one letter away.
    withDecoy.decoys = { ...decoys, en: [...decoys.en, 'put my keys', 'well'] };
    const after = await lintSpeech(Story.parse(withDecoy), { hearing: null, coverageOnly: true });
    const left = after.moments.flatMap((m) => m.small_talk.map((t) => t.text));
    expect(left).not.toContain('Where did I put my keys?');
    expect(left).not.toContain('Oh well');
    expect(after.small_talk_taken).toBe(r.small_talk_taken - 2);
  });
});
