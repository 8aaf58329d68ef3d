import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { GameOutput } from '../schema/game-output.js';
import { statesByStage } from '../sim/moment-states.js';
import { Story } from '../story/format.js';
import { missHelp, NOT_CAUGHT_TEXT } from '../brain/miss-help.js';
import { missTurnIndex, notCaughtTurn } from './not-caught.js';

const lantern = Story.parse(JSON.parse(readFileSync('fixtures/stories/lantern-keeper/story.json', 'utf8')));
const stages = statesByStage(lantern, { runs: 10 });
const crossroad = stages.find((s) => s.moment.name.en === 'Three Ways from the Quay');
if (!crossroad) throw new Error('no crossroad state');

it('answers the first miss with the apology and a hint, the second with the choices too', () => {
  const first = notCaughtTurn(lantern, crossroad.state, { input_id: '11111111-1111-4111-8111-111111111111', miss_number: 1, reason: 'unsure' });
  if (!first) throw new Error('no turn');
  expect(GameOutput.parse(first.output)).toEqual(first.output);
  expect(first.output.dialogue.startsWith("Sorry, I didn't catch that. You can say, for example: ")).toBe(true);
  expect(first.output.not_caught).toMatchObject({ miss_number: 1, reason: 'unsure', choices: [] });
  expect(first.output.not_caught?.hint).toContain('"');
  // Nothing counted, nothing completed: the run is as it was.
  expect(first.output).toMatchObject({ interaction_counted: false, complete_the_moment: false, transcribed_player_answer: '' });
  expect(first.output.loop_current_number_of_interactions).toBe(crossroad.state.run?.loop_current_number_of_interactions);
  expect(first.speak).toMatchObject({ type: 'speak', text: first.output.dialogue, language: 'english', input_id: first.output.input_id });
  expect(first.where).toMatchObject({ player_moment_id: first.output.player_moment_id, stage: '', turn_index: missTurnIndex(crossroad.state) });

  const second = notCaughtTurn(lantern, crossroad.state, { input_id: '22222222-2222-4222-8222-222222222222', miss_number: 2, reason: 'no_decision' });
  const choices = second?.output.not_caught?.choices ?? [];
  expect(choices.map((c) => c.text)).toEqual(expect.arrayContaining(['Down to the tide caves', "The ferryman's cottage", 'The market', 'Which way is best?']));
  expect(second?.output.dialogue.endsWith('Or tap one of the choices.')).toBe(true);
});

it('never suggests the way to a Dead End as an example in the hint', () => {
  const help = missHelp(lantern, crossroad.state, 'english', 1);
  expect(help.hint).not.toContain('caves');
  expect(missHelp(lantern, crossroad.state, 'english', 3).choices.some((c) => c.text === 'Down to the tide caves')).toBe(true);
});

it('speaks French to a French run', () => {
  const fr = statesByStage(lantern, { runs: 5, language: 'french' }).find((s) => s.moment.name.en === 'Three Ways from the Quay');
  if (!fr) throw new Error('no state');
  const help = missHelp(lantern, fr.state, 'french', 2);
  expect(help.dialogue.startsWith(NOT_CAUGHT_TEXT.french)).toBe(true);
  expect(help.choices.length).toBeGreaterThan(0);
});
