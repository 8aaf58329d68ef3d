import { describe, expect, it } from 'vitest';
import {
  CLIENT_MESSAGE_TYPES,
  MAX_TYPE_NAME_BYTES,
  MESSAGE_DIRECTION,
  MESSAGE_TYPES,
  MessageType,
  SERVER_MESSAGE_TYPES,
  isMessageType,
} from './message-types.js';

describe('message types', () => {
  it('lists the six types of game spec §7 and ACCESS_TOKEN, each named after its key', () => {
    expect([...MESSAGE_TYPES].sort()).toEqual(
      ['ACCESS_TOKEN', 'AUDIO_ANSWER', 'CARD_MODIFIER_NOTIFICATION', 'EQUIPMENT_FORGING', 'ERROR_MESSAGE', 'GAME_OUTPUT', 'USER_INPUT'],
    );
    for (const [key, value] of Object.entries(MessageType)) expect(key).toBe(value);
  });

  it('sends USER_INPUT and ACCESS_TOKEN to the server and everything else to clients', () => {
    expect(CLIENT_MESSAGE_TYPES).toEqual(['USER_INPUT', 'ACCESS_TOKEN']);
    expect(SERVER_MESSAGE_TYPES).toHaveLength(5);
    expect(MESSAGE_DIRECTION.USER_INPUT).toBe('client_to_server');
    expect(MESSAGE_DIRECTION.ACCESS_TOKEN).toBe('client_to_server');
    for (const t of SERVER_MESSAGE_TYPES) expect(MESSAGE_DIRECTION[t]).toBe('server_to_client');
  });

  it('keeps type names printable ASCII, which the decoder relies on', () => {
    for (const t of MESSAGE_TYPES) expect(t).toMatch(/^[A-Z_]+$/);
    expect(MAX_TYPE_NAME_BYTES).toBe('CARD_MODIFIER_NOTIFICATION'.length);
  });

  it('recognises only the exact names, not inherited object keys', () => {
    expect(isMessageType('GAME_OUTPUT')).toBe(true);
    expect(isMessageType('game_output')).toBe(false);
    expect(isMessageType('toString')).toBe(false);
    expect(isMessageType('__proto__')).toBe(false);
    expect(isMessageType('')).toBe(false);
  });
});
