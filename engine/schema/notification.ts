// Notifications (game spec §3) with their data, and the durations of game spec §9.
import { z } from 'zod';

export const NOTIFICATION_MS = {
  perfect: 3000,
  free: 2000,
  sacrificed_properties: 4000,
  rank_achieved: 5000,
  card_modifier: 3000,
  exit_buffer: 500,
  upgrade_complete: 1000,
} as const;

const base = { id: z.string(), message: z.string(), duration: z.number().int().min(0).optional() };

export const CardModifier = z.object({ character_name: z.string(), card_type: z.string(), description: z.string() });
export type CardModifier = z.infer<typeof CardModifier>;

export const Notification = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('perfect'), ...base }),
  z.object({ kind: z.literal('free'), ...base }),
  z.object({ kind: z.literal('sacrificed_properties'), ...base, properties: z.array(z.string()) }),
  z.object({
    kind: z.literal('upgrade_progress'), ...base,
    upgradeData: z.object({ character: z.string(), bet: z.number().int(), difficulty: z.string(), isComplete: z.boolean() }),
  }),
  z.object({
    kind: z.literal('rank_achieved'), ...base,
    rankData: z.object({ rank: z.string(), isFirstTimeAchieved: z.boolean() }),
  }),
  z.object({
    kind: z.literal('card_modifier'), ...base,
    player_moment_id: z.string(), applied_modifiers: z.array(CardModifier),
  }),
]);
export type Notification = z.infer<typeof Notification>;

/** CARD_MODIFIER_NOTIFICATION payload. */
export const CardModifierNotification = z.object({ player_moment_id: z.string(), applied_modifiers: z.array(CardModifier) });
export type CardModifierNotification = z.infer<typeof CardModifierNotification>;
