// The page's ELK: its layout runs in a Web Worker (elkjs's own worker script), so laying out hundreds of moments never
// blocks dragging or typing. Made on first use and kept.
import ElkConstructor, { type ELK } from 'elkjs/lib/elk-api.js';
import workerUrl from 'elkjs/lib/elk-worker.min.js?url';

let elk: ELK | null = null;

export function pageElk(): ELK {
  elk ??= new ElkConstructor({ workerUrl });
  return elk;
}
