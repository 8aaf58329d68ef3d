// The browser-safe GameSocket over an in-memory WHATWG-style socket (a browser WebSocket's shape) on a simulated clock.
import { describe, expect, it } from 'vitest';
import { decodeClientFrame, encodeFrame } from '../../protocol/codec.js';
import { sampleGameOutput } from '../../protocol/samples.js';
import { SimulatedClock } from '../timers.js';
import { GameSocket, type SocketLike } from './socket.js';

type Listener = (ev: never) => void;

class MemorySocket implements SocketLike {
  binaryType = 'blob';
  readyState = 1;
  sent: Uint8Array[] = [];
  #listeners = new Map<string, Listener[]>();
  addEventListener(type: string, listener: Listener): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  emit(type: string, ev: unknown): void {
    for (const l of this.#listeners.get(type) ?? []) (l as (e: unknown) => void)(ev);
  }
  send(data: Uint8Array | string): void {
    if (typeof data !== 'string') this.sent.push(data);
  }
  close(code = 1000): void {
    this.readyState = 3;
    this.emit('close', { code, reason: '' });
  }
}

describe('GameSocket (browser-safe)', () => {
  it('asks a browser socket for ArrayBuffers, gathers a turn, and gives a known ERROR_MESSAGE its code', async () => {
    const ws = new MemorySocket();
    const clock = new SimulatedClock();
    let n = 0;
    const socket = new GameSocket(ws, { clock, newId: () => `00000000-0000-4000-8000-00000000000${++n}` });
    expect(ws.binaryType).toBe('arraybuffer');
    const turn = socket.send({ player_story_id: sampleGameOutput().player_story_id, is_starting_dialogue: false, transcription: 'hi' });
    const sent = decodeClientFrame(ws.sent[0]!);
    expect(sent.ok && sent.frame.type === 'USER_INPUT' && sent.frame.input.input_id).toBe('00000000-0000-4000-8000-000000000001');
    const out = { ...sampleGameOutput(), input_id: '00000000-0000-4000-8000-000000000001', battle_state_next_phase: '' as const };
    ws.emit('message', { data: encodeFrame({ type: 'GAME_OUTPUT', output: out }).buffer });
    clock.advance(30);
    const r = await turn;
    expect(r.outputs).toHaveLength(1);
    expect(r.error).toBeNull();

    const miss = socket.send({ player_story_id: out.player_story_id, is_starting_dialogue: false, audio_format: 'mp3' }, new Uint8Array([1]));
    ws.emit('message', { data: encodeFrame({ type: 'ERROR_MESSAGE', message: "Sorry, I didn't catch that." }) });
    clock.advance(0);
    expect(await miss).toMatchObject({ error: "Sorry, I didn't catch that.", errorCode: 'stt/not_caught' });
  });

  it('settles a turn in flight when the socket closes, and times out on the clock', async () => {
    const ws = new MemorySocket();
    const clock = new SimulatedClock();
    const socket = new GameSocket(ws, { clock, newId: () => 'id' });
    const closed: number[] = [];
    socket.onClose = (i) => closed.push(i.code);
    const slow = socket.send({ player_story_id: 'p', is_starting_dialogue: true }, undefined, 1000);
    clock.advance(1000);
    expect((await slow).error).toBe('no answer within 1000 ms');
    const cut = socket.send({ player_story_id: 'p', is_starting_dialogue: true });
    ws.close(1006);
    expect((await cut).error).toBe('connection closed (1006)');
    expect(closed).toEqual([1006]);
  });
});
