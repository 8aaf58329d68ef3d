// `looptale play` as the real command in a child process (no terminal: plain lines) against the real server, and the
// game screen's Ink view rendered from a fixture model.
import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink';
import React from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATTLE_INDICATOR_TEXT } from '../engine/client/battle-indicator.js';
import { GOLDEN_TICKET_TEXT } from '../engine/client/golden-ticket-popup.js';
import { SUB_SCREEN_TEXT } from '../engine/client/sub-screen.js';
import { SILENCE_BLOCK_SAMPLES } from '../engine/client/silence.js';
import type { GameOutput } from '../engine/schema/game-output.js';
import type { GameView } from '../engine/schema/views.js';
import { AudioOut } from '../cli/play/audio-out.js';
import { GameScreen } from '../cli/play/ink/game-screen.js';
import { END_RUN_CONFIRM } from '../engine/client/game-screen/menu-text.js';
import { SilenceCutter } from '../cli/play/mic.js';
import { initialModel, type PlayEvent, type PlayModel, reducePlay, subScreenOf } from '../engine/client/game-screen/model.js';
import { PlainPrinter } from '../cli/play/plain.js';
import { parsePlayOptions } from '../cli/play/options.js';
import { audioFormatOf, parseScript } from '../cli/play/script.js';
import { CliError } from '../cli/lib/story-file.js';
import { speakerName } from '../engine/client/game-screen/text.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = join(import.meta.dirname, '..');
const PLAN = 'fixtures/stories/lantern-keeper/win.en.testplan';
const PASSWORD = 'correct horse battery staple';
const ANSI = /\x1b\[/; // eslint-disable-line no-control-regex

type Run = { code: number; stdout: string; stderr: string };

function looptale(args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['bin/looptale.js', ...args], { cwd: ROOT, env: { ...process.env, LOOPTALE_TOKEN: '', LOOPTALE_EMAIL: '', LOOPTALE_PASSWORD: '' } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(stdin ?? '');
  });
}

let srv: TestServer;
let n = 0;
const account = (): string[] => ['--email', `player-${Date.now()}-${n++}@example.com`, '--password', PASSWORD];
const play = (...args: string[]): string[] => ['play', '--url', srv.url, ...args];

beforeAll(async () => {
  srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: 'fixtures/stories' });
});
afterAll(async () => srv?.close());

