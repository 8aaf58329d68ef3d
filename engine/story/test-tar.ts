// Tar bytes as a hostile or foreign archive writes them (any name, any type flag, any declared size), for the tests
// of story archives: engine/story/archive.ts only ever writes regular files of its layout.
/** A raw tar member as a hostile archive would write it: any name, any type flag, size as declared. */
export function member(name: string, body: Uint8Array, type = '0', declared = body.length, linkName = ''): Uint8Array {
  const h = new Uint8Array(512);
  const put = (at: number, s: string): void => { for (let i = 0; i < s.length; i++) h[at + i] = s.charCodeAt(i); };
  put(0, name.slice(0, 100));
  put(100, '0000644\0');
  put(124, `${declared.toString(8).padStart(11, '0')}\0`);
  put(136, '00000000000\0');
  put(148, '        ');
  put(156, type);
  put(157, linkName);
  put(257, 'ustar\0');
  put(263, '00');
  let sum = 0;
  for (const b of h) sum += b;
  put(148, `${sum.toString(8).padStart(6, '0')}\0 `);
  const padded = new Uint8Array(Math.ceil(body.length / 512) * 512);
  padded.set(body);
  const out = new Uint8Array(512 + padded.length);
  out.set(h);
  out.set(padded, 512);
  return out;
}
export function tar(...members: Uint8Array[]): Uint8Array {
  const size = members.reduce((n, m) => n + m.length, 1024);
  const out = new Uint8Array(size);
  let at = 0;
  for (const m of members) {
    out.set(m, at);
    at += m.length;
  }
  return out;
}
