// The Assemble banner (game spec §4 "Assemble"): 'selected / maxRequired' while an Assemble moment is on screen. The
// selection is saved live, so the count follows each output; the banner stays for the whole moment.
import type { PlayModel } from './model.js';

export type AssembleBanner = { selected: number; max: number };

export function assembleBanner(m: Pick<PlayModel, 'view' | 'team'>): AssembleBanner | null {
  const v = m.view;
  // Named here rather than read from the registry (engine/moments/registry.ts): this code is in the /game bundle,
  // which must not load the registry and with it the scripted brain (+34 kB gzip).
  if (v?.moment_type !== 'Assemble' || v.max_number_of_characters === null) return null;
  return { selected: m.team.filter((c) => c.selected).length, max: v.max_number_of_characters };
}
