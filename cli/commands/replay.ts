// `looptale replay <transcript.jsonl>`: re-runs a saved run (from `simulate --save-transcripts` or a server's
// transcript export) offline through the engine and the scripted brain, or against a live server in a fresh run with
// the same seed, and prints what differs turn by turn. Exit 1 on any divergence.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { currentMoment } from '../../engine/run/state.js';
import { diffOutputs, replayOffline, type TurnDiff } from '../../engine/sim/replay.js';
import { parseTranscript, type ParsedTranscript } from '../../engine/sim/transcript.js';
import { type Story } from '../../engine/story/format.js';
import type { PlayerStory } from '../../engine/schema/player.js';
import { Api, ApiError, GameSocket } from '../lib/game-client.js';
import { CliError, loadStory, runCommand } from '../lib/story-file.js';

type Options = {
  story?: string; storiesDir: string; url?: string; email?: string; password?: string; token?: string;
  until?: string; json?: boolean; decisions: string;
};

function findStory(storyId: string, o: Options): Story {
  if (o.story) return loadStory(o.story);
  const dir = resolve(o.storiesDir);
  if (existsSync(dir)) {
    for (const name of readdirSync(dir)) {
      const file = join(dir, name, 'story.json');
      if (!existsSync(file)) continue;
      try {
        const raw = JSON.parse(readFileSync(file, 'utf8')) as { id?: unknown };
        if (raw.id === storyId) return loadStory(file);
      } catch {
        // not a story file: keep looking
      }
    }
  }
  throw new CliError(`Story ${storyId} of this transcript was not found in ${dir}: pass --story <file>.`);
}

function readTranscript(file: string): ParsedTranscript {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new CliError(`Cannot read transcript ${file}`);
  }
  const t = parseTranscript(text);
  if (!t.ok) throw new CliError(`${file} is not a valid transcript: ${t.error}`);
  return t.transcript;
}

function printDiffs(diffs: TurnDiff[], events: number, replayed: number): void {
  for (const d of diffs) {
    process.stdout.write(`turn ${d.index} (${d.event}${d.said ? ` '${d.said}'` : ''}${d.moment ? ` at ${d.moment}` : ''}) differs:\n`);
    for (const x of d.diffs) process.stdout.write(`    ${x}\n`);
  }
  process.stdout.write(diffs.length ? `DIVERGED: ${diffs.length} of ${replayed} events differ (${events} recorded)\n` : `OK: ${replayed} events replayed, no divergence\n`);
}

async function online(t: ParsedTranscript, file: string, o: Options): Promise<number> {
  if (t.header.run_index !== 0) {
    throw new CliError(`This transcript is run ${t.header.run_index + 1} of its player: online replay reproduces a player's first run (a fresh run with the same seed). Replay it offline instead.`);
  }
  const api = new Api(o.url ?? '');
  if (o.token) api.token = o.token;
  else if (o.email && o.password) await api.signInOrUp(o.email, o.password);
  else throw new CliError('Online replay needs --email and --password (a fresh account is best) or --token.');
  const create = t.events.find((e) => e.event.type === 'run.create')?.event;
  const language = create?.type === 'run.create' ? create.language : 'english';
  let run: PlayerStory;
  try {
    run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: t.header.story_id, language, seed: t.header.seed });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) throw new CliError(`Story ${t.header.story_id} is not on the server at ${o.url ?? ''}.`, 1);
    if (e instanceof ApiError && e.code === 'seed_not_allowed') {
      throw new CliError(`The server at ${o.url ?? ''} does not accept a run seed: online replay needs a server started with ALLOW_RUN_SEED=true (a development switch).`, 1);
    }
    throw e;
  }
  const socket = await GameSocket.connect(o.url ?? '', api.token ?? '');
  const diffs: TurnDiff[] = [];
  let replayed = 0;
  const until = o.until === undefined ? Infinity : Number(o.until);
  for (const [i, rec] of t.events.entries()) {
    if (i >= until) break;
    const ev = rec.event;
    if (ev.type === 'run.create') continue;
    replayed++;
    if (ev.type === 'run.end') {
      await api.request('POST', `/api/player-stories/${run.id}/end`);
      continue;
    }
    if (ev.type !== 'turn') {
      diffs.push({ index: i, event: ev.type, said: '', moment: '', diffs: [`${ev.type} is not replayed online`] });
      continue;
    }
    const clip = rec.audio?.file ? resolve(dirname(file), rec.audio.file) : null;
    const audio = clip && existsSync(clip) ? new Uint8Array(readFileSync(clip)) : undefined;
    const fmt = clip ? extname(clip).slice(1) : '';
    const r = await socket.send({
      input_id: ev.input_id, player_story_id: run.id, is_starting_dialogue: ev.is_starting_dialogue,
      ...(audio ? { audio_format: fmt === 'wav' ? 'wav' : fmt === 'pcm' ? 'pcm16' : 'mp3' } : ev.is_starting_dialogue ? {} : { transcription: ev.transcription }),
    }, audio);
    const d = r.error ? [`server error: ${r.error}`] : diffOutputs(rec.outputs, r.outputs, { ignoreIds: true });
    if (d.length) diffs.push({ index: i, event: ev.is_starting_dialogue ? 'start' : 'say', said: ev.transcription, moment: '', diffs: d });
  }
  await socket.close();
  if (o.json) process.stdout.write(`${JSON.stringify({ mode: 'online', player_story_id: run.id, events: t.events.length, replayed, diverged: diffs }, null, 2)}\n`);
  else printDiffs(diffs, t.events.length, replayed);
  return diffs.length ? 1 : 0;
}

