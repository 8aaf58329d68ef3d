// `npm run test:load` (run by CI), three runs of `looptale load`, each printing its report (with LOAD_JSON_DIR set,
// also as load.json, load-capacity.json and load-kill9.json there). Players keep a person's pace (--pace player: a
// recorded line takes as long to send as to say, and a reply's speech is heard out before the next line) except in
// the capacity run.
//   1. drops: a real server in this process, 50 players for 30 s with a 10% socket drop rate, sending the recorded
//      clips of fixtures/audio recognised offline (LOAD_AUDIO=0 sends text instead). Misheard lines get the
//      character's fallback reply, which is not an error.
//   2. capacity: the same, flat out (--pace flat-out: the next line a think time after each reply's text, while the
//      reply is still being spoken), which offers more recognition than 2 cores do: its waits measure the queue.
//   3. kill -9: the load tool runs the server itself (--spawn-server) and kills it with SIGKILL every 10 s
//      (--kill-every), restarting it on the same port and data, while 20 players play for 30 s: every player must
//      reconnect and replay, none may wait more than 10 s, and no acknowledged turn may be lost or counted twice.
// Every run fails on an error or a lost or doubled turn. Runs 1 and 3 also fail on any stall (a wait over 10 s for an
// answer); run 2's waits are printed, not failed on, however long: flat out, the closed loop of players offers more
// than the machine serves, and its waits are the capacity figure (LOAD_CAPACITY=0 skips it).
// LOAD_STALLS=report (for a machine known to be busy; CI does not set it) prints the stalls of runs 1 and 3 instead
// of failing on them, except a wait that reached the spec's 60 s pending-message timeout (the client
// gives the turn up: cli/load/verdict.ts); LOAD_KILL_STALLS=report does so for the kill -9 run only.
// LOAD_CLIENTS, LOAD_DURATION, LOAD_KILL_CLIENTS, LOAD_KILL_EVERY, LOAD_STALL_S (10) change the figures.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadReport } from '../cli/load/runner.js';
import { reportOnlyVerdict } from '../cli/load/verdict.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/log.js';
import { startServer } from '../server/main.js';

const root = join(import.meta.dirname, '..');
const BIN = join(root, 'bin/looptale.js');
const dataDir = mkdtempSync(join(tmpdir(), 'looptale-load-'));
const wantAudio = process.env.LOAD_AUDIO !== '0';
const jsonDir = process.env.LOAD_JSON_DIR ?? mkdtempSync(join(tmpdir(), 'looptale-load-json-'));
const stallsFail = process.env.LOAD_STALLS !== 'report';
const killStallsFail = stallsFail && process.env.LOAD_KILL_STALLS !== 'report';
// A text run measures the game server alone: no recogniser, no speech synthesis.
process.env.VOICE ??= wantAudio ? 'on' : 'off';

/** `stalls`: 'fail' on any; 'report' them unless one reached the 60 s pending timeout; 'capacity': report them all. */
async function looptaleLoad(args: string[], stalls: 'fail' | 'report' | 'capacity'): Promise<number> {
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [BIN, 'load', ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  if (code !== 1 || stalls === 'fail') return code;
  // Failed: where stalls are only reported, a run whose only failure is stalls under the spec's 60 s pending timeout
  // passes (its report lists them).
  try {
    const v = reportOnlyVerdict(JSON.parse(readFileSync(args[args.indexOf('--json') + 1] ?? '', 'utf8')) as LoadReport, { capacity: stalls === 'capacity' });
    if (v.note) process.stdout.write(`${v.note}\n`);
    return v.pass ? 0 : code;
  } catch {
    return code;
  }
}

const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_SCALE: '100', HTTP_RATE_LIMIT: '100000', STORIES_DIR: join(root, 'fixtures/stories') });
const server = await startServer(config, createLogger('warn'));
const audioDir = join(root, 'fixtures/audio/lantern-keeper/en');
const useAudio = wantAudio && existsSync(audioDir) && existsSync('/usr/bin/pocketsphinx_continuous') && server.services.transcriber.name !== 'none';
const mode = useAudio ? ['--audio', audioDir] : ['--text'];
const drops = (pace: string, json: string): string[] => ['--url', server.url, '--clients', process.env.LOAD_CLIENTS ?? '50', '--ramp', '5',
  '--duration', process.env.LOAD_DURATION ?? '30', '--think-time', '1', '--drop-rate', '0.1', '--stall-s', process.env.LOAD_STALL_S ?? '10', '--pace', pace, ...mode, '--json', join(jsonDir, json)];
const capacity = process.env.LOAD_CAPACITY !== '0';
const total = capacity ? 3 : 2;
process.stdout.write(`test:load 1/${total}: ${useAudio ? 'recorded audio' : 'text'} against ${server.url}, 10% socket drops, players at a person's pace\n`);
const first = await looptaleLoad(drops('player', 'load.json'), stallsFail ? 'fail' : 'report');
let second = 0;
if (capacity) {
  process.stdout.write(`\ntest:load 2/${total}: capacity: the same flat out (each next line a think time after the reply's text); stalls reported, not failed on\n`);
  second = await looptaleLoad(drops('flat-out', 'load-capacity.json'), 'capacity');
}
await server.close();
rmSync(dataDir, { recursive: true, force: true });

process.stdout.write(`\ntest:load ${total}/${total}: ${useAudio ? 'recorded audio' : 'text'}, the server killed with SIGKILL every ${process.env.LOAD_KILL_EVERY ?? '10'} s and restarted, players at a person's pace\n`);
const third = await looptaleLoad(['--spawn-server', '--kill-every', process.env.LOAD_KILL_EVERY ?? '10', '--clients', process.env.LOAD_KILL_CLIENTS ?? '20', '--ramp', '2',
  '--duration', process.env.LOAD_DURATION ?? '30', '--think-time', '1', '--drop-rate', '0.05', '--stall-s', process.env.LOAD_STALL_S ?? '10', ...mode, '--json', join(jsonDir, 'load-kill9.json')], killStallsFail ? 'fail' : 'report');
const verdict = (code: number): string => (code === 0 ? 'PASS' : 'FAIL');
const reported = (fails: boolean): string => (fails ? '' : ', stalls reported');
process.stdout.write(`\ntest:load: ${verdict(first)} (drops${reported(stallsFail)}), ${capacity ? `${verdict(second)} (capacity, stalls reported), ` : ''}${verdict(third)} (kill -9${reported(killStallsFail)})\n`);
if (!process.env.LOAD_JSON_DIR) rmSync(jsonDir, { recursive: true, force: true });
process.exit(first || second || third);
