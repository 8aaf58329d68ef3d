// Unattended play: turns come from a script, a test plan, --audio clips, standard input or the microphone, and every
// event is printed as it happens (plain lines or --json). Returns the exit code: 1 when a turn failed or a test
// plan's expectation did not hold, else 0.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Api, GameSocket } from '../lib/game-client.js';
import { runPlanRemote } from '../lib/remote-plan.js';
import { CliError } from '../lib/story-file.js';
import type { GameController } from '../../engine/client/game-screen/controller.js';
import { END_RUN_CONFIRM } from '../../engine/client/game-screen/menu-text.js';
import { MIC_SAMPLE_RATE, record, type RecorderName } from './mic.js';
import { PCM16_DEFAULTS, parseScript, type AudioClip, type Script, type ScriptTurn } from './script.js';

export type Source =
  | { readonly kind: 'script'; readonly script: Script }
  | { readonly kind: 'clips'; readonly clips: readonly AudioClip[] }
  | { readonly kind: 'stdin'; readonly input: Readable }
  | { readonly kind: 'mic'; readonly recorder: RecorderName };

export type Say = (line: string) => void;

function clipInput(clip: AudioClip): Parameters<GameController['sayAudio']>[0] {
  return { bytes: clip.bytes, format: clip.format, label: clip.label, ...(clip.format === 'pcm16' ? { ...PCM16_DEFAULTS, channels: 1 as const } : {}) };
}

/** Plays one script turn; returns false when the run is over and the rest cannot be played. */
async function playTurn(ctrl: GameController, t: ScriptTurn, print: Say, errors: string[]): Promise<boolean> {
  if (ctrl.over) return false;
  if (t.kind === 'end') {
    print(END_RUN_CONFIRM.text);
    print(`> ${END_RUN_CONFIRM.confirm}`);
    await ctrl.endRun();
    return true;
  }
  const startError = await ctrl.startPending();
  if (startError) errors.push(startError);
  if (ctrl.over) return false;
  const r = t.kind === 'say' ? await ctrl.say(t.text) : await ctrl.sayAudio(clipInput(t.clip));
  if (r.error) errors.push(r.error);
  return true;
}

async function playTurns(ctrl: GameController, turns: AsyncIterable<ScriptTurn> | Iterable<ScriptTurn>, print: Say, note: Say, errors: string[]): Promise<void> {
  let left = 0;
  for await (const t of turns) {
    if (left > 0 || !(await playTurn(ctrl, t, print, errors))) left++;
  }
  if (left > 0) note(`The run is over: ${left} more turn${left === 1 ? '' : 's'} not played.`);
}

async function* stdinTurns(input: Readable, note: Say): AsyncGenerator<ScriptTurn> {
  const rl = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const line of rl) {
    n++;
    try {
      yield* parseScript(line, '<stdin>').map((t) => ({ ...t, line: n }));
    } catch (e) {
      if (!(e instanceof CliError)) throw e;
      note(e.message);
    }
  }
}

async function micLoop(ctrl: GameController, recorder: RecorderName, note: Say, errors: string[], onRecording: (on: boolean) => void): Promise<void> {
  while (!ctrl.over) {
    const startError = await ctrl.startPending();
    if (startError) errors.push(startError);
    if (ctrl.over) return;
    note('Listening... (speak; recording stops after 3 s of silence; Ctrl+C quits)');
    onRecording(true);
    const rec = await record(recorder).done.finally(() => onRecording(false));
    if (rec.pcm.length === 0) {
      note('Nothing heard: try again.');
      continue;
    }
    const r = await ctrl.sayAudio({ bytes: rec.pcm, format: 'pcm16', label: `mic ${rec.seconds.toFixed(1)} s`, sample_rate: MIC_SAMPLE_RATE, channels: 1, bits_per_sample: 16 });
    if (r.error) errors.push(r.error);
  }
}

export async function playUnattended(ctrl: GameController, source: Source, io: { api: Api; print: Say; note: Say; onRecording?: (on: boolean) => void }): Promise<number> {
  const errors: string[] = [];
  switch (source.kind) {
    case 'script': {
      const s = source.script;
      if (s.kind === 'testplan') {
        // runPlanRemote only calls send(): route it through the controller so every turn is shown as it happens.
        const observed = { send: ({ player_story_id: _id, ...input }: Parameters<GameSocket['send']>[0]) => ctrl.turn(input) } as unknown as GameSocket;
        const r = await runPlanRemote(io.api, observed, ctrl.run.id, s.steps);
        await ctrl.syncEnd();
        if (!r.ok && r.failure) {
          io.note(`Test plan failed at line ${r.failure.line}: ${r.failure.step}\n  expected ${r.failure.expected}\n  but got  ${r.failure.actual}`);
          return 1;
        }
        return 0;
      }
      await playTurns(ctrl, s.turns, io.print, io.note, errors);
      break;
    }
    case 'clips':
      await playTurns(ctrl, source.clips.map((clip, i) => ({ kind: 'audio' as const, clip, line: i + 1 })), io.print, io.note, errors);
      break;
    case 'stdin':
      await playTurns(ctrl, stdinTurns(source.input, io.note), io.print, io.note, errors);
      break;
    case 'mic':
      await micLoop(ctrl, source.recorder, io.note, errors, io.onRecording ?? (() => undefined));
      break;
  }
  // What is left to start on its own (an Epilogue after the last line) is played out, as a player pressing Start would.
  if (!ctrl.over) {
    const startError = await ctrl.startPending();
    if (startError) errors.push(startError);
  }
  return errors.length > 0 ? 1 : 0;
}