// Each test runs its own child processes with its own account, so they run side by side.
describe.concurrent('looptale play (plain, against the real server)', { timeout: 180_000 }, () => {
  it('plays the lantern keeper win plan to YOU WON with the rank, one plain line per event', async ({ expect }) => {
    const r = await looptale(play('--story', 'The Lantern Keeper', ...account(), '--script', PLAN));
    expect(r.stderr).not.toContain('looptale:');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('The Lantern Keeper · FRESH · [start your first game]');
    expect(lines[1]).toBe('> start your first game');
    expect(lines).toContain("== The Keeper's Log (Learn) · 3 October 1894 at 19:00 · Run 1 · Beat rank F · [Start] ==");
    expect(lines).toContain("[Run 1 · The Keeper's Log · Learn] Ysolde: Always at high tide, near midnight. The flame doesn't die, mind you. Something covers the lamp.");
    expect(lines).toContain('> you: When does the light go dark?');
    expect(lines).toContainEqual(expect.stringMatching(/^\[Run 1 · Nell at the Quay · Reward\] Nell \(happiness, 3\): /));
    expect(lines).toContain('  Award: New character: Nell Cardew');
    expect(lines).toContain('  Team: Ysolde Marrow (HP 10/10, ATK 2, Normal); Nell Cardew (HP 9/9, ATK 3, Normal)');
    expect(lines).toContain('  Forged: Nell Cardew + Storm Lantern (+bright)');
    expect(lines).toContain('* Perfect answer!');
    expect(lines).toContain('  Remaining interactions: 19 / 20');
    expect(lines.filter((l) => l === SUB_SCREEN_TEXT.momentComplete).length).toBeGreaterThanOrEqual(8);
    // The first Rank S earns the golden ticket: its overlay, and no rank notification beside it (game spec §4).
    expect(lines.filter((l) => l.includes('ACHIEVED!'))).toEqual([]);
    expect(lines).toEqual(expect.arrayContaining([GOLDEN_TICKET_TEXT.title, GOLDEN_TICKET_TEXT.body, GOLDEN_TICKET_TEXT.hint]));
    expect(lines.filter(Boolean).at(-1)).toBe('YOU WON · Rank S');
    expect(r.stdout).not.toMatch(ANSI);
  });

  it('plays a plain script of lines (comments and blank lines skipped) and starts the Epilogue on its own', async ({ expect }) => {
    const dir = mkdtempSync(join(tmpdir(), 'looptale-play-'));
    const says = readFileSync(join(ROOT, PLAN), 'utf8').split('\n').filter((l) => l.startsWith('say ')).map((l) => l.slice(4));
    const script = join(dir, 'win.txt');
    writeFileSync(script, `# the winning lines\n\n${says.join('\n')}\n`);
    const r = await looptale(play('--story', 'lantern', ...account(), '--script', script));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("== The Keeper's Log (Learn)");
    expect(r.stdout).toContain('> you: Give the storm lantern to Nell');
    expect(r.stdout).toContain('MOMENT COMPLETE');
    expect(r.stdout).toContain('YOU WON · Rank S');
  });

  it('plays the clockwork siege battle with its indicator, opponents and strikes', async ({ expect }) => {
    const r = await looptale(play('--story', 'The Clockwork Siege', ...account(), '--script', 'fixtures/stories/clockwork-siege/win.en.testplan'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`  Battle: ${BATTLE_INDICATOR_TEXT.attack}`);
    expect(r.stdout).toContain(`  Battle: ${BATTLE_INDICATOR_TEXT.defend}`);
    expect(r.stdout).toContain('  Opponents: Scrapjaw (HP 7/7, ATK 4); The Bellows Knight (HP 9/9, ATK 5); Margravine Sable (HP 12/12, ATK 6)');
    expect(r.stdout).toMatch(/ {2}Battle: Ferrule → Margravine Sable \(\d+ damage/);
    expect(r.stdout).toContain('* Here is your riddle');
    expect(r.stdout).toContain('YOU WON · Rank B');
  });

  it('reads turns from standard input, ends the run with /end (the spec text), and --json prints one object per turn', async ({ expect }) => {
    const r = await looptale(play('--story', 'lantern', ...account(), '--json'), 'When does the light go dark?\n/end\nIs anything missing?\n');
    expect(r.code).toBe(0);
    const turns = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { turn: number; said: { text: string } | null; outputs: GameOutput[] });
    expect(turns.length).toBeGreaterThanOrEqual(3);
    expect(turns.map((t) => t.turn)).toEqual(turns.map((_t, i) => i + 1));
    const said = turns.find((t) => t.said?.text === 'When does the light go dark?');
    expect(said?.outputs[0]?.dialogue).toContain('high tide');
    expect(r.stderr).toContain(END_RUN_CONFIRM.text);
    expect(r.stderr).toContain('The run is over: 1 more turn not played.');

    const plain = await looptale(play('--story', 'lantern', ...account()), 'When does the light go dark?\n/end\n');
    expect(plain.stdout).toContain(END_RUN_CONFIRM.text);
    expect(plain.stdout.trim().split('\n').at(-1)).toBe('YOU LOOSE · Rank F');
  });

  it('continues an ongoing run, and --new-run starts another', async ({ expect }) => {
    const who = account();
    await looptale(play('--story', 'lantern', ...who), 'When does the light go dark?\n');
    const again = await looptale(play('--story', 'lantern', ...who), 'Is anything missing?\n');
    expect(again.stdout.split('\n')[0]).toBe('The Lantern Keeper · ONGOING · [continue] [start a new run] [reset all progress]');
    expect(again.stdout).toContain('> continue');
    const fresh = await looptale(play('--story', 'lantern', ...who, '--new-run'), '');
    expect(fresh.stdout).toContain('> start a new run');
    expect(fresh.stdout).toContain('Run 2 · Beat rank F');
  });

  it('sends @audio lines as audio with the format of their extension', async ({ expect }) => {
    const dir = mkdtempSync(join(tmpdir(), 'looptale-play-'));
    const script = join(dir, 'audio.txt');
    writeFileSync(script, '@audio fixtures/audio/lantern-keeper/en/dead-end.en.l3.m3-175-50.wav\n');
    const r = await looptale(play('--story', 'lantern', ...account(), '--script', script));
    expect(r.stdout).toContain('> you [audio dead-end.en.l3.m3-175-50.wav]');
    // What the server does with it depends on its recogniser: heard words, or its error, never a crash.
    expect(r.stdout).toMatch(/ {2}heard: "|An error occurred: /);
    expect([0, 1]).toContain(r.code);
  });

  it('a wrong password fails with exit 1 and says so', async ({ expect }) => {
    const [, email = ''] = account();
    expect((await looptale(play('--story', 'lantern', '--email', email, '--password', PASSWORD))).code).toBe(0);
    const r = await looptale(play('--story', 'lantern', '--email', email, '--password', 'not the right one at all'));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`looptale: Sign-in failed for ${email}: wrong password (the account exists).\n`);
  });

  it('an unknown story fails with exit 1: Story not found, naming the stories there are', async ({ expect }) => {
    const r = await looptale(play('--story', 'The Missing Story', ...account()));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Story not found: 'The Missing Story'");
    expect(r.stderr).toContain('"The Lantern Keeper"');
  });

  it('an unreachable server fails with exit 1 and the URL', async ({ expect }) => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const a = s.address();
        s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
      });
    });
    const url = `http://127.0.0.1:${port}`;
    const r = await looptale(['play', '--url', url, '--story', 'lantern', ...account()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Cannot reach the server at ${url}`);
  });

  it('bad usage exits 2 before any request', async ({ expect }) => {
    const r = await looptale(play('--story', 'lantern'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('sign in with --email and --password, or --token');
    const badClip = await looptale(play('--story', 'lantern', ...account(), '--audio', 'clip.ogg'));
    expect(badClip.code).toBe(2);
    expect(badClip.stderr).toContain("unknown audio type '.ogg'");
  });

  it('--help shows examples', async ({ expect }) => {
    const r = await looptale(['play', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('--script fixtures/stories/lantern-keeper/win.en.testplan');
  });
});

// ---- fixtures for the pure parts and the Ink view ----

const ID = (k: number): string => `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`;

function view(over: Partial<GameView> = {}): GameView {
  return {
    player_story_id: ID(1), blueprint_story_id: ID(2), blueprint_moment_id: ID(3), blueprint_place_id: null,
    moment_type: 'Battle', moment_name: 'Battle at the Great Gate', moment_date: '1871-11-30T23:00:00', language: 'english',
    loop_rank: null, loop_number: 2, loop_current_number_of_interactions: 11, loop_max_number_of_interactions: 26,
    loop_status: 'loopStatusOnGoing', best_rank: 2, background_rgba_color: 'rgba(10,10,10,1)', text_rgba_color: 'rgba(250,240,220,1)',
    control_rgba_color: 'rgba(255,190,84,1)', place_image_details: [], moment_image_details: [],
    character_image_details: [{ media_url: 'images/character-sable.svg', media_kind: 'image' }], do_not_display_character: false,
    battle_opponent_characters: [{ opponent_id: ID(20), opponent_name: 'Scrapjaw', opponent_current_health: 7, opponent_base_health: 7 }],
    enrolled_characters: [], player_items: [{ available_item_id: ID(30), available_item_name: 'Winding Key', available_item_properties: ['tinkering'], available_item_attack_bonus: 1, available_item_defense_bonus: 0 }],
    is_moment_complete: false, battle_phase: 'initial', max_number_of_characters: null, card_images: {}, ...over,
  };
}

function output(over: Partial<GameOutput> = {}): GameOutput {
  return {
    input_id: ID(40), player_story_id: ID(1), player_moment_id: ID(41), blueprint_moment_id: ID(3), is_starting_dialogue: false,
    dialogue: 'Ferrule strikes Margravine Sable!', transcribed_player_answer: 'Ferrule, crush her!', complete_the_moment: false,
    end_of_game: false, next_moment_id: '', player_facts: [], was_perfect_answer: false, was_cache_hit: false,
    character_emotion_key: 'anger', character_emotion_strength: 4, battle_state_action_history: [],
    battle_state_opponent_characters: [
      { opponent_id: ID(20), opponent_name: 'Scrapjaw', current_health: 3, base_health: 7, current_attack: 4, base_attack: 4, properties: [] },
    ],
    player_characters: [{
      character_id: ID(50), blueprint_character_id: ID(51), character_name: 'Ferrule', character_properties: ['mighty'],
      character_current_attack: 19, character_base_attack: 7, character_current_health: 27, character_base_health: 28,
      character_card_type: 'Golden', is_selected_in_assemble: true, is_burned_out: false,
      equipped_items: [{ id: ID(52), blueprint_item_id: ID(53), name: 'Chime-Hammer', description: '', attack_bonus: 2, defense_bonus: 0, properties: ['ringing'], rarity: 'common' }],
    }],
    battle_state_next_phase: 'player_defense_input', battle_pending_strike: null, is_awarded: false, award_type: '', award_id: '', score: 0,
    equipped_character_id: '', equipped_item_id: '', awarded_property: '', equipment_image_url: '', upgraded_character_id: '',
    awarded_rarity: '', interaction_bet_size: 0, chosen_difficulty_level: '', sacrificed_properties: [], selected_player_characters: [ID(50)],
    loop_rank: null, loop_status: 'loopStatusOnGoing', loop_current_number_of_interactions: 12, loop_max_number_of_interactions: 26,
    interaction_counted: true, golden_ticket_awarded: false, skipped_moments: [], notifications: [], ...over,
  };
}

function fold(events: PlayEvent[]): PlayModel {
  return events.reduce((m, e) => reducePlay(m, e).model, initialModel('The Clockwork Siege'));
}

function turn(...outputs: GameOutput[]): PlayEvent {
  return { type: 'turn', result: { input_id: ID(40), outputs, forging: [], modifiers: [], error: null, firstOutputMs: 1, lastOutputMs: 1 } };
}

/** Renders once to a fake terminal (ink-testing-library's approach: debug mode writes each whole frame). */
function frame(node: React.ReactElement): string {
  const stdout = Object.assign(new EventEmitter(), { columns: 120, rows: 60, frames: [] as string[], write(s: string) { this.frames.push(s); return true; } });
  const stdin = Object.assign(new EventEmitter(), { isTTY: false, setRawMode() {}, setEncoding() {}, ref() {}, unref() {}, read: () => null });
  const app = render(node, { stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, debug: true, patchConsole: false, exitOnCtrlC: false });
  const last = stdout.frames.at(-1) ?? '';
  app.unmount();
  return last.replace(/\x1b\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex
}

describe('the game screen (Ink)', () => {
  it('shows the start screen: date, moment name, Start, Run n and Beat rank', () => {
    const text = frame(React.createElement(GameScreen, { model: fold([{ type: 'view', view: view() }]) }));
    expect(text).toContain('30 November 1871 at 23:00');
    expect(text).toContain('Battle at the Great Gate');
    expect(text).toContain(' Start ');
    expect(text).toContain('Run 2');
    expect(text).toContain('Beat rank A');
  });

  it('shows the battle indicator, opponents with health, the team with HP, attack, card type and items', () => {
    const model = fold([{ type: 'view', view: view() }, turn(output({ battle_state_next_phase: 'player_attack_input' }))]);
    expect(subScreenOf(model)).toBe('in_game');
    const attack = frame(React.createElement(GameScreen, { model, input: 'Ferrule, smash' }));
    expect(attack).toContain(BATTLE_INDICATOR_TEXT.attack);
    expect(attack).toContain('Scrapjaw');
    expect(attack).toContain('♥ 3/7');
    expect(attack).toContain('Ferrule');
    expect(attack).toContain('♥ 27/28');
    expect(attack).toContain('⚔ 19');
    expect(attack).toContain('Golden');
    expect(attack).toContain('+ Chime-Hammer');
    expect(attack).toContain('Winding Key');
    expect(attack).toContain('Sable (anger, 4): Ferrule strikes Margravine Sable!');
    expect(attack).toContain('> Ferrule, smash');
    expect(attack).toContain('14 / 26 left');
    const defend = frame(React.createElement(GameScreen, { model: fold([{ type: 'view', view: view() }, turn(output())]) }));
    expect(defend).toContain(BATTLE_INDICATOR_TEXT.defend);
    expect(defend).not.toContain(BATTLE_INDICATOR_TEXT.attack);
  });

  it('shows no battle indicator outside battles, and MOMENT COMPLETE, YOU WON with the golden ticket, and the menu', () => {
    const learn = view({ moment_type: 'Learn', moment_name: "The Keeper's Log", battle_opponent_characters: [] });
    const inLearn = frame(React.createElement(GameScreen, { model: fold([{ type: 'view', view: learn }, turn(output({ battle_state_next_phase: '', battle_state_opponent_characters: [] }))]) }));
    expect(inLearn).not.toContain(BATTLE_INDICATOR_TEXT.attack);
    expect(inLearn).not.toContain(BATTLE_INDICATOR_TEXT.defend);
    const done = fold([{ type: 'view', view: learn }, turn(output({ complete_the_moment: true, battle_state_next_phase: '' }))]);
    expect(frame(React.createElement(GameScreen, { model: done }))).toContain(SUB_SCREEN_TEXT.momentComplete);
    const epilogue = view({ moment_type: 'Epilogue', moment_name: 'Hollowbell Keeps Time', battle_opponent_characters: [] });
    const won = fold([{ type: 'view', view: epilogue }, turn(output({ complete_the_moment: true, loop_status: 'loopStatusWon', loop_rank: 2, golden_ticket_awarded: true, battle_state_next_phase: '' }))]);
    const wonText = frame(React.createElement(GameScreen, { model: won }));
    expect(wonText).toContain(SUB_SCREEN_TEXT.won);
    expect(wonText).toContain('Rank A');
    expect(wonText).toContain(GOLDEN_TICKET_TEXT.title);
    const menu = frame(React.createElement(GameScreen, { model: done, menu: { open: true, selected: 1, confirming: true } }));
    expect(menu.replace(/[│\s]+/g, ' ')).toContain(END_RUN_CONFIRM.text);
    expect(menu).toContain('Remaining interactions: 14 / 26');
    const lost = fold([{ type: 'view', view: learn }, { type: 'run_ended', rank: 7 }]);
    expect(frame(React.createElement(GameScreen, { model: lost }))).toContain(SUB_SCREEN_TEXT.lost);
  });
});

describe('play: pure parts', () => {
  it('parses scripts: words, @audio with the format of the extension, /end; skips blanks and comments', () => {
    const dir = mkdtempSync(join(tmpdir(), 'looptale-play-'));
    writeFileSync(join(dir, 'a.mp3'), new Uint8Array([0xff, 0xfb, 0x90]));
    const turns = parseScript(`# c\n\nhello there\n@audio ${join(dir, 'a.mp3')}\n/end\n`, join(dir, 's.txt'));
    expect(turns.map((t) => t.kind)).toEqual(['say', 'audio', 'end']);
    expect(turns[1]?.kind === 'audio' ? turns[1].clip.format : null).toBe('mp3');
    expect([audioFormatOf('x.WAV'), audioFormatOf('x.pcm16'), audioFormatOf('x.ogg')]).toEqual(['wav', 'pcm16', null]);
    expect(() => parseScript('@audio missing.wav\n', join(dir, 's.txt'))).toThrow(/missing\.wav: no such file/);
    expect(() => parseScript('@video x\n', 's.txt')).toThrow(/unknown directive/);
  });

  it('checks options: story, credentials, language, URL, one source of turns', () => {
    const base = { url: 'http://127.0.0.1:8787/', story: 'lantern', email: 'a@example.com', password: 'pw' };
    expect(parsePlayOptions(base, {})).toMatchObject({ url: 'http://127.0.0.1:8787', credentials: { email: 'a@example.com', password: 'pw' }, language: null });
    expect(parsePlayOptions({ url: base.url, story: 'x' }, { LOOPTALE_TOKEN: 't' }).credentials).toEqual({ token: 't' });
    expect(parsePlayOptions({ ...base, language: 'fr' }, {}).language).toBe('french');
    const usage = (o: Parameters<typeof parsePlayOptions>[0]): string => {
      try {
        parsePlayOptions(o, {});
        return 'accepted';
      } catch (e) {
        return e instanceof CliError ? `${e.exitCode}: ${e.message}` : String(e);
      }
    };
    expect(usage({ ...base, story: '' })).toMatch(/^2: --story is required/);
    expect(usage({ ...base, language: 'de' })).toBe("2: --language must be en or fr (got 'de')");
    expect(usage({ ...base, url: 'ftp://x' })).toMatch(/^2: --url must start with http/);
    expect(usage({ ...base, password: undefined })).toMatch(/^2: --password is required/);
    expect(usage({ ...base, token: 't' })).toMatch(/^2: give either --token/);
    expect(usage({ ...base, script: 'a.txt', mic: true })).toMatch(/^2: --script and --mic cannot be used together/);
  });

  it('names the speaker from the character image and the team', () => {
    const v = view();
    expect(speakerName(v)).toBe('Sable');
    expect(speakerName({ ...v, enrolled_characters: [{ character_id: ID(1), blueprint_character_id: null, character_name: 'Margravine Sable', character_properties: [], character_current_attack: 1, character_base_attack: 1, character_current_health: 1, character_base_health: 1, character_card_type: 'Normal', is_selected_in_assemble: true, equipped_items: [] }] })).toBe('Margravine');
    expect(speakerName({ ...v, character_image_details: [] })).toBeNull();
  });

  it('prints each notification once, in plain mode', () => {
    const printer = new PlainPrinter();
    let m = initialModel('The Clockwork Siege');
    const lines: string[] = [];
    for (const e of [{ type: 'view', view: view() }, turn(output({ was_perfect_answer: true }))] as PlayEvent[]) {
      const next = reducePlay(m, e).model;
      lines.push(...printer.lines(e, m, next));
      m = next;
    }
    expect(lines.filter((l) => l === '* Perfect answer!')).toHaveLength(1);
    expect(lines).toContain('  Battle: DEFEND');
  });

  it('cuts a recording on the game silence rule and keeps only non-silent blocks', () => {
    const block = (amp: number): Uint8Array => {
      const b = new Uint8Array(SILENCE_BLOCK_SAMPLES * 2);
      const v = new DataView(b.buffer);
      for (let i = 0; i < SILENCE_BLOCK_SAMPLES; i++) v.setInt16(i * 2, i % 2 ? amp : -amp, true);
      return b;
    };
    const cut = new SilenceCutter();
    expect(cut.feed(block(8000))).toBe(false);
    let stopped = false;
    for (let i = 0; i < 20 && !stopped; i++) stopped = cut.feed(block(0));
    expect(stopped).toBe(true);
    expect(cut.result().pcm.length).toBe(SILENCE_BLOCK_SAMPLES * 2);
  });

  it('saves audio chunks as one .mp3 each, named by turn, input and sequence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'looptale-audio-'));
    const warnings: string[] = [];
    const out = new AudioOut({ player: null, saveDir: dir, turnOf: () => 3, warn: (w) => warnings.push(w), unplayedNote: null });
    const chunk = { header: { player_moment_id: ID(1), is_starting_dialogue: false, input_id: ID(77) }, audio: new Uint8Array([1, 2, 3]), atMs: 0 };
    out.accept(chunk);
    out.accept(chunk);
    expect(readdirSync(dir).sort()).toEqual(['turn-003-00000000-01.mp3', 'turn-003-00000000-02.mp3']);
    const silent = new AudioOut({ player: null, saveDir: null, turnOf: () => 1, warn: (w) => warnings.push(w), unplayedNote: 'Audio is not played' });
    silent.accept(chunk);
    silent.accept(chunk);
    expect(warnings).toEqual(['Audio is not played']);
  });
});
