// canonicalStateJson remembers each row's text by row object (the server digests and writes the state every turn):
// it must give canonicalJson's text for every state a run goes through, reused rows or not.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GameState } from '../run/state.js';
import { Story } from '../story/format.js';
import { Simulation } from './simulate.js';
import { canonicalJson, canonicalStateJson, digestOfJson, stateDigest } from './transcript.js';

const story = Story.parse(JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/stories/clockwork-siege/story.json'), 'utf8')));

/** The digest as first written (uint32 after each step): stored digests must keep their values. */
function digestV1(json: string): string {
  let a = 0x811c9dc5 >>> 0;
  let b = (0x811c9dc5 ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193) >>> 0;
  }
  return `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`;
}

describe('canonicalStateJson', () => {
  it('is canonicalJson for every state of 20 runs (each state twice: rows remembered from earlier states)', () => {
    let checked = 0;
    const seen: GameState[] = [];
    const sim = new Simulation(story, {
      runs: 20, seed: 4, bot: 'random', lean: false,
      onTurn: (state) => {
        const text = canonicalJson(state);
        expect(canonicalStateJson(state)).toBe(text);
        expect(canonicalStateJson(state)).toBe(text);
        expect(digestOfJson(text)).toBe(stateDigest(state));
        expect(digestOfJson(text)).toBe(digestV1(text));
        if (checked++ % 25 === 0) seen.push(state);
      },
    });
    for (let i = 0; i < 20; i++) sim.playRun();
    // States seen long ago still give their text (nothing they hold changed), and a reloaded copy digests the same.
    for (const s of seen) {
      expect(canonicalStateJson(s)).toBe(canonicalJson(s));
      expect(stateDigest(GameState.parse(JSON.parse(canonicalStateJson(s))))).toBe(stateDigest(s));
    }
    expect(checked).toBeGreaterThan(200);
    for (const text of ['', 'é', '\u{1F600}', '{"a":"\u00ff"}']) expect(digestOfJson(text)).toBe(digestV1(text));
  });
});
