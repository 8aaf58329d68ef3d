import { describe, expect, it } from 'vitest';
import { growth, growthBySize, kindOf, parseSmaps, topGrowers } from './smaps.js';

const entry = (start: string, end: string, name: string, anonKiB: number): string =>
  `${start}-${end} rw-p 00000000 00:00 0 ${name}\nSize: 4 kB\nRss: ${anonKiB} kB\nAnonymous: ${anonKiB} kB\nVmFlags: rd wr mr mw me ac\n`;

describe('smaps', () => {
  it('reads each mapping with its size, name and anonymous KiB, and tells WebAssembly memories and the C heap apart', () => {
    const maps = parseSmaps(
      entry('55d1c0000000', '55d1c0400000', '[heap]', 1024)
      + entry('7f0000000000', '7f0280000000', '', 5000) // 10 GiB reserved: a WebAssembly memory
      + entry('7f3000000000', '7f3000040000', '', 256), // a 256 KiB V8 page
    );
    expect(maps.map((m) => [m.sizeKiB, m.name, m.anonKiB])).toEqual([[4096, '[heap]', 1024], [10 * 1024 * 1024, '', 5000], [256, '', 256]]);
    expect(maps.map(kindOf)).toEqual(['c_heap', 'wasm', 'other_anon']);
  });

  it('counts what grew by kind, mappings gone and new ones included', () => {
    const before = parseSmaps(entry('1000', '401000', '[heap]', 100) + entry('7f0000000000', '7f0280000000', '', 5000) + entry('a000', 'b000', '', 4));
    const after = parseSmaps(entry('1000', '401000', '[heap]', 160) + entry('7f0000000000', '7f0280000000', '', 5008) + entry('c0000', '100000', '', 256));
    expect(growth(before, after)).toEqual({ c_heap: 60, wasm: 8, other_anon: 256 - 4 });
    expect(topGrowers(before, after, 2)).toEqual(['256 KiB anon: +256 KiB', '4096 KiB [heap]: +60 KiB']);
    expect(growthBySize(before, after)).toEqual({ '[heap]': 60, [String(10 * 1024 * 1024)]: 8, '256': 256 });
  });
});
