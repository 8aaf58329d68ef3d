// The realtime binary codec (game spec §7): `TYPE\0payload`. Encoding allocates one Uint8Array per frame; decoding
// validates with zod and never throws, whatever the bytes: failures come back as `{ ok: false, error }`.
import { type z } from 'zod';
import {
  type DecodeResult,
  describeJsonError,
  fail,
  type Failure,
  formatIssues,
  ProtocolErrorCode as E,
  showTypeName,
} from './errors.js';
import { checkJson, mayHoldBadTextEscape, showJsonPath } from '../schema/json-guard.js';
import {
  type AccessTokenFrame,
  type AudioAnswerFrame,
  type ClientFrame,
  type Frame,
  JSON_SCHEMAS,
  type ServerFrame,
  type UserInputFrame,
} from './frames.js';
import {
  type MessageType,
  MAX_TYPE_NAME_BYTES,
  MESSAGE_DIRECTION,
  MESSAGE_TYPES,
  type ServerMessageType,
  isMessageType,
} from './message-types.js';

/** Frames larger than this are refused before anything else is looked at. */
export const DEFAULT_MAX_FRAME_BYTES = 2 * 1024 * 1024;

export interface DecodeOptions {
  /** Largest accepted frame in bytes, type name included. Default 2 MiB. */
  maxBytes?: number;
}

const SEPARATOR = 0;
const encoder = new TextEncoder();
// fatal: invalid UTF-8 is an error, not U+FFFD. ignoreBOM: a leading U+FEFF stays part of the text.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `TYPE\0` for every type, encoded once. */
const PREFIX = Object.fromEntries(MESSAGE_TYPES.map((t) => [t, encoder.encode(`${t}\0`)])) as Record<
  MessageType,
  Uint8Array
>;

// ---------------------------------------------------------------------------------------------------------------
// Encoding

/**
 * Encodes a frame into one freshly allocated Uint8Array. The payload is not validated (its type is); only bugs
 * throw: an AUDIO_ANSWER with no audio, or a payload JSON.stringify refuses. A USER_INPUT whose `audio` is empty is
 * sent without audio. Strings with lone UTF-16 surrogates in an ERROR_MESSAGE arrive as U+FFFD.
 */
export function encodeFrame(frame: Frame): Uint8Array<ArrayBuffer> {
  switch (frame.type) {
    case 'USER_INPUT':
      return build(frame.type, JSON.stringify(frame.input), frame.audio);
    case 'ACCESS_TOKEN':
      return build(frame.type, JSON.stringify({ access_token: frame.accessToken }));
    case 'AUDIO_ANSWER':
      if (frame.audio.length === 0) {
        throw new RangeError('An AUDIO_ANSWER frame needs at least one byte of audio.');
      }
      return build(frame.type, JSON.stringify(frame.header), frame.audio);
    case 'GAME_OUTPUT':
      return build(frame.type, JSON.stringify(frame.output));
    case 'EQUIPMENT_FORGING':
    case 'CARD_MODIFIER_NOTIFICATION':
      return build(frame.type, JSON.stringify(frame.payload));
    case 'ERROR_MESSAGE':
      return build(frame.type, frame.message);
  }
}

function build(type: MessageType, text: string, audio?: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = PREFIX[type];
  const textBytes = utf8Length(text);
  const textEnd = prefix.length + textBytes;
  const hasAudio = audio !== undefined && audio.length > 0;
  const out = new Uint8Array(textEnd + (hasAudio ? 1 + audio.length : 0));
  out.set(prefix, 0);
  const { written } = encoder.encodeInto(text, out.subarray(prefix.length, textEnd));
  if (written !== textBytes) throw new Error(`utf8Length miscounted: ${textBytes} computed, ${written} written.`);
  if (hasAudio) {
    out[textEnd] = SEPARATOR;
    out.set(audio, textEnd + 1);
  }
  return out;
}

// Without the u flag this matches UTF-16 code units, so surrogates count as non-ASCII too.
const NON_ASCII = /[\u0080-\uffff]/;

