import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator } from './timers.js';
import {
  MAX_RECONNECT_ATTEMPTS, PENDING_TIMEOUT_MS,
  RECONNECT_INTERVAL_MS, connectionOverlay, initialConnection, transitionConnection,
} from './connection.js';

type Msg = string;

const driver = () => new Simulator(transitionConnection<Msg>, initialConnection<Msg>());
type Driver = ReturnType<typeof driver>;
/** Messages the last call put on the socket, and sockets it opened. */
const sent = (d: Driver): Msg[] => d.effects.flatMap((e) => (e.type === 'send' ? [e.message] : []));
const opens = (d: Driver): number => d.effects.filter((e) => e.type === 'open_socket').length;

const connected = (): Driver => driver().send({ type: 'connect', hasSession: true }).send({ type: 'opened' });

describe('connection', () => {
  it('uses the spec constants and texts', () => {
    expect([RECONNECT_INTERVAL_MS, MAX_RECONNECT_ATTEMPTS, PENDING_TIMEOUT_MS]).toEqual([5000, 50, 60000]);
    const d = connected();
    expect(connectionOverlay(d.state)).toBeNull();
    d.send({ type: 'closed' });
    expect(connectionOverlay(d.state)).toBe('Reconnecting...');
  });

  it('refuses to connect without a session', () => {
    const d = driver().send({ type: 'connect', hasSession: false });
    expect(d.refused).toBe('connection/no_session');
    expect(d.effects).toEqual([]);
  });

  it('sends at once when connected, and clears the pending message on the matching GAME_OUTPUT', () => {
    const d = connected().send({ type: 'send', inputId: 'i1', message: 'm1' });
    expect(sent(d)).toEqual(['m1']);
    expect(d.state.pending?.inputId).toBe('i1');
    d.send({ type: 'output', inputId: 'other' });
    expect(d.state.pending?.inputId).toBe('i1');
    d.send({ type: 'output', inputId: 'i1' });
    expect(d.state.pending).toBeNull();
  });

  it('auto-clears the pending message after 60000 ms', () => {
    const d = connected().send({ type: 'send', inputId: 'i1', message: 'm1' });
    d.wait(PENDING_TIMEOUT_MS - 1);
    expect(d.state.pending).not.toBeNull();
    d.wait(1);
    expect(d.state.pending).toBeNull();
  });

  it('retries every 5000 ms and replays the pending message after reconnecting', () => {
    const d = connected().send({ type: 'send', inputId: 'i1', message: 'm1' }).send({ type: 'closed' });
    expect(d.state.status).toBe('reconnecting');
    d.wait(4999);
    expect(opens(d)).toBe(0);
    d.wait(1);
    expect(opens(d)).toBe(1);
    expect(d.state.attempts).toBe(1);
    d.send({ type: 'opened' });
    expect(d.state.status).toBe('connected');
    expect(d.effects).toEqual([{ type: 'send', message: 'm1', replay: true }]);
    expect(d.state.attempts).toBe(0);
  });

  it("gives up after 50 attempts and shows 'Connection lost'", () => {
    const d = connected().send({ type: 'closed' });
    for (let i = 1; i <= MAX_RECONNECT_ATTEMPTS; i += 1) {
      d.wait(RECONNECT_INTERVAL_MS);
      expect(opens(d)).toBe(1);
      expect(d.state.attempts).toBe(i);
      d.send({ type: 'closed' });
    }
    expect(d.state.status).toBe('lost');
    expect(connectionOverlay(d.state)).toBe('Connection lost');
    d.wait(RECONNECT_INTERVAL_MS * 3);
    expect(opens(d)).toBe(0);
    // The player may try again from there.
    d.send({ type: 'connect', hasSession: true });
    expect(d.state.status).toBe('connecting');
  });

  it('keeps a message sent while disconnected and sends it once the connection opens', () => {
    const d = connected().send({ type: 'closed' }).send({ type: 'send', inputId: 'i2', message: 'm2' });
    expect(sent(d)).toEqual([]);
    d.wait(RECONNECT_INTERVAL_MS).send({ type: 'opened' });
    expect(sent(d)).toEqual(['m2']);
  });

  it('disconnect closes for good: no retry, nothing pending', () => {
    const d = connected().send({ type: 'send', inputId: 'i1', message: 'm1' }).send({ type: 'closed' }).send({ type: 'disconnect' });
    expect(d.state).toEqual(initialConnection());
    expect(d.wheel.timers).toEqual([]);
    expect(connectionOverlay(d.state)).toBe('Connection lost');
  });
});

