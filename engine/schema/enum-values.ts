// The constant values of the enumerations in enums.ts, without zod: the web app's shell (catalogue, launch, tickets)
// imports these, so its first bundle leaves zod out even though the lazily loaded game screen uses the schemas.
export const MOMENT_TYPES = [
  'Monologue', 'Learn', 'Test', 'Crossroad', 'Teamwork', 'Reward', 'Battle', 'Equip', 'Epilogue', 'Upgrade', 'Assemble', 'Dead End',
] as const;
/** Loop status values exactly as stored (accounts spec §3). */
export const LOOP_STATUS = { ongoing: 'loopStatusOnGoing', won: 'loopStatusWon', lost: 'loopStatusLost' } as const;
/** Card rarities from lowest to highest; 'permanent' is only for golden-ticket cards. */
export const CARD_RARITIES = ['Normal', 'Prismatic', 'Onyx', 'Crystal', 'Marble', 'Steel', 'Golden', 'Holographic'] as const;
/** Item rarities: the lower-case variants the spec mentions, 'common' being the default. */
export const ITEM_RARITIES = ['common', 'normal', 'rare', 'special', 'epic', 'legendary'] as const;
export const EMOTIONS = ['normal', 'happiness', 'sadness', 'anger', 'fear', 'disgust', 'surprise'] as const;
export const INTENSITY_LABELS = { 1: 'slightly', 2: 'somewhat', 3: 'moderately', 4: 'very', 5: 'totally' } as const;
export const GOAL_TYPES = ['convince', 'solve', 'reveal', 'teach', 'program'] as const;
export const LANG_CODE = { english: 'en', french: 'fr' } as const satisfies Record<'english' | 'french', string>;
export const AWARD_SOURCES = [
  'character', 'item', 'dynamic_item', 'upgrade', 'perfect_answer', 'free', 'sacrificed_properties', 'rank_achieved',
] as const;
export const STYLE_TAGS = [
  'cinematic', 'theatrical', 'elegant', 'creative', 'unexpected', 'peaceful', 'aggressive', 'stealthy', 'chaotic',
  'emotional', 'humorous', 'scary', 'efficient', 'complex',
] as const;
export const RATING_LABELS = {
  ESRB_10: 'Everyone 10+',
  ESRB_ADULT: 'Adult Only 18+',
  ESRB_EVERYONE: 'Everyone',
  ESRB_MATURE: 'Mature 17+',
  ESRB_PENDING: 'Rating Pending',
  ESRB_Teen: 'Teen',
} as const;
/** Battle phases carried by battle_state_next_phase; '' (no phase) and 'initial' both mean a fresh battle. */
export const BATTLE_PHASES = ['initial', 'player_attack_input', 'ai_attack_selection', 'player_defense_input'] as const;
export const NOTIFICATION_KINDS = ['perfect', 'free', 'sacrificed_properties', 'upgrade_progress', 'rank_achieved', 'card_modifier'] as const;
