// A moment field's label for people ("Speaker", "Rewards"), from the moment types' editor fields.
import { COMMON_FIELDS } from '../../../../engine/moments/common.js';
import { MOMENT_MODULES } from '../../../../engine/moments/registry.js';

const LABELS = new Map<string, string>([...COMMON_FIELDS, ...MOMENT_MODULES.flatMap((m) => m.fields)].map((f) => [f.key, f.label]));
LABELS.set('rank_rewards', 'Rank rewards');

export const fieldLabel = (key: string): string => LABELS.get(key) ?? key;