// ---- Model-based: the spec's rules as a small model, checked against the machine after every command.

interface Model {
  status: 'connected' | 'waiting' | 'attempting' | 'lost';
  attempts: number;
  pending: { id: string; msg: string; age: number } | null;
  /** Time until the retry fires (while waiting). */
  retryIn: number;
  n: number;
}

interface Real {
  d: Driver;
  /** Messages that went out on the socket, in order. */
  wire: string[];
}

function observe(r: Real): void {
  r.wire.push(...sent(r.d));
}

function check(m: Model, r: Real): void {
  const s = r.d.state;
  const status = s.status === 'reconnecting' ? (s.waiting ? 'waiting' : 'attempting') : s.status;
  expect(status).toBe(m.status);
  expect(s.attempts).toBe(m.attempts);
  expect(s.attempts).toBeLessThanOrEqual(MAX_RECONNECT_ATTEMPTS);
  expect(s.pending?.inputId ?? null).toBe(m.pending?.id ?? null);
  expect(connectionOverlay(s)).toBe(m.status === 'connected' ? null : m.status === 'lost' ? 'Connection lost' : 'Reconnecting...');
}

const command = (name: string, run: (m: Model, r: Real) => void): fc.Command<Model, Real> => ({
  check: () => true,
  run(m, r) { run(m, r); check(m, r); },
  toString: () => name,
});

const sendCmd = command('send', (m, r) => {
  const id = `i${m.n}`;
  const msg = `m${m.n}`;
  m.n += 1;
  m.pending = { id, msg, age: 0 };
  const before = r.wire.length;
  r.d.send({ type: 'send', inputId: id, message: msg });
  observe(r);
  expect(r.wire.slice(before)).toEqual(m.status === 'connected' ? [msg] : []);
});
const confirmCmd = command('confirm', (m, r) => {
  const id = m.pending?.id ?? 'nothing';
  m.pending = null;
  r.d.send({ type: 'output', inputId: id });
});
const closeCmd = command('close', (m, r) => {
  if (m.status === 'connected' || m.status === 'attempting') {
    if (m.attempts >= MAX_RECONNECT_ATTEMPTS) m.status = 'lost';
    else { m.status = 'waiting'; m.retryIn = RECONNECT_INTERVAL_MS; }
  }
  r.d.send({ type: 'closed' });
});
const openCmd = command('open', (m, r) => {
  const before = r.wire.length;
  const replay = m.status === 'attempting' ? m.pending?.msg : undefined;
  if (m.status === 'attempting') { m.status = 'connected'; m.attempts = 0; }
  r.d.send({ type: 'opened' });
  observe(r);
  expect(r.wire.slice(before)).toEqual(replay === undefined ? [] : [replay]);
});
const waitCmd = (ms: number): fc.Command<Model, Real> => command(`wait(${ms})`, (m, r) => {
  if (m.pending) { m.pending.age += ms; if (m.pending.age >= PENDING_TIMEOUT_MS) m.pending = null; }
  if (m.status === 'waiting') {
    m.retryIn -= ms;
    if (m.retryIn <= 0) { m.status = 'attempting'; m.attempts += 1; }
  }
  r.d.wait(ms);
});

describe('connection against a model', () => {
  it('agrees with the spec model after every command', () => {
    const cmds = [
      fc.constant(sendCmd), fc.constant(confirmCmd), fc.constant(closeCmd), fc.constant(openCmd),
      fc.integer({ min: 1, max: 20000 }).map(waitCmd),
    ];
    fc.assert(fc.property(fc.commands(cmds, { size: '+1' }), (commands) => {
      const model: Model = { status: 'connected', attempts: 0, pending: null, retryIn: 0, n: 0 };
      fc.modelRun(() => ({ model, real: { d: connected(), wire: [] } }), commands);
    }), { numRuns: 300 });
  });

  it('never exceeds 50 attempts however often the socket fails', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 12000 }), { minLength: 1, maxLength: 200 }), (gaps) => {
      const d = connected().send({ type: 'closed' });
      let total = 0;
      for (const gap of gaps) {
        d.wait(gap);
        total += opens(d);
        d.send({ type: 'closed' });
      }
      expect(total).toBeLessThanOrEqual(MAX_RECONNECT_ATTEMPTS);
      expect(d.state.attempts).toBe(Math.min(total, MAX_RECONNECT_ATTEMPTS));
    }));
  });
});
