import { describe, expect, it } from 'vitest';
import { Harness } from '../run/test-harness.js';
import { T, testStory } from '../run/test-story.js';
import { scriptedTurn } from '../sim/play-turn.js';
import { decideScripted } from './scripted.js';

/** Plays lines through the scripted brain and the engine. */
class Scripted extends Harness {
  talk(text: string, start = false) {
    const { result } = scriptedTurn(this.state, this.story, { input_id: this.nextId(), transcription: text, is_starting_dialogue: start }, this.now);
    this.now += 1000;
    if (!result.ok) throw new Error(result.error.message);
    this.state = result.state;
    return result.outputs.at(-1);
  }
}

function toLearn(language: 'english' | 'french' = 'english'): Scripted {
  const h = new Scripted(testStory);
  h.create({ language });
  h.talk('', true);
  h.talk('', true);
  return h;
}

describe('scripted brain', () => {
  it('opens a moment with an authored line and completes a Monologue', () => {
    const h = new Scripted(testStory);
    h.create();
    const out = h.talk('', true);
    expect(out).toMatchObject({ dialogue: 'Welcome.', complete_the_moment: true });
  });

  it('recognises answers despite typos, case, punctuation and word order', () => {
    for (const said of ['Understood!', 'i UNDERSTAND.', 'ok, got it', 'undrestood', 'it I got']) {
      const h = toLearn();
      expect(h.talk(said)?.complete_the_moment, said).toBe(true);
    }
  });

  it('recognises French with and without accents and elisions', () => {
    for (const said of ["J'ai compris.", 'oui compris', 'jai compris']) {
      const h = toLearn('french');
      expect(h.talk(said)?.complete_the_moment, said).toBe(true);
    }
  });

  it('never takes out-of-story words or decoys as an answer', () => {
    for (const said of ['banana pancakes', 'what is the weather', '', 'banana']) {
      const h = toLearn();
      const out = h.talk(said);
      expect(out?.complete_the_moment, said).toBe(false);
    }
    const h = toLearn();
    expect(['Pardon?', 'Say again?']).toContain(h.talk('gibberish')?.dialogue);
  });

  it('varies lines without repeating the last one used with this player', () => {
    const h = toLearn();
    const lines = [h.talk('what'), h.talk('huh'), h.talk('eh'), h.talk('hm')].map((o) => o?.dialogue);
    for (let i = 1; i < lines.length; i++) expect(lines[i]).not.toBe(lines[i - 1]);
  });

  it('takes the branch the player names at a Crossroad', () => {
    const h = toLearn();
    h.talk('understood');
    h.talk('', true);
    const out = h.talk('I open the red door');
    expect(out).toMatchObject({ complete_the_moment: true, next_moment_id: T.reward, dialogue: 'Left it is.' });
  });

  it('rewards what the player names, battles by verbs and names, thematic by style', () => {
    const h = toLearn();
    h.talk('understood');
    h.talk('', true);
    h.talk('left');
    h.talk('', true);
    const reward = h.talk('I take the cloak please');
    expect(reward).toMatchObject({ is_awarded: true, award_type: 'item', complete_the_moment: true });
    h.talk('', true);
    const attack = h.talk('Hero attacks the ogre with fury');
    const hit = attack?.battle_state_action_history.find((a) => a.actor_name === 'Hero');
    expect(hit).toMatchObject({ target_name: 'Ogre', was_thematic: true, damage: 9 });
    const defend = h.talk('dodge!');
    expect(defend?.battle_state_next_phase).toBe('player_attack_input');
  });

  it('is deterministic: the same seed and inputs give the same decision, byte for byte', () => {
    const h = toLearn();
    const input = { story: testStory, state: h.state, transcription: 'hmm', is_starting_dialogue: false, input_id: 'abc' };
    expect(JSON.stringify(decideScripted(input))).toBe(JSON.stringify(decideScripted(input)));
  });
});
