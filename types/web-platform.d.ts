// The few web-platform globals engine/ relies on, which every runtime it targets has (browsers, Node 20+): declared
// here for engine/tsconfig.json, which has neither the DOM nor Node's types. Only what engine/ uses is declared.

declare class TextEncoder {
  encode(input?: string): Uint8Array<ArrayBuffer>;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array | ArrayBuffer): string;
}

declare class URLSearchParams {
  constructor(init?: Record<string, string> | string);
  toString(): string;
}
