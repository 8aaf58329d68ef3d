// The utterance's normalised model directory (cmn.ts): the model's files linked, its feat.params with the mean. <1 s.
import { mkdtemp, mkdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cmnInit, cmnModelDir } from './cmn.js';

describe('normalisation by the utterance\'s own mean', () => {
  let tmp = '';
  afterAll(async () => {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("makes a model directory that links the model's files and starts from the mean", async () => {
    tmp = await mkdtemp(join(tmpdir(), 'cmn-test-'));
    const model = join(tmp, 'model');
    await mkdir(join(model, 'en-us'), { recursive: true });
    await writeFile(join(model, 'en-us', 'feat.params'), '-lowerf 130\n-cmn batch\n-cmninit 41.00,-5.29\n-model ptm\n');
    await writeFile(join(model, 'en-us', 'means'), 'x');
    const mean = [42.924, -6.2];
    const dir = await cmnModelDir(model, mean, tmp);
    expect(await readFile(join(dir, 'en-us', 'feat.params'), 'utf8')).toBe('-lowerf 130\n-cmn batch\n-model ptm\n-cmninit 42.92,-6.20\n');
    expect(await readlink(join(dir, 'en-us', 'means'))).toBe(join(model, 'en-us', 'means'));
    expect(cmnInit(mean)).toBe('42.92,-6.20');
    // Each utterance its own directory (removed by the caller when its decodes are over).
    expect(await cmnModelDir(model, mean, tmp)).not.toBe(dir);
  });
});
