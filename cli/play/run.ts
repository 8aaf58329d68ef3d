// `looptale play` from options to exit code: sign in, find the story, take the launch choice, open the link, and
// play through the Ink screens (a terminal) or unattended with plain lines or --json (scripts, pipes, CI).
import type { LaunchAction } from '../../engine/catalogue/launch.js';
import { LAUNCH_ACTIONS, RESET_PROGRESS_CONFIRM } from '../../engine/catalogue/launch.js';
import type { Link } from '../../engine/client/api/link.js';
import { type ControllerOptions, GameController } from '../../engine/client/game-screen/controller.js';
import { ServerHost } from '../../engine/client/host/server-host.js';
import type { PlayEvent } from '../../engine/client/game-screen/model.js';
import type { PlayLanguage } from '../../engine/schema/enums.js';
import type { PlayerStory } from '../../engine/schema/player.js';
import { type Api, newId, nodeClock } from '../lib/game-client.js';
import { AudioOut, detectPlayer } from './audio-out.js';
import { requireRecorder } from './mic.js';
import type { PlayOptions } from './options.js';
import { PlainPrinter } from './plain.js';
import { loadScript, readClip, type Script } from './script.js';
import { applyLaunch, automaticAction, connectApi, findStory, launchOf, openLink } from './session.js';
import { playUnattended, type Source } from './unattended.js';

/** How long after the last turn the last audio chunks may still come. */
const AUDIO_QUIET_MS = 1500;

export type PlayIo = {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
};

/** Everything a screen needs to open the link and play a run it has chosen. */
export type PlayContext = {
  api: Api;
  opts: PlayOptions;
  /** Audio for a controller: played and/or saved; says once when it is not played. */
  audioFor: (turnOf: (inputId: string) => number, note: (line: string) => void) => AudioOut;
};

export type Game = { ctrl: GameController; audio: AudioOut };

/**
 * A run on the link with its audio: AUDIO_ANSWER chunks go to the controller's voice loop, whose play, stop and
 * discard effects the AudioOut carries out; the link's status goes to the connection overlay.
 */
export function startGame(ctx: PlayContext, link: Link, run: PlayerStory, storyName: string, note: (line: string) => void, live: boolean): Game {
  let audio: AudioOut | null = null;
  const time: ControllerOptions['time'] = live ? { mode: 'live', clock: nodeClock } : { mode: 'instant' };
  const language: PlayLanguage = run.language === 'french' ? 'french' : 'english';
  const ctrl = new GameController(new ServerHost(ctx.api, link), run, storyName, { language, time, newId, onEffect: (e) => audio?.run(e) });
  const out = ctx.audioFor((id) => ctrl.turnOf(id), note);
  audio = out;
  out.onEnded = (id) => ctrl.dispatch({ type: 'audio_ended', id });
  link.onAudio = (chunk) => {
    const id = out.accept(chunk);
    if (id) ctrl.audioReceived(chunk, id);
  };
  link.onStatus = (status) => ctrl.dispatch({ type: 'connection', status });
  return { ctrl, audio: out };
}

function sourceOf(o: PlayOptions, script: Script | null, stdin: NodeJS.ReadStream): Source {
  if (script) return { kind: 'script', script };
  if (o.audio.length) return { kind: 'clips', clips: o.audio.map((f) => readClip(f, '--audio ')) };
  if (o.mic) return { kind: 'mic', recorder: requireRecorder() };
  return { kind: 'stdin', input: stdin };
}

export function makeAudio(o: PlayOptions): PlayContext['audioFor'] {
  const player = o.mute ? null : detectPlayer();
  const unplayed = !player && !o.saveAudio && !o.mute
    ? 'Audio is not played: no player found (install mpg123, ffmpeg or alsa-utils), or save it with --save-audio DIR.'
    : null;
  return (turnOf, note) => new AudioOut({ player, saveDir: o.saveAudio, turnOf, warn: note, unplayedNote: unplayed });
}

export async function runPlay(o: PlayOptions, io: PlayIo): Promise<number> {
  // Files first: a missing clip or a bad script line is a usage error before any request.
  const script = o.script ? loadScript(o.script) : null;
  const interactive = Boolean(io.stdout.isTTY && io.stdin.isTTY) && !o.json && !o.plain && !script && o.audio.length === 0;
  const source = interactive ? null : sourceOf(o, script, io.stdin);
  if (interactive && o.mic) requireRecorder();

  const api = await connectApi(o.url, o.credentials);
  const story = await findStory(api, o.story);
  const ctx: PlayContext = { api, opts: o, audioFor: makeAudio(o) };
  if (interactive) {
    const { runInteractive } = await import('./ink/app.js');
    return runInteractive(ctx, story, io);
  }

  const screen = (line: string): void => void (o.json ? io.stderr : io.stdout).write(`${line}\n`);
  const note = (line: string): void => void io.stderr.write(`${line}\n`);
  const launch = await launchOf(api, story.id);
  const action: LaunchAction = automaticAction(launch, { newRun: o.newRun, reset: o.resetProgress });
  screen(`${story.name} · ${launch.state}${launch.best_rank ? ` · best rank ${launch.best_rank}` : ''} · ${launch.buttons.map((b) => `[${b.label}]`).join(' ')}`);
  if (action === 'reset') screen(`${RESET_PROGRESS_CONFIRM.title} ${RESET_PROGRESS_CONFIRM.body}`);
  screen(`> ${LAUNCH_ACTIONS[action]}`);
  const planLanguage = script?.kind === 'testplan' ? script.language : null;
  const language: PlayLanguage = o.language ?? planLanguage ?? 'english';
  const run = await applyLaunch(api, story.id, launch, action, language);

  const link = await openLink(o.url, api.token ?? '');
  const { ctrl, audio } = startGame(ctx, link, run, story.name, note, false);
  if (o.json) {
    let said: { text: string; audio: string | null } | null = null;
    ctrl.subscribe((e: PlayEvent) => {
      if (e.type === 'said') said = { text: e.text, audio: e.audio ?? null };
      if (e.type !== 'turn') return;
      const r = e.result;
      io.stdout.write(`${JSON.stringify({ turn: ctrl.turnOf(r.input_id), input_id: r.input_id, said, outputs: r.outputs, forging: r.forging, modifiers: r.modifiers, error: r.error })}\n`);
      said = null;
    });
  } else {
    const printer = new PlainPrinter();
    ctrl.subscribe((e, prev, next) => {
      for (const line of printer.lines(e, prev, next)) screen(line);
    });
  }
  ctrl.subscribe((e) => {
    if (e.type === 'turn') audio.noteTurn();
  });
  let code: number;
  try {
    await ctrl.refreshView();
    code = await playUnattended(ctrl, source ?? { kind: 'stdin', input: io.stdin }, {
      api, print: screen, note, onRecording: (on) => ctrl.dispatch({ type: on ? 'recording_started' : 'recording_stopped' }),
    });
    await audio.drain(AUDIO_QUIET_MS);
  } finally {
    audio.close();
    ctrl.dispose();
    await link.close();
  }
  if (o.saveAudio) note(`Saved ${audio.saved} audio chunk${audio.saved === 1 ? '' : 's'} to ${o.saveAudio}`);
  return code;
}
