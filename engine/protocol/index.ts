// The realtime protocol (game spec §7): message types, payload schemas, frames and the binary codec.
export * from './message-types.js';
export * from './user-input.js';
export * from './frames.js';
export * from './errors.js';
export * from './codec.js';
export * from './turn-errors.js';
