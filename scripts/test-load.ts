// `npm run test:load` (run by CI), two runs of `looptale load`; each fails on any error, stall over 10 s, lost or
// doubled turn, and prints its report (with LOAD_JSON_DIR set, also as load.json and load-kill9.json there):
//   1. a real server in this process, 50 clients for 30 s with a 10% socket drop rate, sending the recorded clips of
//      fixtures/audio recognised offline (LOAD_AUDIO=0 sends text instead). Misheard lines get the character's
//      fallback reply, which is not an error.
//   2. kill -9: the load tool runs the server itself (--spawn-server) and kills it with SIGKILL every 10 s
//      (--kill-every), restarting it on the same port and data, while 20 clients play for 30 s: every player must
//      reconnect and replay, none may wait more than 10 s, and no acknowledged turn may be lost or counted twice.
// LOAD_CLIENTS, LOAD_DURATION, LOAD_KILL_CLIENTS, LOAD_KILL_EVERY, LOAD_STALL_S (10) change the figures.
// LOAD_STALLS=report (what CI sets) still counts and prints stalls but does not fail on them alone: a stall is a wait
// over a wall-clock threshold, a timing figure, and CI's shared 2-core machine is no place to assert one; errors,
// lost and doubled turns always fail, and so does a wait that reached the spec's 60 s pending-message timeout (the
// client gives the turn up: cli/load/verdict.ts).
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
// A text run measures the game server alone: no recogniser, no speech synthesis.
process.env.VOICE ??= wantAudio ? 'on' : 'off';

async function looptaleLoad(args: string[]): Promise<number> {
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [BIN, 'load', ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  if (code !== 1 || stallsFail) return code;
  // Failed: with LOAD_STALLS=report, a run whose only failure is stalls under the spec's 60 s pending timeout passes
  // (its report lists them).
  try {
    const v = reportOnlyVerdict(JSON.parse(readFileSync(args[args.indexOf('--json') + 1] ?? '', 'utf8')) as LoadReport);
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
process.stdout.write(`test:load 1/2: ${useAudio ? 'recorded audio' : 'text'} against ${server.url}, 10% socket drops\n`);
const first = await looptaleLoad(['--url', server.url, '--clients', process.env.LOAD_CLIENTS ?? '50', '--ramp', '5',
  '--duration', process.env.LOAD_DURATION ?? '30', '--think-time', '1', '--drop-rate', '0.1', '--stall-s', process.env.LOAD_STALL_S ?? '10', ...mode, '--json', join(jsonDir, 'load.json')]);
await server.close();
rmSync(dataDir, { recursive: true, force: true });

process.stdout.write(`\ntest:load 2/2: ${useAudio ? 'recorded audio' : 'text'}, the server killed with SIGKILL every ${process.env.LOAD_KILL_EVERY ?? '10'} s and restarted\n`);
const second = await looptaleLoad(['--spawn-server', '--kill-every', process.env.LOAD_KILL_EVERY ?? '10', '--clients', process.env.LOAD_KILL_CLIENTS ?? '20', '--ramp', '2',
  '--duration', process.env.LOAD_DURATION ?? '30', '--think-time', '1', '--drop-rate', '0.05', '--stall-s', process.env.LOAD_STALL_S ?? '10', ...mode, '--json', join(jsonDir, 'load-kill9.json')]);
process.stdout.write(`\ntest:load: ${first === 0 ? 'PASS' : 'FAIL'} (drops), ${second === 0 ? 'PASS' : 'FAIL'} (kill -9)\n`);
if (!process.env.LOAD_JSON_DIR) rmSync(jsonDir, { recursive: true, force: true });
process.exit(first || second);
