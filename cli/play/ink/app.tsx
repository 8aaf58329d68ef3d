// `looptale play` in a terminal: the launch screen, then the game screen, driven by the keyboard (and --mic).
// Game rules stay in the controller and the engine's client machines; this file maps keys to actions.
import { Box, render, Text, useApp, useInput } from 'ink';
import React, { useCallback, useEffect, useRef, useState } from 'react';
import type { LaunchAction } from '../../../engine/catalogue/launch.js';
import type { PlayLanguage } from '../../../engine/schema/enums.js';
import type { CatalogueStory } from '../../../engine/schema/views.js';
import type { Link } from '../../../engine/client/api/link.js';
import type { PlayModel } from '../../../engine/client/game-screen/model.js';
import { showsResult, subScreenOf } from '../../../engine/client/game-screen/model.js';
import { MIC_SAMPLE_RATE, record, requireRecorder } from '../mic.js';
import { type Game, type PlayContext, type PlayIo, startGame } from '../run.js';
import { applyLaunch, type Launch, launchOf, openLink } from '../session.js';
import { CONFIRM_CHOICES, GameScreen, MENU_CHOICES, MENU_CLOSED, type MenuState } from './game-screen.js';
import { LaunchScreen, RESET_CHOICES } from './launch-screen.js';
import { ErrorDialog } from './parts.js';

