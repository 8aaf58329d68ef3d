// What players said that the game did not catch (looptale_private.voice_misses, supabase/migrations/0008_voice_misses.sql): recorded
// with the miss's GAME_OUTPUT as a processed input, in one transaction, so a replayed input_id gets the same answer and
// nothing counts twice; counted per moment (the second miss in a row offers the choices); listed per moment for
// authors; purged after the retention period. The words heard are kept, never the audio.
import { z } from 'zod';
import { GameOutput } from '../../engine/schema/game-output.js';
import { Rollback, type Db } from '../db/db.js';
import { isUuid, json } from './rows.js';

export type VoiceMiss = {
  user_id: string;
  input_id: string;
  player_story_id: string;
  player_moment_id: string;
  blueprint_story_id: string;
  blueprint_moment_id: string;
  stage: string;
  turn_index: number;
  miss_number: number;
  reason: string;
  /** The recogniser's best words; null when they are not kept (retention 0). */
  heard: string | null;
  recogniser: string;
  language: string;
};

export const VoiceMissRow = z.object({
  input_id: z.string(),
  player_story_id: z.string(),
  player_moment_id: z.string(),
  blueprint_moment_id: z.string(),
  stage: z.string(),
  miss_number: z.number().int(),
  reason: z.string(),
  heard: z.string().nullable(),
  recogniser: z.string(),
  language: z.string(),
  created_at: z.string(),
});
export type VoiceMissRow = z.infer<typeof VoiceMissRow>;

class Duplicate extends Rollback {
  constructor(readonly outputs: GameOutput[]) {
    super('duplicate');
  }
}

export type VoiceMissPort = {
  /** Misses in a row at this player moment, at this point of its dialogue. */
  missesInRow(playerMomentId: string, turnIndex: number): Promise<number>;
  /** Records the miss and its answer; a replayed input_id changes nothing and returns the first answer. */
  record(miss: VoiceMiss, outputs: readonly GameOutput[]): Promise<{ ok: true } | { ok: false; outputs: GameOutput[] }>;
};

export class VoiceMissRepo implements VoiceMissPort {
  constructor(private readonly db: Db) {}

  async missesInRow(playerMomentId: string, turnIndex: number): Promise<number> {
    if (!isUuid(playerMomentId)) return 0;
    const r = await this.db.query<{ n: string | number }>(
      'SELECT count(*) AS n FROM looptale_private.voice_misses WHERE player_moment_id = $1 AND turn_index = $2',
      [playerMomentId, turnIndex],
    );
    return Number(r.rows[0]?.n ?? 0);
  }

  async record(m: VoiceMiss, outputs: readonly GameOutput[]): Promise<{ ok: true } | { ok: false; outputs: GameOutput[] }> {
    try {
      await this.db.tx(async (q) => {
        const ins = await q.query(
          `INSERT INTO looptale_private.processed_inputs (user_id, input_id, player_story_id, outputs) VALUES ($1, $2, $3, $4::text::jsonb)
           ON CONFLICT (user_id, input_id) DO NOTHING RETURNING input_id`,
          [m.user_id, m.input_id, m.player_story_id, json(outputs)],
        );
        if (ins.rows.length === 0) {
          const r = await q.query<{ outputs: unknown }>('SELECT outputs FROM looptale_private.processed_inputs WHERE user_id = $1 AND input_id = $2', [m.user_id, m.input_id]);
          throw new Duplicate(z.array(GameOutput).parse(r.rows[0]?.outputs ?? []));
        }
        await q.query(
          `INSERT INTO looptale_private.voice_misses (user_id, input_id, player_story_id, player_moment_id, blueprint_story_id, blueprint_moment_id,
             stage, turn_index, miss_number, reason, heard, recogniser, language)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
          [m.user_id, m.input_id, m.player_story_id, m.player_moment_id, m.blueprint_story_id, m.blueprint_moment_id, m.stage, m.turn_index,
            m.miss_number, m.reason, m.heard, m.recogniser, m.language],
        );
      });
      return { ok: true };
    } catch (e) {
      if (e instanceof Duplicate) return { ok: false, outputs: e.outputs };
      throw e;
    }
  }

  /** The latest misses at a story's moment (for authors), newest first. */
  async forMoment(blueprintStoryId: string, blueprintMomentId: string, limit = 100): Promise<VoiceMissRow[]> {
    if (!isUuid(blueprintStoryId) || !isUuid(blueprintMomentId)) return [];
    const r = await this.db.query<Record<string, unknown>>(
      `SELECT input_id, player_story_id::text, player_moment_id::text, blueprint_moment_id::text, stage, miss_number, reason, heard,
              recogniser, language, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
         FROM looptale_private.voice_misses WHERE blueprint_story_id = $1 AND blueprint_moment_id = $2
        ORDER BY created_at DESC LIMIT $3`,
      [blueprintStoryId, blueprintMomentId, Math.max(1, Math.min(1000, limit))],
    );
    return r.rows.map((row) => VoiceMissRow.parse(row));
  }

  /**
   * Retention: words heard older than `retentionDays` are forgotten (0: the rows keep none), and rows go once older
   * than the retention and at least a day (the miss count of a moment in play reads them). Returns rows deleted.
   */
  async purge(retentionDays: number, now = Date.now()): Promise<number> {
    const cutoff = new Date(now - retentionDays * 86_400_000).toISOString();
    await this.db.query('UPDATE looptale_private.voice_misses SET heard = NULL WHERE heard IS NOT NULL AND created_at < $1', [cutoff]);
    const rowCutoff = new Date(now - Math.max(1, retentionDays) * 86_400_000).toISOString();
    const r = await this.db.query('DELETE FROM looptale_private.voice_misses WHERE created_at < $1 RETURNING input_id', [rowCutoff]);
    return r.rows.length;
  }
}
