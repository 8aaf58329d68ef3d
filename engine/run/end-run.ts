// The end of a run (game spec §4 "End conditions and ranks"; accounts spec §4 golden tickets).
import type { Notification } from '../schema/notification.js';
import { NOTIFICATION_MS } from '../schema/notification.js';
import { LOOP_STATUS } from '../schema/enums.js';
import type { PlayerStory } from '../schema/player.js';
import { remainingInteractions } from '../catalogue/display.js';
import { RANK_A, rankForRun, rankToLetter, rankToNumber } from '../rules/rank.js';
import { indexStory } from '../story/story-index.js';
import type { Draft } from './draft.js';
import { addBlueprintItem } from './roster.js';

export type RunEnding = {
  rank: number;
  golden_ticket_awarded: boolean;
  notifications: Notification[];
};

export function isFinished(run: PlayerStory): boolean {
  return run.loop_status !== LOOP_STATUS.ongoing;
}

/** Ends the run as won or lost, stores its rank, and awards a golden ticket on the first Rank A (or S). */
export function finishRun(d: Draft, runId: string, won: boolean): RunEnding {
  const run = d.state.run?.id === runId ? d.state.run : undefined;
  if (!run) throw new Error(`finishRun: no run ${runId}`);
  const rank = rankForRun({
    won,
    remaining: remainingInteractions(run.loop_max_number_of_interactions, run.loop_current_number_of_interactions),
    max: run.loop_max_number_of_interactions,
    perfectAnswers: run.perfect_answers,
    cleanBattlesWon: run.clean_battles_won,
  }, d.story.rank_thresholds);
  const earlierBest = d.state.history.best_rank ?? 8;
  const ended = d.edit('player_stories', run);
  ended.loop_status = won ? LOOP_STATUS.won : LOOP_STATUS.lost;
  ended.is_successful_run = won;
  ended.loop_rank = rank;
  ended.ended_at = d.iso;
  const notifications: Notification[] = [];
  let golden = false;
  if (rank <= RANK_A && d.state.tickets.length === 0) {
    // One ticket per user and story, for the first Rank A only.
    d.put('player_permanent_character_tickets', {
      id: d.uuid(), user_id: d.state.user_id, blueprint_story_id: d.story.id, is_redeemed: false, redeemed_at: null,
      earned_at: d.iso, earned_in_player_story_id: runId, created_at: d.iso,
    });
    golden = true;
  } else {
    const letter = rankToLetter(rank);
    const first = rank < earlierBest;
    notifications.push({
      kind: 'rank_achieved',
      id: d.uuid(),
      message: `RANK ${letter} ACHIEVED!${first ? ' FIRST TIME!' : ''}`,
      duration: NOTIFICATION_MS.rank_achieved,
      rankData: { rank: letter, isFirstTimeAchieved: first },
    });
  }
  // Rank rewards: items kept for the next runs (source rank_achieved), once per item.
  const idx = indexStory(d.story);
  for (const rr of d.story.rank_rewards) {
    if (rank > rankToNumber(rr.rank)) continue;
    const bi = idx.items.get(rr.item_id);
    if (!bi || d.state.items.some((i) => i.blueprint_item_id === bi.id)) continue;
    addBlueprintItem(d, runId, bi, 'rank_achieved', null);
  }
  return { rank, golden_ticket_awarded: golden, notifications };
}

