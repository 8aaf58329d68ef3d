// Every probe group, in the order of the items they try.
import { dataDirProbe } from './data-dir.js';
import type { Probe } from './types.js';

export const PROBES: Probe[] = [dataDirProbe];
