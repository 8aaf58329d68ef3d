// The attacker of the mp3-stall probe, in its own process (masking and sending 2 MB frames must not slow the
// probe's own measurements): 2 sockets each send `frames` frames of the MP3 to the run, one every 200 ms (5 a second,
// under the per-socket message rate), then wait for the answers. Prints the errors they got back, as JSON.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { encodeFrame } from '../../engine/protocol/codec.js';
import { GameSocket } from '../../cli/lib/game-client.js';

const [url = '', token = '', runId = '', file = '', count = '50'] = process.argv.slice(2);
const frames = Number(count);
const audio = new Uint8Array(readFileSync(file));
const errors: string[] = [];
const sockets = await Promise.all([0, 1].map(() => GameSocket.connect(url, token)));
for (const s of sockets) {
  s.onUnsolicited = (kind, payload) => {
    if (kind === 'ERROR_MESSAGE') errors.push(String(payload));
  };
}
for (let i = 0; i < frames; i++) {
  for (const s of sockets) s.raw.send(encodeFrame({ type: 'USER_INPUT', input: { input_id: randomUUID(), player_story_id: runId, is_starting_dialogue: false, audio_format: 'mp3' }, audio }));
  await new Promise((r) => setTimeout(r, 200));
}
for (let i = 0; i < 600 && errors.length < frames * 2; i++) await new Promise((r) => setTimeout(r, 100));
for (const s of sockets) await s.close();
process.stdout.write(JSON.stringify(errors));
