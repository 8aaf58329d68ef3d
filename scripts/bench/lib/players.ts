// The bench's players: signed-up users of the server under test, each with its own run of one story, speaking the
// story's test-plan lines in a cycle and starting a new run (POST /api/player-stories) whenever one ends.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { GameSocket, TurnResult } from '../../../cli/lib/game-client.js';
import type { UserInput } from '../../../engine/protocol/user-input.js';
import type { PlayerStory } from '../../../engine/schema/player.js';
import { parsePlan } from '../../../engine/story/testplan.js';
import { requestJson } from './http.js';

/** What a player sends each turn: the starting dialogue of a moment, or a line of the plan. */
export type PlanAction = { start: true } | { start: false; text: string };

export type Player = {
  index: number;
  email: string;
  token: string;
  /** The loopback address its HTTP requests come from. */
  localAddress: string;
  storyId: string;
  runId: string;
  cursor: number;
  /** The current moment has not started yet (fresh run, or the last output completed a moment). */
  needStart: boolean;
  over: boolean;
};

/** The `start` and `say` steps of a test plan, in order. */
export function planActions(file: string): PlanAction[] {
  const parsed = parsePlan(readFileSync(file, 'utf8'));
  if (!parsed.ok) throw new Error(`${file}: ${parsed.error}`);
  const actions: PlanAction[] = [];
  for (const s of parsed.steps) {
    if (s.verb === 'start') actions.push({ start: true });
    else if (s.verb === 'say') actions.push({ start: false, text: s.arg });
  }
  if (actions.length === 0) throw new Error(`${file}: no start or say steps`);
  return actions;
}

/** Users per source address: under the server's sign-up limit of 30 per address per 10 minutes (server/auth/limits.ts). */
export const USERS_PER_ADDRESS = 25;

export function sourceAddress(index: number): string {
  const n = 10 + Math.floor(index / USERS_PER_ADDRESS);
  return `127.0.${Math.floor(n / 250)}.${n % 250 + 2}`;
}

export async function signUp(baseUrl: string, index: number, tag: string, storyId: string, timeoutMs: number): Promise<{ player: Player; signupMs: number; createMs: number }> {
  const email = `bench-${tag}-${index}@example.com`;
  const localAddress = sourceAddress(index);
  const t0 = performance.now();
  const s = await requestJson<{ access_token: string }>({
    method: 'POST', url: `${baseUrl}/auth/v1/signup`, body: { email, password: 'correct horse battery staple' }, localAddress, timeoutMs,
  });
  const t1 = performance.now();
  const player: Player = { index, email, token: s.access_token, localAddress, storyId, runId: '', cursor: 0, needStart: true, over: true };
  await newRun(baseUrl, player, timeoutMs);
  return { player, signupMs: t1 - t0, createMs: performance.now() - t1 };
}

/** Starts a new run of the player's story; the plan starts over. */
export async function newRun(baseUrl: string, p: Player, timeoutMs: number): Promise<void> {
  const run = await requestJson<PlayerStory>({
    method: 'POST', url: `${baseUrl}/api/player-stories`, body: { blueprint_story_id: p.storyId, language: 'english' },
    token: p.token, localAddress: p.localAddress, timeoutMs,
  });
  p.runId = run.id;
  p.cursor = 0;
  p.needStart = true;
  p.over = run.loop_status !== 'loopStatusOnGoing';
}

/** The next USER_INPUT of the player (without input_id). */
export function nextInput(p: Player, actions: readonly PlanAction[]): Omit<UserInput, 'input_id'> {
  const action = actions[p.cursor % actions.length] ?? { start: true };
  if (p.needStart) {
    if (action.start) p.cursor++;
    return { player_story_id: p.runId, is_starting_dialogue: true };
  }
  p.cursor++;
  return action.start
    ? { player_story_id: p.runId, is_starting_dialogue: true }
    : { player_story_id: p.runId, is_starting_dialogue: false, transcription: action.text };
}

/** Follows the run from a turn's answer. Returns the error kind, or null. */
export function afterTurn(p: Player, r: TurnResult): string | null {
  if (r.error) {
    if (/run is over/i.test(r.error)) p.over = true;
    return r.error.replace(/[0-9a-f-]{36}/g, '<id>').slice(0, 80);
  }
  const last = r.outputs.at(-1);
  if (!last) return 'no GAME_OUTPUT';
  p.needStart = last.complete_the_moment;
  p.over = last.loop_status !== 'loopStatusOnGoing';
  return null;
}

export type { GameSocket };
