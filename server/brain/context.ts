// What the LLM is told about one turn: the story canon around the moment (the speaking character, the goal, the
// authored answers as guidance, the team, items, opponents, places, rewards) rendered as template variables, and the
// id lists a decision may use (the canon check reads the same lists, so the model is never held to ids it was not given).
import type { BrainInput } from '../../engine/brain/scripted.js';
import { currentMoment, currentRun } from '../../engine/run/state.js';
import type { PlayLanguage } from '../../engine/schema/enums.js';
import type { PlayerCharacter, PlayerItem, PlayerMoment, PlayerOpponent } from '../../engine/schema/player.js';
import type { BlueprintMoment, Phrases, Story } from '../../engine/story/format.js';
import { indexStory } from '../../engine/story/story-index.js';
import { localize } from '../../engine/story/text.js';
import { MOMENTS } from '../../engine/moments/registry.js';
import { rewardsOf, upgradeOf } from '../../engine/moments/fields.js';

export type TurnContext = {
  story: Story;
  moment: BlueprintMoment;
  pm: PlayerMoment;
  language: PlayLanguage;
  /** The player's characters still standing; the team is those selected in Assemble. */
  characters: PlayerCharacter[];
  team: PlayerCharacter[];
  items: PlayerItem[];
  opponents: PlayerOpponent[];
  /** Ids a decision may name, by field. */
  allowed: {
    next_moment_ids: Set<string>;
    battle_actor_ids: Set<string>;
    battle_target_ids: Set<string>;
    equip_character_ids: Set<string>;
    item_ids: Set<string>;
    selection_ids: Set<string>;
    upgrade_character_ids: Set<string>;
    upgrade_levels: Set<string>;
    /** "reward_type:id" */
    awards: Set<string>;
    /** Facts the moment's authored answers teach. */
    facts: Set<string>;
  };
  vars: Record<string, string>;
};

const NONE = { english: '(none)', french: '(aucun)' } as const;

function phrases(p: Phrases | undefined, lang: PlayLanguage): string[] {
  if (!p) return [];
  return lang === 'french' ? (p.fr ?? p.en) : p.en;
}

function list(lines: string[], lang: PlayLanguage): string {
  return lines.length > 0 ? lines.join('\n') : NONE[lang];
}

