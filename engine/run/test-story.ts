// A compact story that exercises every moment type, for the engine's own tests (not a player-facing fixture).
import { Story, type StoryInput } from '../story/format.js';

const id = (n: number): string => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;

export const T = {
  story: id(1),
  hero: id(10), sage: id(11), rook: id(12), foeA: id(13), foeB: id(14), ally: id(15),
  lamp: id(20), cloak: id(21), medal: id(22), gem: id(23), crown: id(24),
  place: id(30),
  intro: id(100), learn: id(101), cross: id(102), reward: id(103), battle: id(104), assemble: id(105),
  equip: id(106), upgrade: id(107), test: id(108), teamwork: id(109), epilogue: id(110), deadEnd: id(111),
  rewardR: id(200), dyn: id(201), rewardC: id(202),
} as const;

const say = (en: string): { en: string; fr: string } => ({ en, fr: `${en} (fr)` });
const words = (...en: string[]): { en: string[]; fr: string[] } => ({ en, fr: en });

export const testStoryInput: StoryInput = {
  format_version: 1,
  id: T.story,
  name: 'Engine Test Story',
  catalogue: { description: say('A story for tests.'), created_at: '2026-01-01T00:00:00.000Z' },
  loop_max_number_of_interactions: 30,
  rank_rewards: [{ rank: 'B', item_id: T.crown }],
  first_moment_id: T.intro,
  characters: [
    { id: T.hero, name: 'Hero', base_attack: 6, base_health: 20, properties: ['brave'], style_tags: ['aggressive'], is_enrolled_by_default: true },
    { id: T.sage, name: 'Sage', base_attack: 3, base_health: 14, properties: ['wise'], style_tags: ['elegant'], is_enrolled_by_default: true },
    { id: T.rook, name: 'Rook', base_attack: 5, base_health: 16, properties: ['sturdy'], is_enrolled_by_default: false },
    { id: T.ally, name: 'Ally', base_attack: 4, base_health: 12, properties: [], is_enrolled_by_default: false },
    { id: T.foeA, name: 'Gremlin', base_attack: 4, base_health: 10, properties: ['sly'] },
    { id: T.foeB, name: 'Ogre', base_attack: 8, base_health: 14, properties: ['huge'] },
  ],
  items: [
    { id: T.lamp, name: say('Lamp'), attack_bonus: 1, defense_bonus: 1, properties: ['bright'], is_acquired_by_default: true },
    { id: T.cloak, name: say('Cloak'), attack_bonus: 0, defense_bonus: 3, properties: ['hidden'] },
    { id: T.medal, name: say('Medal'), attack_bonus: 2, defense_bonus: 0, properties: ['honour'] },
    { id: T.gem, name: say('Gem'), attack_bonus: 1, defense_bonus: 1, properties: ['shiny'] },
    { id: T.crown, name: say('Crown'), attack_bonus: 1, defense_bonus: 1, properties: ['regal'] },
  ],
  places: [{ id: T.place, name: say('Hall') }],
  battle_verbs: {
    attack: { en: ['attack', 'strike', 'charge'], fr: ['attaque', 'frappe', 'charge'] },
    defend: { en: ['block', 'defend', 'dodge'], fr: ['bloque', 'pare', 'esquive'] },
    styles: [{ tag: 'aggressive', match: { en: ['fury', 'rage'], fr: ['furie', 'rage'] } }],
  },
  decoys: { en: ['banana', 'pancake'], fr: ['banane', 'crepe'] },
  moments: [
    { id: T.intro, name: say('Intro'), date: '1900-01-01', type: 'Monologue', place_id: T.place, character_id: T.sage, opening: [say('Welcome.')], transitions: [{ next_moment_id: T.learn }] },
    {
      id: T.learn, name: say('Learn'), date: '1900-01-02', type: 'Learn', character_id: T.sage, opening: [say('Listen.')],
      skip_after_completion_count: 1,
      answers: [
        { id: 'ok', match: { en: ['understood', 'i understand', 'got it'], fr: ['compris', "j'ai compris"] }, reply: [say('Good.'), say('Fine.')], outcome: 'complete' },
        { id: 'no', match: { en: ['no idea'], fr: ['aucune idée'] }, reply: [say('Listen again.')], outcome: 'wrong' },
      ],
      fallback: [say('Pardon?'), say('Say again?')],
      transitions: [{ next_moment_id: T.cross }],
    },
    {
      id: T.cross, name: say('Cross'), date: '1900-01-03', type: 'Crossroad', character_id: T.sage, opening: [say('Left or right?')],
      transitions: [
        { next_moment_id: T.reward, label: say('left'), match: { en: ['left', 'red door'], fr: ['gauche', 'porte rouge'] }, reply: [say('Left it is.')] },
        { next_moment_id: T.deadEnd, label: say('right'), match: { en: ['right', 'blue door'], fr: ['droite', 'porte bleue'] } },
      ],
    },
    { id: T.deadEnd, name: say('Pit'), date: '1900-01-04', type: 'Dead End', character_id: T.sage, opening: [say('You fall.')] },
    {
      id: T.reward, name: say('Reward'), date: '1900-01-04', type: 'Reward', character_id: T.sage, opening: [say('Choose.')],
      rewards: [
        { id: T.rewardR, reward_type: 'item', item_ids: [T.cloak] },
        { id: T.rewardC, reward_type: 'character', character_ids: [T.rook] },
        { id: T.dyn, reward_type: 'dynamic_item', dynamic_rewards: [{ id: id(300), name: say('Echo'), attack_bonus: 2, properties: ['loud'] }] },
      ],
      transitions: [{ next_moment_id: T.battle }],
    },
    {
      id: T.battle, name: say('Battle'), date: '1900-01-05', type: 'Battle', character_id: T.sage, opening: [say('Fight!')],
      opponents: [{ character_id: T.foeA }, { character_id: T.foeB }],
      transitions: [{ next_moment_id: T.assemble }],
    },
    {
      id: T.assemble, name: say('Assemble'), date: '1900-01-06', type: 'Assemble', character_id: T.sage, opening: [say('Pick two.')],
      max_number_of_characters: 2, transitions: [{ next_moment_id: T.equip }],
    },
    { id: T.equip, name: say('Equip'), date: '1900-01-07', type: 'Equip', character_id: T.sage, opening: [say('Gear up.')], transitions: [{ next_moment_id: T.upgrade }] },
    {
      id: T.upgrade, name: say('Upgrade'), date: '1900-01-08', type: 'Upgrade', character_id: T.sage, opening: [say('Bet.')],
      upgrade: {
        difficulties: [
          { level: 'easy', rarity: 'Prismatic', match: words('easy'), riddle: say('Two plus two?'), answers: words('four') },
          { level: 'hard', rarity: 'Golden', match: words('hard'), riddle: say('Hard riddle?'), answers: words('echo') },
        ],
        min_bet: 1, max_bet: 5, sacrifice_properties: true, reward_item_id: T.medal,
      },
      transitions: [{ next_moment_id: T.test }],
    },
    {
      id: T.test, name: say('Test'), date: '1900-01-09', type: 'Test', character_id: T.sage, opening: [say('Question.')],
      score_threshold_for_award: 90, perfect_answer_item_id: T.gem,
      answers: [
        { id: 'right', match: { en: ['seven seas'], fr: ['sept mers'] }, reply: [say('Yes!')], outcome: 'complete', score: 100, perfect: true },
        { id: 'close', match: { en: ['seas'], fr: ['mers'] }, reply: [say('Close enough.')], outcome: 'complete', score: 70 },
      ],
      transitions: [{ next_moment_id: T.teamwork }],
    },
    {
      id: T.teamwork, name: say('Teamwork'), date: '1900-01-10', type: 'Teamwork', character_id: T.sage, opening: [say('Together.')],
      display_randomly_probability: 50, show_after_run_number: -1,
      answers: [{ id: 'together', match: words('together'), reply: [say('Yes.')], outcome: 'complete' }],
      transitions: [{ next_moment_id: T.epilogue }],
    },
    { id: T.epilogue, name: say('End'), date: '1900-01-11', type: 'Epilogue', character_id: T.sage, opening: [say('The end.')] },
  ],
};

export const testStory: Story = Story.parse(testStoryInput);