export function register(program: Command): void {
  program
    .command('replay')
    .description('re-run a saved run transcript offline (engine + scripted brain) or against a live server; print what differs')
    .argument('<transcript>', 'a JSONL transcript (simulate --save-transcripts, or GET /api/player-stories/:id/transcript)')
    .option('--story <file>', 'the story file (default: found by id in --stories-dir)')
    .option('--stories-dir <dir>', 'where to look for the story by id', 'fixtures/stories')
    .option('--url <url>', 'replay against this server instead of offline')
    .option('--email <email>', 'account for online replay (signed up if new)')
    .option('--password <password>', 'password for --email')
    .option('--token <token>', 'access token for online replay')
    .option('--until <n>', 'stop before event n and print the state there')
    .option('--decisions <how>', "offline: 'brain' re-decides each turn with the scripted brain; 'recorded' reuses the recorded decisions", 'brain')
    .option('--json', 'print the report as JSON')
    .addHelpText('after', `
Exit codes: 0 no divergence, 1 divergence (or a server error), 2 bad usage or unreadable transcript.

Examples:
  looptale replay transcripts/run-00001.jsonl
  looptale replay run.jsonl --until 12                 # the state just before event 12
  looptale replay run.jsonl --url http://localhost:8787 --email dev@example.com --password secret123`)
    .action((file: string, o: Options) => runCommand(async () => {
      const t = readTranscript(file);
      if (o.until !== undefined && !/^\d+$/.test(o.until)) throw new CliError(`--until must be a whole number (got '${o.until}')`);
      if (o.decisions !== 'brain' && o.decisions !== 'recorded') throw new CliError("--decisions must be 'brain' or 'recorded'");
      if (o.url) return online(t, file, o);
      const story = findStory(t.header.story_id, o);
      const r = replayOffline(story, t, { ...(o.until !== undefined ? { until: Number(o.until) } : {}), decisions: o.decisions });
      const pm = currentMoment(r.state);
      const summary = {
        run: r.state.run ? { id: r.state.run.id, loop_number: r.state.run.loop_number, status: r.state.run.loop_status, interactions: r.state.run.loop_current_number_of_interactions, rank: r.state.run.loop_rank } : null,
        moment: pm ? { id: pm.blueprint_moment_id, name: story.moments.find((m) => m.id === pm.blueprint_moment_id)?.name.en ?? '', started: pm.is_started, phase: pm.battle_phase, facts: pm.player_facts } : null,
        characters: r.state.characters.map((c) => ({ name: c.name, hp: `${c.current_health}/${c.max_health}`, attack: c.current_attack, card: c.card_type, selected: c.is_selected_in_assemble })),
        items: r.state.items.map((i) => i.name),
        opponents: r.state.opponents.map((x) => ({ name: x.name, hp: `${x.current_health}/${x.base_health}` })),
      };
      if (o.json) {
        process.stdout.write(`${JSON.stringify({ mode: 'offline', events: r.events, replayed: r.replayed, diverged: r.diverged, final_digest_matches: r.final_digest_matches, ...(o.until !== undefined ? { state: summary } : {}) }, null, 2)}\n`);
      } else {
        printDiffs(r.diverged, r.events, r.replayed);
        if (o.until !== undefined) process.stdout.write(`state before event ${o.until}:\n${JSON.stringify(summary, null, 2)}\n`);
        if (r.final_digest_matches === false) process.stdout.write('final state digest differs from the recorded one\n');
      }
      return r.diverged.length || r.final_digest_matches === false ? 1 : 0;
    }));
}
