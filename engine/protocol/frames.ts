// The decoded form of every realtime frame: a discriminated union on `type`, one member per message type.
import { z } from 'zod';
import { EquipmentForging, GameOutput } from '../schema/game-output.js';
import { UuidV4 } from '../schema/ids.js';
import { CardModifierNotification } from '../schema/notification.js';
import { type ClientMessageType, type MessageType, type ServerMessageType } from './message-types.js';
import { UserInput } from './user-input.js';

/** The JSON header in front of the MP3 bytes of an AUDIO_ANSWER frame. */
export const AudioAnswerHeader = z.object({
  player_moment_id: UuidV4,
  is_starting_dialogue: z.boolean(),
  /** The USER_INPUT this audio answers. */
  input_id: UuidV4,
});
export type AudioAnswerHeader = z.infer<typeof AudioAnswerHeader>;

export interface UserInputFrame {
  type: 'USER_INPUT';
  input: UserInput;
  /** Recorded audio in `input.audio_format`; absent when the client sends text or starts a moment. */
  audio?: Uint8Array;
}

/** The JSON of an ACCESS_TOKEN frame: a fresh access token for the socket's user. */
export const AccessTokenPayload = z.object({ access_token: z.string().min(1).max(8192) });
export type AccessTokenPayload = z.infer<typeof AccessTokenPayload>;

export interface AccessTokenFrame {
  type: 'ACCESS_TOKEN';
  accessToken: string;
}

export interface AudioAnswerFrame {
  type: 'AUDIO_ANSWER';
  header: AudioAnswerHeader;
  /** MP3 bytes, never empty. */
  audio: Uint8Array;
}

export interface GameOutputFrame {
  type: 'GAME_OUTPUT';
  output: GameOutput;
}

export interface EquipmentForgingFrame {
  type: 'EQUIPMENT_FORGING';
  payload: EquipmentForging;
}

export interface CardModifierNotificationFrame {
  type: 'CARD_MODIFIER_NOTIFICATION';
  payload: CardModifierNotification;
}

export interface ErrorMessageFrame {
  type: 'ERROR_MESSAGE';
  message: string;
}

export type ClientFrame = UserInputFrame | AccessTokenFrame;
export type ServerFrame =
  | AudioAnswerFrame
  | GameOutputFrame
  | EquipmentForgingFrame
  | CardModifierNotificationFrame
  | ErrorMessageFrame;
export type Frame = ClientFrame | ServerFrame;

// Compile-time checks that the frame unions and the message-type table agree.
type Assert<T extends true> = T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type _FrameTypesMatch = Assert<Same<Frame['type'], MessageType>>;
export type _ClientTypesMatch = Assert<Same<ClientFrame['type'], ClientMessageType>>;
export type _ServerTypesMatch = Assert<Same<ServerFrame['type'], ServerMessageType>>;

/** The schema that validates the JSON of each JSON-carrying type. */
export const JSON_SCHEMAS = {
  USER_INPUT: UserInput,
  ACCESS_TOKEN: AccessTokenPayload,
  AUDIO_ANSWER: AudioAnswerHeader,
  GAME_OUTPUT: GameOutput,
  EQUIPMENT_FORGING: EquipmentForging,
  CARD_MODIFIER_NOTIFICATION: CardModifierNotification,
} as const satisfies Record<Exclude<MessageType, 'ERROR_MESSAGE'>, z.ZodType>;