/** What stays open while the app runs, closed once it exits (by q, or by Ctrl+C, which Ink handles itself). */
type Held = { link: Link | null; game: Game | null };

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function App({ ctx, story, held }: { ctx: PlayContext; story: CatalogueStory; held: Held }): React.ReactElement {
  const { exit } = useApp();
  const link = useRef<Link | null>(null);
  const game = useRef<Game | null>(null);
  useEffect(() => {
    held.link = link.current;
    held.game = game.current;
  });
  const stopRecording = useRef<(() => void) | null>(null);
  const [launch, setLaunch] = useState<Launch | null>(null);
  const [selected, setSelected] = useState(0);
  const [language, setLanguage] = useState<PlayLanguage>(ctx.opts.language ?? 'english');
  const [confirmingReset, setConfirmingReset] = useState(false);
  const [model, setModel] = useState<PlayModel | null>(null);
  const [input, setInput] = useState('');
  const [busy, setBusy] = useState(false);
  const [recording, setRecording] = useState(false);
  const [menu, setMenu] = useState<MenuState>(MENU_CLOSED);
  const [problem, setProblem] = useState<string | null>(null);
  const [notes, setNotes] = useState<string[]>([]);
  const note = useCallback((line: string) => setNotes((n) => [...n.slice(-2), line]), []);

  const task = useCallback((work: () => Promise<void>) => {
    setBusy(true);
    work().catch((e: unknown) => setProblem(message(e))).finally(() => setBusy(false));
  }, []);

  const leaveGame = useCallback(() => {
    stopRecording.current?.();
    game.current?.audio.close();
    game.current?.ctrl.dispose();
    game.current = null;
    setModel(null);
    setMenu(MENU_CLOSED);
    setInput('');
  }, []);

  const quit = useCallback(() => exit(), [exit]);

  const loadLaunch = useCallback(() => {
    setLaunch(null);
    setSelected(0);
    setConfirmingReset(false);
    task(async () => setLaunch(await launchOf(ctx.api, story.id)));
  }, [ctx.api, story.id, task]);

  useEffect(loadLaunch, [loadLaunch]);

  const play = useCallback((action: LaunchAction) => task(async () => {
    if (!launch) return;
    const run = await applyLaunch(ctx.api, story.id, launch, action, language);
    link.current ??= await openLink(ctx.opts.url, ctx.api.token ?? '');
    const started = startGame(ctx, link.current, run, story.name, note, true);
    const { ctrl } = started;
    game.current = started;
    held.link = link.current;
    held.game = game.current;
    await ctrl.refreshView();
    ctrl.subscribe((_e, _prev, next) => setModel(next));
    setModel(ctrl.model);
  }), [ctx, held, launch, language, note, story, task]);

  const say = useCallback((text: string) => {
    const g = game.current;
    if (!g) return;
    task(async () => void (await g.ctrl.say(text)));
  }, [task]);

  const speak = useCallback(() => {
    const g = game.current;
    if (!g) return;
    const rec = record(requireRecorder());
    stopRecording.current = rec.stop;
    // The voice loop skips what plays and discards what comes while the player speaks.
    g.ctrl.dispatch({ type: 'recording_started' });
    setRecording(true);
    task(async () => {
      const r = await rec.done.finally(() => {
        g.ctrl.dispatch({ type: 'recording_stopped' });
        stopRecording.current = null;
        setRecording(false);
      });
      if (r.pcm.length === 0) note('Nothing heard: try again.');
      else await g.ctrl.sayAudio({ bytes: r.pcm, format: 'pcm16', label: `mic ${r.seconds.toFixed(1)} s`, sample_rate: MIC_SAMPLE_RATE, channels: 1, bits_per_sample: 16 });
    });
  }, [note, task]);

  useInput((ch, key) => {
    if (problem) {
      if (key.return || key.escape) setProblem(null);
      return;
    }
    const g = game.current;
    if (!g || !model) {
      // The launch screen.
      if (busy) return;
      const labels = confirmingReset ? RESET_CHOICES : launch?.buttons.map((b) => b.label) ?? [];
      if (key.upArrow) setSelected((s) => (s + labels.length - 1) % Math.max(1, labels.length));
      else if (key.downArrow) setSelected((s) => (s + 1) % Math.max(1, labels.length));
      else if (key.tab) setLanguage((l) => (l === 'english' ? 'french' : 'english'));
      else if (key.escape && confirmingReset) setConfirmingReset(false);
      else if (ch === 'q' || key.escape) quit();
      else if (key.return && launch) {
        if (confirmingReset) {
          setConfirmingReset(false);
          if (selected === 1) play('reset');
          setSelected(0);
          return;
        }
        const action = launch.buttons[selected]?.action;
        if (action === 'reset') {
          setConfirmingReset(true);
          setSelected(0);
        } else if (action) play(action);
      }
      return;
    }
    if (recording) {
      if (key.return || key.escape) stopRecording.current?.();
      return;
    }
    if (model.goldenTicket === 'shown') {
      g.ctrl.dispatch({ type: 'dismiss_golden_ticket' }); // a key is the backdrop click
      return;
    }
    if (model.error) {
      if (key.return || key.escape) g.ctrl.dispatch({ type: 'dismiss_error' });
      return;
    }
    if (menu.open) {
      const n = menu.confirming ? CONFIRM_CHOICES.length : MENU_CHOICES.length;
      if (key.upArrow || key.leftArrow) setMenu({ ...menu, selected: (menu.selected + n - 1) % n });
      else if (key.downArrow || key.rightArrow) setMenu({ ...menu, selected: (menu.selected + 1) % n });
      else if (key.escape) setMenu(menu.confirming ? { ...menu, confirming: false, selected: 0 } : MENU_CLOSED);
      else if (key.return) {
        if (!menu.confirming) setMenu(menu.selected === 0 ? { open: true, confirming: true, selected: 0 } : MENU_CLOSED);
        else if (menu.selected === 1) {
          setMenu(MENU_CLOSED);
          task(() => g.ctrl.endRun());
        } else setMenu(MENU_CLOSED);
      }
      return;
    }
    if (busy) return;
    const screen = subScreenOf(model);
    if (key.escape && screen !== 'game_won' && screen !== 'game_lost') {
      setMenu({ open: true, selected: 0, confirming: false });
      return;
    }
    switch (screen) {
      case 'start':
        if (key.return) task(async () => void (await g.ctrl.start()));
        return;
      case 'end_of_moment':
        if (key.return) task(() => g.ctrl.nextMoment());
        return;
      case 'game_won':
      case 'game_lost':
        if (key.return) {
          leaveGame();
          loadLaunch();
        } else if (ch === 'q') quit();
        return;
      case 'in_game':
        // A complete moment still showing its award or forging: Enter moves past them to MOMENT COMPLETE.
        if (key.return && !input.trim() && model.momentComplete && showsResult(model)) {
          g.ctrl.dispatch({ type: 'dismiss_award' });
          g.ctrl.dispatch({ type: 'close_forging' });
          return;
        }
        if (key.return) {
          const text = input.trim();
          setInput('');
          if (text === '/menu') setMenu({ open: true, selected: 0, confirming: false });
          else if (text === '/end') setMenu({ open: true, selected: 0, confirming: true });
          else if (text) say(text);
          else if (ctx.opts.mic) speak();
        } else if (key.backspace || key.delete) setInput((s) => s.slice(0, -1));
        else if (ch && !key.ctrl && !key.meta && !key.tab) setInput((s) => s + ch);
    }
  });

  return (
    <Box flexDirection="column">
      {model
        ? <GameScreen model={model} input={input} busy={busy} recording={recording} mic={ctx.opts.mic} menu={menu} />
        : <LaunchScreen storyName={story.name} titleColor={story.text_rgba_color} launch={launch} selected={selected} language={language} confirmingReset={confirmingReset} busy={busy} error={null} />}
      {problem ? <ErrorDialog message={problem} /> : null}
      {notes.map((n, i) => <Text key={i} dimColor>{n}</Text>)}
    </Box>
  );
}

export async function runInteractive(ctx: PlayContext, story: CatalogueStory, io: PlayIo): Promise<number> {
  const held: Held = { link: null, game: null };
  const app = render(<App ctx={ctx} story={story} held={held} />, { stdout: io.stdout, stdin: io.stdin, stderr: io.stderr, patchConsole: false, exitOnCtrlC: true });
  try {
    await app.waitUntilExit();
  } finally {
    held.game?.audio.close();
    held.game?.ctrl.dispose();
    await held.link?.close();
  }
  return 0;
}
