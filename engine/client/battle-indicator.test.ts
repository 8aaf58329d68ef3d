import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MOMENT_TYPES } from '../schema/enums.js';
import { battleIndicator, parseBattlePhase } from './battle-indicator.js';

describe('battle indicator', () => {
  it('reads ATTACK with no phase and in initial, player_attack_input and ai_attack_selection', () => {
    for (const phase of [undefined, null, '', 'initial', 'player_attack_input', 'ai_attack_selection']) {
      expect(battleIndicator('Battle', phase)).toBe('ATTACK');
    }
  });

  it('reads DEFEND in player_defense_input', () => {
    expect(battleIndicator('Battle', 'player_defense_input')).toBe('DEFEND');
  });

  it('shows only for Battle moments', () => {
    for (const type of MOMENT_TYPES.filter((t) => t !== 'Battle')) {
      expect(battleIndicator(type, 'player_defense_input')).toBeNull();
    }
    expect(battleIndicator(null, 'initial')).toBeNull();
  });

  it('treats an unknown phase as the default phase', () => {
    expect(parseBattlePhase('something_new')).toBe('initial');
    expect(battleIndicator('Battle', 'something_new')).toBe('ATTACK');
  });

  it('property: DEFEND exactly in player_defense_input of a Battle', () => {
    fc.assert(fc.property(fc.constantFrom(...MOMENT_TYPES), fc.string(), (type, phase) => {
      const shown = battleIndicator(type, phase);
      if (type !== 'Battle') expect(shown).toBeNull();
      else expect(shown).toBe(phase.trim() === 'player_defense_input' ? 'DEFEND' : 'ATTACK');
    }));
  });
});
