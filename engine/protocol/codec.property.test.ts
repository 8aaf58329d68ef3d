// Properties of the codec. A failure prints its seed and path: keep it as a unit case in codec.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clientFrameArb,
  frameArb,
  gameOutputArb,
  serverFrameArb,
  userInputArb,
  wellFormedTextArb,
} from './arbitraries.js';
import {
  DEFAULT_MAX_FRAME_BYTES, decodeClientFrame, decodeFrame, decodeServerFrame, encodeFrame, utf8Length,
} from './codec.js';
import { ProtocolErrorCode } from './errors.js';
import { MESSAGE_TYPES } from './message-types.js';
import { UserInput } from './user-input.js';
import { GameOutput } from '../schema/game-output.js';

const enc = new TextEncoder();
const KNOWN_CODES = new Set<string>(Object.values(ProtocolErrorCode));
const decoders = [decodeClientFrame, decodeServerFrame, decodeFrame] as const;

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Runs every decoder; each must return a result (never throw) and every error must carry a known code. */
function decodeAll(bytes: Uint8Array): void {
  for (const decode of decoders) {
    const r = decode(bytes);
    if (!r.ok) {
      expect(KNOWN_CODES.has(r.error.code)).toBe(true);
      expect(r.error.message.length).toBeGreaterThan(0);
    }
  }
}

describe('round trip: decode(encode(frame)) equals frame', () => {
  it('for client frames, through decodeClientFrame', () => {
    fc.assert(fc.property(clientFrameArb, (frame) => {
      expect(decodeClientFrame(encodeFrame(frame))).toEqual({ ok: true, frame });
    }), { numRuns: 300 });
  });

  it('for server frames, through decodeServerFrame', () => {
    fc.assert(fc.property(serverFrameArb, (frame) => {
      expect(decodeServerFrame(encodeFrame(frame))).toEqual({ ok: true, frame });
    }), { numRuns: 300 });
  });

  it('for every frame type, through decodeFrame, also from an ArrayBuffer', () => {
    fc.assert(fc.property(frameArb, (frame) => {
      const wire = encodeFrame(frame);
      expect(decodeFrame(wire.buffer)).toEqual({ ok: true, frame });
    }), { numRuns: 200 });
  });

  it('with the wrong decoder, fails with protocol/wrong_direction only', () => {
    fc.assert(fc.property(frameArb, (frame) => {
      const wire = encodeFrame(frame);
      const r = frame.type === 'USER_INPUT' || frame.type === 'ACCESS_TOKEN' ? decodeServerFrame(wire) : decodeClientFrame(wire);
      expect(r.ok ? 'ok' : r.error.code).toBe('protocol/wrong_direction');
    }), { numRuns: 100 });
  });
});

describe('decode never throws', () => {
  it('on arbitrary bytes of any length', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 4096 }), decodeAll), { numRuns: 2000 });
    fc.assert(fc.property(fc.uint8Array({ minLength: 1, maxLength: 200_000, size: 'max' }), decodeAll), { numRuns: 20 });
  });

  it('on arbitrary ArrayBuffers, including offset views into them', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 512 }), fc.nat(16), (bytes, cut) => {
      decodeAll(new Uint8Array(bytes.buffer, Math.min(cut, bytes.length)));
      for (const decode of decoders) expect(() => decode(bytes.buffer)).not.toThrow();
    }));
  });

  it('on TYPE\\0 followed by garbage, for each known type', () => {
    const garbage = fc.oneof(
      fc.uint8Array({ maxLength: 2048 }),
      fc.string({ unit: 'binary' }).map((s) => enc.encode(s)),
      fc.json().map((s) => enc.encode(s)),
      fc.tuple(fc.json(), fc.uint8Array({ maxLength: 64 })).map(([j, a]) => concat(enc.encode(j), Uint8Array.of(0), a)),
    );
    fc.assert(fc.property(fc.constantFrom(...MESSAGE_TYPES), garbage, (type, body) => {
      decodeAll(concat(enc.encode(`${type}\0`), body));
    }), { numRuns: 2000 });
  });

  it('on valid JSON values of the wrong shape, returning schema_mismatch or a structural error', () => {
    fc.assert(fc.property(fc.constantFrom(...MESSAGE_TYPES), fc.jsonValue(), (type, value) => {
      const body = JSON.stringify(value);
      decodeAll(enc.encode(`${type}\0${body}`));
    }), { numRuns: 1000 });
  });

  it('on valid frames with one byte flipped or the frame cut short', () => {
    fc.assert(fc.property(frameArb, fc.nat(), fc.integer({ min: 1, max: 255 }), (frame, at, xor) => {
      const wire = encodeFrame(frame);
      const i = at % wire.length;
      decodeAll(wire.subarray(0, i));
      const flipped = wire.slice();
      flipped[i] = (flipped[i] ?? 0) ^ xor;
      decodeAll(flipped);
    }), { numRuns: 500 });
  });
});

describe('size cap', () => {
  it('rejects any frame over opts.maxBytes with protocol/too_large, and accepts it at the limit', () => {
    fc.assert(fc.property(frameArb, fc.integer({ min: 1, max: 64 }), (frame, over) => {
      const wire = encodeFrame(frame);
      for (const decode of decoders) {
        const r = decode(wire, { maxBytes: Math.max(0, wire.length - over) });
        expect(r.ok ? 'ok' : r.error.code).toBe('protocol/too_large');
      }
      expect(decodeFrame(wire, { maxBytes: wire.length }).ok).toBe(true);
    }), { numRuns: 300 });
  });

  it('rejects anything over the 2 MiB default, whatever its content', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4096 }), fc.uint8Array({ maxLength: 64 }), (extra, head) => {
      const big = new Uint8Array(DEFAULT_MAX_FRAME_BYTES + extra);
      big.set(head, 0);
      for (const decode of decoders) {
        const r = decode(big);
        expect(r.ok ? 'ok' : r.error.code).toBe('protocol/too_large');
      }
    }), { numRuns: 30 });
  });
});

describe('utf8Length', () => {
  it('equals the length TextEncoder writes, lone surrogates included', () => {
    const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string());
    fc.assert(fc.property(text, text, (a, b) => {
      expect(utf8Length(a + b)).toBe(enc.encode(a + b).length);
    }), { numRuns: 1000 });
  });
});

describe('the shared arbitraries', () => {
  it('generate values their schemas accept unchanged', () => {
    fc.assert(fc.property(gameOutputArb, userInputArb, (output, input) => {
      expect(GameOutput.parse(output)).toEqual(output);
      expect(UserInput.parse(input)).toEqual(input);
    }), { numRuns: 200 });
  });

  it('include error messages that survive raw UTF-8 unchanged', () => {
    fc.assert(fc.property(wellFormedTextArb, (message) => {
      expect(decodeServerFrame(encodeFrame({ type: 'ERROR_MESSAGE', message }))).toEqual({
        ok: true, frame: { type: 'ERROR_MESSAGE', message },
      });
    }));
  });
});
