// Every probe group, in the order of the items they try.
import { accountDataProbe } from './account-data.js';
import { dataDirProbe } from './data-dir.js';
import { doctorProbe } from './doctor.js';
import { enumerationProbe } from './enumeration.js';
import { framingProbe } from './framing.js';
import { headersProbe } from './headers.js';
import { hostsProbe } from './hosts.js';
import { mp3StallProbe } from './mp3-stall.js';
import { originsProbe } from './origins.js';
import { passwordsProbe } from './passwords.js';
import { preHijackProbe } from './pre-hijack.js';
import { takeoverProbe } from './takeover.js';
import type { Probe } from './types.js';
import { waitlistProbe } from './waitlist.js';

export const PROBES: Probe[] = [
  dataDirProbe, mp3StallProbe, preHijackProbe, framingProbe, takeoverProbe, enumerationProbe, accountDataProbe, passwordsProbe,
  originsProbe, headersProbe, hostsProbe, waitlistProbe, doctorProbe,
];