/** Exact UTF-8 length of a string as TextEncoder writes it (a lone surrogate becomes the 3-byte U+FFFD). */
export function utf8Length(text: string): number {
  // JSON is mostly ASCII: a native regex scan finds the first other character far faster than a JS loop.
  const first = text.search(NON_ASCII);
  if (first === -1) return text.length;
  let n = first;
  for (let i = first; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

// ---------------------------------------------------------------------------------------------------------------
// Decoding

/**
 * Decodes a frame a client sent (run by the server). Server-bound types only; a server type is
 * 'protocol/wrong_direction'. Audio in the result is a view into `bytes`, not a copy.
 */
export function decodeClientFrame(bytes: Uint8Array | ArrayBuffer, opts?: DecodeOptions): DecodeResult<ClientFrame> {
  const head = readHead(bytes, opts);
  if (!head.ok) return head;
  if (head.type === 'ACCESS_TOKEN') return decodeAccessToken(head.view, head.start);
  if (head.type !== 'USER_INPUT') return wrongDirection(head.type, 'the server');
  return decodeUserInput(head.view, head.start);
}

/**
 * Decodes a frame the server sent (run by a client). Client types are 'protocol/wrong_direction'. Audio in the
 * result is a view into `bytes`, not a copy.
 */
export function decodeServerFrame(bytes: Uint8Array | ArrayBuffer, opts?: DecodeOptions): DecodeResult<ServerFrame> {
  const head = readHead(bytes, opts);
  if (!head.ok) return head;
  if (head.type === 'USER_INPUT' || head.type === 'ACCESS_TOKEN') return wrongDirection(head.type, 'a client');
  return decodeServerBody(head.type, head.view, head.start);
}

/** Decodes a frame of either direction: for tools that read recorded traffic, not for a live socket. */
export function decodeFrame(bytes: Uint8Array | ArrayBuffer, opts?: DecodeOptions): DecodeResult<Frame> {
  const head = readHead(bytes, opts);
  if (!head.ok) return head;
  if (head.type === 'USER_INPUT') return decodeUserInput(head.view, head.start);
  if (head.type === 'ACCESS_TOKEN') return decodeAccessToken(head.view, head.start);
  return decodeServerBody(head.type, head.view, head.start);
}

interface Head {
  ok: true;
  type: MessageType;
  view: Uint8Array;
  /** Index of the first payload byte. */
  start: number;
}

function readHead(bytes: unknown, opts: DecodeOptions | undefined): Head | Failure {
  const view = asBytes(bytes);
  if (view === undefined) {
    return fail(E.NOT_BINARY, `Expected a binary frame (Uint8Array or ArrayBuffer) but received ${describeValue(bytes)}.`);
  }
  const max = opts?.maxBytes ?? DEFAULT_MAX_FRAME_BYTES;
  if (view.length > max) {
    return fail(E.TOO_LARGE, `The frame is ${view.length} bytes, over the limit of ${max} bytes.`);
  }
  if (view.length === 0) {
    return fail(E.EMPTY, 'The frame is empty; expected a type name, a zero byte and a payload.');
  }
  const lead = view.subarray(0, MAX_TYPE_NAME_BYTES + 1);
  const sep = lead.indexOf(SEPARATOR);
  if (sep === -1) {
    return fail(
      E.MISSING_SEPARATOR,
      `The frame has no zero byte after a type name in its first ${lead.length} bytes; it starts with '${showTypeName(lead)}'.`,
    );
  }
  if (sep === 0) return fail(E.UNKNOWN_TYPE, 'The frame starts with a zero byte, so it has no message type.');
  const nameBytes = view.subarray(0, sep);
  const name = showTypeName(nameBytes);
  if (!isMessageType(name)) return fail(E.UNKNOWN_TYPE, `Unknown message type '${name}'.`);
  return { ok: true, type: name, view, start: sep + 1 };
}

function wrongDirection(type: MessageType, sentTo: string): Failure {
  const goes = MESSAGE_DIRECTION[type] === 'client_to_server' ? 'from a client to the server' : 'from the server to a client';
  return fail(E.WRONG_DIRECTION, `A ${type} message goes ${goes}, but this one was sent to ${sentTo}.`);
}

function decodeUserInput(view: Uint8Array, start: number): DecodeResult<UserInputFrame> {
  // JSON.stringify never writes a raw zero byte, so the first one after the type ends the JSON.
  const sep = view.indexOf(SEPARATOR, start);
  const jsonEnd = sep === -1 ? view.length : sep;
  if (sep !== -1 && sep + 1 === view.length) {
    return fail(E.EMPTY_AUDIO, 'The USER_INPUT frame has a zero byte after its JSON but no audio bytes after that.');
  }
  const input = parseJson('USER_INPUT', JSON_SCHEMAS.USER_INPUT, view, start, jsonEnd);
  if (!input.ok) return input;
  if (sep === -1) return { ok: true, frame: { type: 'USER_INPUT', input: input.value } };
  return { ok: true, frame: { type: 'USER_INPUT', input: input.value, audio: plainView(view, sep + 1, view.length) } };
}

function decodeAccessToken(view: Uint8Array, start: number): DecodeResult<AccessTokenFrame> {
  const r = parseJson('ACCESS_TOKEN', JSON_SCHEMAS.ACCESS_TOKEN, view, start, view.length);
  return r.ok ? { ok: true, frame: { type: 'ACCESS_TOKEN', accessToken: r.value.access_token } } : r;
}

function decodeAudioAnswer(view: Uint8Array, start: number): DecodeResult<AudioAnswerFrame> {
  const sep = view.indexOf(SEPARATOR, start);
  if (sep === -1) {
    return fail(E.MISSING_SEPARATOR, 'The AUDIO_ANSWER frame has no zero byte between its JSON header and its audio.');
  }
  if (sep + 1 === view.length) {
    return fail(E.EMPTY_AUDIO, 'The AUDIO_ANSWER frame has a JSON header but no audio bytes after it.');
  }
  const header = parseJson('AUDIO_ANSWER', JSON_SCHEMAS.AUDIO_ANSWER, view, start, sep);
  if (!header.ok) return header;
  return { ok: true, frame: { type: 'AUDIO_ANSWER', header: header.value, audio: plainView(view, sep + 1, view.length) } };
}

function decodeServerBody(type: ServerMessageType, view: Uint8Array, start: number): DecodeResult<ServerFrame> {
  switch (type) {
    case 'AUDIO_ANSWER':
      return decodeAudioAnswer(view, start);
    case 'GAME_OUTPUT': {
      const r = parseJson(type, JSON_SCHEMAS.GAME_OUTPUT, view, start, view.length);
      return r.ok ? { ok: true, frame: { type, output: r.value } } : r;
    }
    case 'EQUIPMENT_FORGING': {
      const r = parseJson(type, JSON_SCHEMAS.EQUIPMENT_FORGING, view, start, view.length);
      return r.ok ? { ok: true, frame: { type, payload: r.value } } : r;
    }
    case 'CARD_MODIFIER_NOTIFICATION': {
      const r = parseJson(type, JSON_SCHEMAS.CARD_MODIFIER_NOTIFICATION, view, start, view.length);
      return r.ok ? { ok: true, frame: { type, payload: r.value } } : r;
    }
    case 'ERROR_MESSAGE': {
      const r = utf8(type, view, start, view.length);
      return r.ok ? { ok: true, frame: { type, message: r.value } } : r;
    }
  }
}

type Parsed<T> = { ok: true; value: T } | Failure;

function utf8(type: MessageType, view: Uint8Array, start: number, end: number): Parsed<string> {
  try {
    return { ok: true, value: decoder.decode(view.subarray(start, end)) };
  } catch {
    return fail(E.BAD_UTF8, `The ${type} payload is not valid UTF-8.`);
  }
}

function parseJson<T>(type: MessageType, schema: z.ZodType<T>, view: Uint8Array, start: number, end: number): Parsed<T> {
  const what = type === 'AUDIO_ANSWER' ? 'AUDIO_ANSWER header' : `${type} payload`;
  if (start === end) return fail(E.BAD_JSON, `The ${what} is empty; expected JSON.`);
  const text = utf8(type, view, start, end);
  if (!text.ok) return text;
  let json: unknown;
  try {
    json = JSON.parse(text.value);
  } catch (err) {
    return fail(E.BAD_JSON, `The ${what} is not valid JSON: ${describeJsonError(err)}`);
  }
  // JSON may escape a lone surrogate ("\ud800") or NUL ("\u0000"): valid JSON, but no text store can hold it. Rare, so
  // only walk when the text has such an escape.
  if (mayHoldBadTextEscape(text.value)) {
    const bad = checkJson(json, { maxDepth: Number.MAX_SAFE_INTEGER });
    if (bad) return fail(E.INVALID_TEXT, `The ${what} has invalid text at ${showJsonPath(bad.path)}: it ${bad.message}.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    return fail(E.SCHEMA_MISMATCH, `The ${what} does not match its schema: ${formatIssues(parsed.error.issues)}.`);
  }
  return { ok: true, value: parsed.data };
}

/** Any binary input as a Uint8Array over the same memory; undefined for anything else (or a detached buffer). */
function asBytes(input: unknown): Uint8Array | undefined {
  try {
    if (input instanceof Uint8Array) return input;
    if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    // toString tag rather than instanceof, so buffers from another realm (worker, vm, jsdom) are accepted.
    if (Object.prototype.toString.call(input) === '[object ArrayBuffer]') return new Uint8Array(input as ArrayBuffer);
  } catch {
    return undefined;
  }
  return undefined;
}

/** A plain Uint8Array view (not a Buffer, even if the input was one) of view[start, end). */
function plainView(view: Uint8Array, start: number, end: number): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset + start, end - start);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (typeof value === 'object') return `an object (${Object.prototype.toString.call(value)})`;
  return `a value of type ${typeof value}`;
}
