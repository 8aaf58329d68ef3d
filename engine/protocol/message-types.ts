// The realtime message type names (game spec §7) as one `as const` object with derived unions, in the manner of
// Colyseus's Protocol.ts. A frame on the wire is `TYPE\0payload`; TYPE is one of these names in ASCII.

export const MessageType = {
  /** Client -> server: JSON input, optionally followed by `\0` and recorded audio. */
  USER_INPUT: 'USER_INPUT',
  /**
   * Client -> server: JSON `{ "access_token": "<jwt>" }`, a fresh access token of the same user (after a refresh), so
   * the socket stays open past the expiry of the token it was opened with. Not in the spec: Looptale's addition.
   */
  ACCESS_TOKEN: 'ACCESS_TOKEN',
  /** Server -> client: JSON header, `\0`, MP3 audio. */
  AUDIO_ANSWER: 'AUDIO_ANSWER',
  /** Server -> client: JSON `GameOutput`. */
  GAME_OUTPUT: 'GAME_OUTPUT',
  /** Server -> client: JSON `EquipmentForging`. */
  EQUIPMENT_FORGING: 'EQUIPMENT_FORGING',
  /** Server -> client: JSON `CardModifierNotification`. */
  CARD_MODIFIER_NOTIFICATION: 'CARD_MODIFIER_NOTIFICATION',
  /** Server -> client: UTF-8 text shown in the 'An error occurred' dialog. */
  ERROR_MESSAGE: 'ERROR_MESSAGE',
} as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

export const Direction = {
  CLIENT_TO_SERVER: 'client_to_server',
  SERVER_TO_CLIENT: 'server_to_client',
} as const;
export type Direction = (typeof Direction)[keyof typeof Direction];

/** Which way each message type travels. A frame going the other way is rejected with 'protocol/wrong_direction'. */
export const MESSAGE_DIRECTION = {
  USER_INPUT: Direction.CLIENT_TO_SERVER,
  ACCESS_TOKEN: Direction.CLIENT_TO_SERVER,
  AUDIO_ANSWER: Direction.SERVER_TO_CLIENT,
  GAME_OUTPUT: Direction.SERVER_TO_CLIENT,
  EQUIPMENT_FORGING: Direction.SERVER_TO_CLIENT,
  CARD_MODIFIER_NOTIFICATION: Direction.SERVER_TO_CLIENT,
  ERROR_MESSAGE: Direction.SERVER_TO_CLIENT,
} as const satisfies Record<MessageType, Direction>;

type TypesGoing<D extends Direction> = {
  [K in MessageType]: (typeof MESSAGE_DIRECTION)[K] extends D ? K : never;
}[MessageType];

/** Types a client sends (the server decodes them). */
export type ClientMessageType = TypesGoing<typeof Direction.CLIENT_TO_SERVER>;
/** Types the server sends (a client decodes them). */
export type ServerMessageType = TypesGoing<typeof Direction.SERVER_TO_CLIENT>;

export const MESSAGE_TYPES = Object.values(MessageType) as readonly MessageType[];

export const CLIENT_MESSAGE_TYPES = MESSAGE_TYPES.filter(
  (t): t is ClientMessageType => MESSAGE_DIRECTION[t] === Direction.CLIENT_TO_SERVER,
);
export const SERVER_MESSAGE_TYPES = MESSAGE_TYPES.filter(
  (t): t is ServerMessageType => MESSAGE_DIRECTION[t] === Direction.SERVER_TO_CLIENT,
);

/** The longest type name, in bytes; a frame with no `\0` within this many bytes (plus one) has no type name. */
export const MAX_TYPE_NAME_BYTES = Math.max(...MESSAGE_TYPES.map((t) => t.length));

export function isMessageType(name: string): name is MessageType {
  return Object.hasOwn(MESSAGE_DIRECTION, name);
}
