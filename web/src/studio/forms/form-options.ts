// The fixed choices of the story format, for the forms' selects (from the engine's enumerations: no zod needed).
export { CARD_RARITIES, EMOTIONS, GOAL_TYPES, ITEM_RARITIES } from '../../../../engine/schema/enum-values.js';

export const REWARD_TYPES_FOR_FORMS = ['item', 'character', 'dynamic_item'] as const;
export const INTENSITIES = ['1', '2', '3', '4', '5'] as const;
