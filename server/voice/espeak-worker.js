// Worker-thread entry of EspeakSynthesizer. Plain JavaScript so that Node can start it as is; it loads tsx itself
// (the parent's loader hooks do not reach worker threads) and then the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./espeak-worker-main.ts');
