// Barge-in in the browser (game spec §4: "player speech during game speech skips the current audio"): while a reply
// plays, the microphone is listened to — with the browser's echo cancellation ON, so the game's own voice coming out
// of the speakers is not taken for the player's — and two non-silent 4096-sample blocks in a row (RMS >= 0.01, the
// silence rule's threshold; about 190 ms at 44.1 kHz) count as the player talking over it. Only once the player has
// recorded in this game (the permission is granted; the browser never asks for it here) and only while GAME_SPEAKING.
import { isSilent, SILENCE_BLOCK_SAMPLES } from '../../../../engine/client/silence.js';

export const BARGE_IN_BLOCKS = 2;
const LISTEN_CONSTRAINTS: MediaTrackConstraints = { echoCancellation: true, noiseSuppression: true, autoGainControl: false, channelCount: 1 };

type Listening = { ctx: AudioContext; stream: MediaStream | null; nodes: AudioNode[]; closed: boolean };

export class BargeIn {
  #live: Listening | null = null;

  constructor(readonly onSpeech: () => void) {}

  get listening(): boolean {
    return this.#live !== null;
  }

  /** Starts listening (no-op when already listening or the browser cannot). */
  start(): void {
    if (this.#live) return;
    const w = window as unknown as { AudioContext?: typeof AudioContext };
    if (!w.AudioContext || typeof navigator.mediaDevices?.getUserMedia !== 'function') return;
    let ctx: AudioContext;
    try {
      ctx = new w.AudioContext();
    } catch {
      return;
    }
    const live: Listening = { ctx, stream: null, nodes: [], closed: false };
    this.#live = live;
    void navigator.mediaDevices.getUserMedia({ audio: LISTEN_CONSTRAINTS }).then((stream) => {
      live.stream = stream;
      if (live.closed) {
        this.#close(live);
        return;
      }
      if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
      const source = ctx.createMediaStreamSource(stream);
      const proc = ctx.createScriptProcessor(SILENCE_BLOCK_SAMPLES, 1, 1);
      let loud = 0;
      proc.onaudioprocess = (e) => {
        if (live.closed) return;
        loud = isSilent(e.inputBuffer.getChannelData(0)) ? 0 : loud + 1;
        if (loud >= BARGE_IN_BLOCKS) {
          this.stop();
          this.onSpeech();
        }
      };
      source.connect(proc);
      proc.connect(ctx.destination);
      live.nodes = [source, proc];
    }, () => this.stop());
  }

  stop(): void {
    const live = this.#live;
    this.#live = null;
    if (live) this.#close(live);
  }

  #close(live: Listening): void {
    live.closed = true;
    for (const n of live.nodes) n.disconnect();
    for (const t of live.stream?.getTracks() ?? []) t.stop();
    void live.ctx.close().catch(() => undefined);
  }
}