/** The turn's context, or null when the state has no current moment in this story. */
export function turnContext(input: BrainInput): TurnContext | null {
  const { story, state } = input;
  const run = currentRun(state);
  const pm = currentMoment(state);
  const idx = indexStory(story);
  const m = pm ? idx.moments.get(pm.blueprint_moment_id) : undefined;
  if (!run || !pm || !m) return null;
  const lang: PlayLanguage = run.language === 'french' ? 'french' : 'english';
  const L = (t: Parameters<typeof localize>[0] | undefined): string => (t ? localize(t, lang) : '');
  const fr = lang === 'french';

  const characters = state.characters.filter((c) => c.current_health > 0);
  const team = characters.filter((c) => c.is_selected_in_assemble);
  const items = state.items;
  const opponents = state.opponents.filter((o) => o.player_moment_id === pm.id);
  const speaker = m.character_id ? idx.characters.get(m.character_id) : undefined;
  const place = m.place_id ? idx.places.get(m.place_id) : undefined;
  const equippedOn = (itemId: string): string => {
    const link = state.character_items.find((l) => l.player_item_id === itemId && l.is_equipped);
    return link ? state.characters.find((c) => c.id === link.player_character_id)?.name ?? '' : '';
  };
  const owned = (kind: string, id: string): boolean =>
    kind === 'item' ? items.some((i) => i.blueprint_item_id === id)
      : kind === 'character' ? state.characters.some((c) => c.blueprint_character_id === id)
        : items.some((i) => i.acquired_in_blueprint_moment_id === m.id && i.blueprint_item_id === null);

  const answers = m.answers.map((a) => {
    const said = phrases(a.match, lang).map((p) => `"${p}"`).join(', ');
    const facts = a.facts.length > 0 ? `; facts: ${a.facts.join(', ')}` : '';
    const next = a.next_moment_id ? `; next_moment_id: ${a.next_moment_id}` : '';
    return `- id "${a.id}" (${a.outcome}${a.perfect ? ', perfect' : ''}; score ${a.score}${facts}${next}): ${fr ? 'le joueur dit par exemple' : 'the player says e.g.'} ${said}. ${fr ? 'Votre réponse écrite' : 'Your authored reply'}: "${a.reply.map(L).join('" / "')}"`;
  });
  const transitions = m.transitions.map((t) => {
    const target = idx.moments.get(t.next_moment_id);
    const words = phrases(t.match, lang);
    return `- ${t.next_moment_id}: ${t.label ? L(t.label) : L(target?.name)}${words.length > 0 ? ` (${fr ? 'le joueur dit' : 'the player says'} ${words.map((w) => `"${w}"`).join(', ')})` : ''}`;
  });
  const storyCharacters = story.characters.map((c) => `- ${c.name}${c.aliases.length > 0 ? ` (${c.aliases.join(', ')})` : ''}${c.description ? `: ${L(c.description)}` : ''}`);
  const teamLines = characters.map((c) => `- ${c.name} (id: ${c.id}; ${fr ? 'attaque' : 'attack'} ${c.current_attack}, ${fr ? 'santé' : 'health'} ${c.current_health}/${c.max_health}${c.is_selected_in_assemble ? fr ? ', dans l\'équipe' : ', in the team' : ''})`);
  const itemLines = items.map((i) => {
    const on = equippedOn(i.id);
    return `- ${i.name} (id: ${i.id}; ${fr ? 'attaque' : 'attack'} +${i.attack_bonus}, ${fr ? 'défense' : 'defence'} +${i.defense_bonus}${on ? `; ${fr ? 'porté par' : 'equipped on'} ${on}` : ''})`;
  });
  const opponentLines = opponents.map((o) => `- ${o.name} (id: ${o.id}; ${fr ? 'santé' : 'health'} ${o.current_health}/${o.base_health}, ${fr ? 'attaque' : 'attack'} ${o.current_attack})`);
  const awards = new Set<string>();
  const rewardLines: string[] = [];
  for (const r of rewardsOf(m)) {
    const entries: { id: string; name: string }[] = r.reward_type === 'item'
      ? r.item_ids.map((id) => ({ id, name: L(idx.items.get(id)?.name) }))
      : r.reward_type === 'character'
        ? r.character_ids.map((id) => ({ id, name: idx.characters.get(id)?.name ?? '' }))
        : r.dynamic_rewards.map((d) => ({ id: d.id, name: L(d.name) }));
    for (const e of entries) {
      awards.add(`${r.reward_type}:${e.id}`);
      rewardLines.push(`- reward_type "${r.reward_type}", id ${e.id}: ${e.name}${owned(r.reward_type, e.id) ? fr ? ' (déjà obtenu)' : ' (already owned)' : ''}`);
    }
  }

  const stateLines = MOMENTS[m.type].llmState?.({ m, pm, state, opponents, fr, L, phrases: (p) => phrases(p, lang) }) ?? [];

  const history = pm.dialogue_history.slice(-8).map((e) => `${e.role === 'player' ? fr ? 'Joueur' : 'Player' : speaker?.name ?? (fr ? 'Vous' : 'You')}: ${e.text}`);
  const vars: Record<string, string> = {
    language: fr ? 'français' : 'English',
    story_name: story.name,
    character_name: speaker?.name ?? (fr ? 'le narrateur' : 'the narrator'),
    character_description: L(speaker?.description),
    speech_patterns: m.speech_patterns.length > 0 ? m.speech_patterns.join('; ') : NONE[lang],
    moment_name: L(m.name),
    moment_type: m.type,
    place: place ? L(place.name) : NONE[lang],
    goal_type: m.goal_type ?? '',
    goal: L(m.goal) || NONE[lang],
    answers: list(answers, lang),
    transitions: list(transitions, lang),
    characters: list(storyCharacters, lang),
    team: list(teamLines, lang),
    items: list(itemLines, lang),
    opponents: list(opponentLines, lang),
    places: list(story.places.map((p) => `- ${L(p.name)}`), lang),
    rewards: list(rewardLines, lang),
    facts: pm.player_facts.length > 0 ? pm.player_facts.join(', ') : NONE[lang],
    state: stateLines.join('\n'),
    history: list(history, lang),
    player_line: input.transcription,
  };
  const charIds = new Set(characters.map((c) => c.id));
  const teamIds = new Set(team.map((c) => c.id));
  return {
    story, moment: m, pm, language: lang, characters, team, items, opponents, vars,
    allowed: {
      next_moment_ids: new Set([...m.transitions.map((t) => t.next_moment_id), ...m.answers.flatMap((a) => (a.next_moment_id ? [a.next_moment_id] : []))]),
      // A struck character defends even when its health is 0 after the blow; any selected character may be named.
      battle_actor_ids: new Set(state.characters.filter((c) => c.is_selected_in_assemble).map((c) => c.id)),
      battle_target_ids: new Set(opponents.map((o) => o.id)),
      equip_character_ids: new Set(state.characters.map((c) => c.id)),
      item_ids: new Set(items.map((i) => i.id)),
      selection_ids: charIds,
      upgrade_character_ids: teamIds.size > 0 ? teamIds : charIds,
      upgrade_levels: new Set(upgradeOf(m)?.difficulties.map((d) => d.level) ?? []),
      awards,
      facts: new Set(m.answers.flatMap((a) => a.facts)),
    },
  };
}

/** `{{name}}` placeholders filled from vars; unknown ones become empty. */
export function fillTemplate(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (_all, name: string) => vars[name] ?? '');
}
