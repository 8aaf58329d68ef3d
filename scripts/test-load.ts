// `npm run test:load` (run by CI): a real server, then `looptale load` with 50 clients for 30 s and a 10% drop rate,
// with the recorded clips of fixtures/audio recognised offline (LOAD_AUDIO=0 sends text instead). Fails on any error,
// lost or doubled turn; prints the report. Misheard lines get the character's fallback reply, which is not an error.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/log.js';
import { startServer } from '../server/main.js';

const root = join(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'looptale-load-'));
const wantAudio = process.env.LOAD_AUDIO !== '0';
// A text run measures the game server alone: no recogniser, no speech synthesis.
process.env.VOICE ??= wantAudio ? 'on' : 'off';
const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_SCALE: '100', HTTP_RATE_LIMIT: '100000', STORIES_DIR: join(root, 'fixtures/stories') });
const server = await startServer(config, createLogger('warn'));
const audioDir = join(root, 'fixtures/audio/lantern-keeper/en');
const useAudio = wantAudio && existsSync(audioDir) && existsSync('/usr/bin/pocketsphinx_continuous') && server.services.transcriber.name !== 'none';
const args = [join(root, 'bin/looptale.js'), 'load', '--url', server.url, '--clients', process.env.LOAD_CLIENTS ?? '50', '--ramp', '5',
  '--duration', process.env.LOAD_DURATION ?? '30', '--think-time', '1', '--drop-rate', '0.1', ...(useAudio ? ['--audio', audioDir] : ['--text'])];
process.stdout.write(`test:load: ${useAudio ? 'recorded audio' : 'text'} against ${server.url}\n`);
const code = await new Promise<number>((resolve) => {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (c) => resolve(c ?? 1));
});
await server.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(code);
