import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_FRAME_BYTES,
  decodeClientFrame,
  decodeFrame,
  decodeServerFrame,
  encodeFrame,
  utf8Length,
} from './codec.js';
import { type DecodeResult, type ProtocolErrorCode } from './errors.js';
import { type Frame } from './frames.js';
import {
  sampleAudio,
  sampleAudioAnswerHeader,
  sampleCardModifierNotification,
  sampleEquipmentForging,
  sampleGameOutput,
  sampleUserInput,
} from './samples.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Concatenates text (UTF-8) and raw byte parts into one frame. */
function bytes(...parts: (string | Uint8Array | number[])[]): Uint8Array {
  const chunks = parts.map((p) => (typeof p === 'string' ? enc.encode(p) : Uint8Array.from(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function errorOf<F>(result: DecodeResult<F>): { code: ProtocolErrorCode; message: string } {
  if (result.ok) throw new Error(`expected a decode error, got a ${JSON.stringify(result.frame).slice(0, 80)} frame`);
  return result.error;
}

const userInputJson = JSON.stringify(sampleUserInput());
const headerJson = JSON.stringify(sampleAudioAnswerHeader());

const SAMPLE_FRAMES: Frame[] = [
  { type: 'USER_INPUT', input: sampleUserInput() },
  { type: 'USER_INPUT', input: sampleUserInput(), audio: sampleAudio(300) },
  { type: 'AUDIO_ANSWER', header: sampleAudioAnswerHeader(), audio: sampleAudio(1000) },
  { type: 'GAME_OUTPUT', output: sampleGameOutput() },
  { type: 'EQUIPMENT_FORGING', payload: sampleEquipmentForging() },
  { type: 'CARD_MODIFIER_NOTIFICATION', payload: sampleCardModifierNotification() },
  { type: 'ERROR_MESSAGE', message: 'The story could not be loaded. Réessayez plus tard 🙏' },
];

describe('encodeFrame', () => {
  it('writes TYPE, a zero byte, then the JSON payload', () => {
    const frame = encodeFrame({ type: 'GAME_OUTPUT', output: sampleGameOutput() });
    expect(dec.decode(frame)).toBe(`GAME_OUTPUT\0${JSON.stringify(sampleGameOutput())}`);
  });

  it('puts USER_INPUT audio after a second zero byte, and omits it when absent or empty', () => {
    const audio = Uint8Array.of(0, 1, 2, 255);
    expect(encodeFrame({ type: 'USER_INPUT', input: sampleUserInput(), audio })).toEqual(
      bytes(`USER_INPUT\0${userInputJson}\0`, audio),
    );
    expect(encodeFrame({ type: 'USER_INPUT', input: sampleUserInput() })).toEqual(bytes(`USER_INPUT\0${userInputJson}`));
    expect(encodeFrame({ type: 'USER_INPUT', input: sampleUserInput(), audio: new Uint8Array(0) })).toEqual(
      bytes(`USER_INPUT\0${userInputJson}`),
    );
  });

  it('writes ERROR_MESSAGE as raw UTF-8 text', () => {
    expect(encodeFrame({ type: 'ERROR_MESSAGE', message: 'Échec ✓' })).toEqual(bytes('ERROR_MESSAGE\0Échec ✓'));
  });

  it('allocates exactly one buffer of the frame size', () => {
    for (const frame of SAMPLE_FRAMES) {
      const out = encodeFrame(frame);
      expect(out.byteOffset).toBe(0);
      expect(out.buffer.byteLength).toBe(out.byteLength);
    }
  });

  it('throws on an AUDIO_ANSWER without audio, which is a caller bug', () => {
    expect(() => encodeFrame({ type: 'AUDIO_ANSWER', header: sampleAudioAnswerHeader(), audio: new Uint8Array(0) }))
      .toThrow(RangeError);
  });

  it('counts UTF-8 bytes as TextEncoder writes them', () => {
    for (const s of ['', 'abc', 'é', '€', '😀', '\ud800', '\udc00x', 'a\ud83d', '\ud83d\ude00\ud83d']) {
      expect(utf8Length(s)).toBe(enc.encode(s).length);
    }
  });
});

describe('decoding valid frames', () => {
  it.each(SAMPLE_FRAMES.map((f) => [f.type, f] as const))('round-trips a sample %s', (_type, frame) => {
    const decoded = decodeFrame(encodeFrame(frame));
    expect(decoded).toEqual({ ok: true, frame });
  });

  it('decodes client frames with decodeClientFrame and server frames with decodeServerFrame', () => {
    for (const frame of SAMPLE_FRAMES) {
      const wire = encodeFrame(frame);
      const result = frame.type === 'USER_INPUT' ? decodeClientFrame(wire) : decodeServerFrame(wire);
      expect(result).toEqual({ ok: true, frame });
    }
  });

  it('accepts an ArrayBuffer, a Node Buffer and a DataView, returning plain Uint8Array audio', () => {
    const wire = encodeFrame(SAMPLE_FRAMES[2] as Frame);
    const padded = new Uint8Array(wire.length + 8);
    padded.set(wire, 4);
    const inputs = [
      wire.buffer,
      Buffer.from(wire),
      new DataView(padded.buffer, 4, wire.length),
      padded.subarray(4, 4 + wire.length),
    ];
    for (const input of inputs) {
      const r = decodeServerFrame(input as Uint8Array);
      expect(r.ok && r.frame.type === 'AUDIO_ANSWER' && r.frame.audio.constructor).toBe(Uint8Array);
      expect(r).toEqual({ ok: true, frame: SAMPLE_FRAMES[2] });
    }
  });

  it('returns audio as a view over the input bytes, without copying', () => {
    const wire = encodeFrame({ type: 'USER_INPUT', input: sampleUserInput(), audio: Uint8Array.of(1, 2, 3) });
    const r = decodeClientFrame(wire);
    if (!r.ok || r.frame.type !== 'USER_INPUT') throw new Error(r.ok ? r.frame.type : r.error.message);
    expect(r.frame.audio?.buffer).toBe(wire.buffer);
    wire[wire.length - 1] = 9;
    expect(r.frame.audio).toEqual(Uint8Array.of(1, 2, 9));
  });

  it('strips unknown keys from JSON payloads', () => {
    const json = JSON.stringify({ ...sampleEquipmentForging(), debug: true });
    expect(decodeServerFrame(bytes(`EQUIPMENT_FORGING\0${json}`))).toEqual({
      ok: true, frame: { type: 'EQUIPMENT_FORGING', payload: sampleEquipmentForging() },
    });
  });

  it('accepts an empty ERROR_MESSAGE and keeps zero bytes and a leading BOM inside its text', () => {
    expect(decodeServerFrame(bytes('ERROR_MESSAGE\0'))).toEqual({ ok: true, frame: { type: 'ERROR_MESSAGE', message: '' } });
    expect(decodeServerFrame(bytes('ERROR_MESSAGE\0\ufeffa\0b'))).toEqual({
      ok: true, frame: { type: 'ERROR_MESSAGE', message: '\ufeffa\0b' },
    });
  });
});

describe('decode errors', () => {
  const cases: [ProtocolErrorCode, string, () => DecodeResult<unknown>, RegExp][] = [
    ['protocol/too_large', 'a frame over 2 MiB', () => decodeClientFrame(new Uint8Array(DEFAULT_MAX_FRAME_BYTES + 1)),
      /^The frame is 2097153 bytes, over the limit of 2097152 bytes\.$/],
    ['protocol/too_large', 'a frame over opts.maxBytes', () => decodeServerFrame(bytes('ERROR_MESSAGE\0hello'), { maxBytes: 10 }),
      /over the limit of 10 bytes/],
    ['protocol/not_binary', 'a string', () => decodeClientFrame('USER_INPUT\0{}' as unknown as Uint8Array),
      /^Expected a binary frame \(Uint8Array or ArrayBuffer\) but received a string of 13 characters\.$/],
    ['protocol/not_binary', 'null', () => decodeServerFrame(null as unknown as Uint8Array), /received null\./],
    ['protocol/empty', 'zero bytes', () => decodeClientFrame(new Uint8Array(0)), /^The frame is empty/],
    ['protocol/empty', 'an empty ArrayBuffer', () => decodeServerFrame(new ArrayBuffer(0)), /^The frame is empty/],
    ['protocol/missing_separator', 'a bare type name', () => decodeServerFrame(bytes('GAME_OUTPUT')),
      /no zero byte after a type name in its first 11 bytes; it starts with 'GAME_OUTPUT'\./],
    ['protocol/missing_separator', 'a JSON text frame', () => decodeClientFrame(bytes('{"type":"USER_INPUT","input":{}}')),
      /in its first 27 bytes; it starts with '\{"type":"USER_INPUT","input'\./],
    ['protocol/missing_separator', 'an AUDIO_ANSWER without audio separator', () => decodeServerFrame(bytes(`AUDIO_ANSWER\0${headerJson}`)),
      /^The AUDIO_ANSWER frame has no zero byte between its JSON header and its audio\.$/],
    ['protocol/unknown_type', 'FOO', () => decodeServerFrame(bytes('FOO\0{}')), /^Unknown message type 'FOO'\.$/],
    ['protocol/unknown_type', 'a lower-case name', () => decodeClientFrame(bytes('user_input\0{}')), /'user_input'/],
    ['protocol/unknown_type', 'binary bytes', () => decodeClientFrame(bytes([0xff, 0x27, 0x41, 0], '{}')), /'\\xff\\x27A'/],
    ['protocol/unknown_type', 'a leading zero byte', () => decodeClientFrame(bytes([0], '{}')),
      /^The frame starts with a zero byte, so it has no message type\.$/],
    ['protocol/wrong_direction', 'GAME_OUTPUT sent to the server', () => decodeClientFrame(encodeFrame(SAMPLE_FRAMES[3] as Frame)),
      /^A GAME_OUTPUT message goes from the server to a client, but this one was sent to the server\.$/],
    ['protocol/wrong_direction', 'USER_INPUT sent to a client', () => decodeServerFrame(encodeFrame(SAMPLE_FRAMES[0] as Frame)),
      /^A USER_INPUT message goes from a client to the server, but this one was sent to a client\.$/],
    ['protocol/bad_utf8', 'a lone 0xff', () => decodeServerFrame(bytes('ERROR_MESSAGE\0', [0x61, 0xff])),
      /^The ERROR_MESSAGE payload is not valid UTF-8\.$/],
    ['protocol/bad_utf8', 'a truncated sequence in JSON', () => decodeServerFrame(bytes('GAME_OUTPUT\0"', [0xc3], '"')),
      /GAME_OUTPUT payload is not valid UTF-8/],
    ['protocol/bad_json', 'truncated JSON', () => decodeServerFrame(bytes('GAME_OUTPUT\0{"dialogue":')),
      /^The GAME_OUTPUT payload is not valid JSON: .+\.$/],
    ['protocol/bad_json', 'no JSON at all', () => decodeClientFrame(bytes('USER_INPUT\0')),
      /^The USER_INPUT payload is empty; expected JSON\.$/],
    ['protocol/bad_json', 'a bad AUDIO_ANSWER header', () => decodeServerFrame(bytes('AUDIO_ANSWER\0{oops}\0', [1, 2])),
      /^The AUDIO_ANSWER header is not valid JSON/],
    ['protocol/schema_mismatch', 'USER_INPUT without ids', () => decodeClientFrame(bytes('USER_INPUT\0{"is_starting_dialogue":true}')),
      /^The USER_INPUT payload does not match its schema: input_id: .+; player_story_id: .+\.$/],
    ['protocol/schema_mismatch', 'JSON null', () => decodeServerFrame(bytes('CARD_MODIFIER_NOTIFICATION\0null')),
      /^The CARD_MODIFIER_NOTIFICATION payload does not match its schema: \(root\): /],
    ['protocol/schema_mismatch', 'a bad nested field', () => decodeServerFrame(bytes('GAME_OUTPUT\0', JSON.stringify({
      ...sampleGameOutput(), score: 101,
      player_characters: [{ ...sampleGameOutput().player_characters[0], character_name: 7 }],
    }))), /: player_characters\[0\]\.character_name: .*expected string, received number; score: .*<=100\.$/],
    ['protocol/schema_mismatch', 'many issues', () => decodeServerFrame(bytes('GAME_OUTPUT\0{}')),
      /; and \d+ more issues\.$/],
    ['protocol/schema_mismatch', 'a non-UUID AUDIO_ANSWER header', () => decodeServerFrame(bytes('AUDIO_ANSWER\0', JSON.stringify({
      ...sampleAudioAnswerHeader(), input_id: 'x' }), '\0', [1])), /^The AUDIO_ANSWER header does not match its schema: input_id: must be a version-4 UUID\.$/],
    ['protocol/invalid_text', 'a lone surrogate escape in USER_INPUT', () => decodeClientFrame(bytes('USER_INPUT\0', JSON.stringify({
      ...sampleUserInput(), transcription: 'Was it \udc00 a ghost?' }))),
    /^The USER_INPUT payload has invalid text at transcription: it contains an unpaired UTF-16 surrogate \(\\udc00\): text must be valid Unicode\.$/],
    ['protocol/invalid_text', 'a NUL escape in USER_INPUT', () => decodeClientFrame(bytes('USER_INPUT\0', JSON.stringify({ ...sampleUserInput(), transcription: '\0' }))),
      /^The USER_INPUT payload has invalid text at transcription: it contains U\+0000 \(NUL\), which text cannot hold\.$/],
    ['protocol/empty_audio', 'USER_INPUT with a trailing zero byte', () => decodeClientFrame(bytes(`USER_INPUT\0${userInputJson}\0`)),
      /^The USER_INPUT frame has a zero byte after its JSON but no audio bytes after that\.$/],
    ['protocol/empty_audio', 'AUDIO_ANSWER with no audio', () => decodeServerFrame(bytes(`AUDIO_ANSWER\0${headerJson}\0`)),
      /^The AUDIO_ANSWER frame has a JSON header but no audio bytes after it\.$/],
  ];

  it.each(cases)('%s for %s', (code, _what, run, message) => {
    const error = errorOf(run());
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/^[A-Z].*\.$/s);
  });

  it('checks the size before anything else', () => {
    expect(errorOf(decodeServerFrame(new Uint8Array(50), { maxBytes: 49 })).code).toBe('protocol/too_large');
    expect(errorOf(decodeServerFrame(new Uint8Array(50), { maxBytes: 50 })).code).toBe('protocol/unknown_type');
  });

  it('accepts a frame of exactly the size limit', () => {
    const prefix = bytes(`USER_INPUT\0${userInputJson}\0`);
    const wire = bytes(prefix, sampleAudio(DEFAULT_MAX_FRAME_BYTES - prefix.length));
    expect(wire.length).toBe(DEFAULT_MAX_FRAME_BYTES);
    expect(decodeClientFrame(wire).ok).toBe(true);
  });
});
