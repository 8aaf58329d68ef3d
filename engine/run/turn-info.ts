// What one turn did, gathered while the rules run, then turned into the GameOutput.
import type { Decision } from '../brain/decision.js';
import type { AwardSource, BattlePhase } from '../schema/enums.js';
import type { Notification } from '../schema/notification.js';

export type TurnInfo = {
  input_id: string;
  is_starting_dialogue: boolean;
  transcription: string;
  decision: Decision;
  player_moment_id: string;
  blueprint_moment_id: string;
  complete: boolean;
  end_of_game: boolean;
  next_moment_id: string;
  counted: boolean;
  award: { type: AwardSource; id: string } | null;
  equip: { character_id: string; item_id: string; property: string; image: string } | null;
  upgrade: { character_id: string; rarity: string; sacrificed: string[] } | null;
  bet: { size: number; level: string } | null;
  phase_override: BattlePhase | null;
  rank: number | null;
  golden: boolean;
  skipped: { blueprint_moment_id: string; reason: string }[];
  notifications: Notification[];
};

export function newTurnInfo(input: Pick<TurnInfo, 'input_id' | 'is_starting_dialogue' | 'transcription' | 'decision' | 'player_moment_id' | 'blueprint_moment_id'>): TurnInfo {
  // Written out, not spread: V8 builds this object on its fast path only with a fixed literal shape.
  return {
    input_id: input.input_id,
    is_starting_dialogue: input.is_starting_dialogue,
    transcription: input.transcription,
    decision: input.decision,
    player_moment_id: input.player_moment_id,
    blueprint_moment_id: input.blueprint_moment_id,
    complete: false,
    end_of_game: false,
    next_moment_id: '',
    counted: false,
    award: null,
    equip: null,
    upgrade: null,
    bet: null,
    phase_override: null,
    rank: null,
    golden: false,
    skipped: [],
    notifications: [],
  };
}
