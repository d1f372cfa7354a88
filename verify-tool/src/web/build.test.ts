import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyPage, bundleForBrowser } from './build.js';

describe('the verify page build', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-page-build-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(['node:fs', 'fs', 'node:crypto', 'worker_threads'])(
    'fails when %s would reach the bundle',
    async (module) => {
      const entry = join(dir, 'leak.ts');
      await writeFile(entry, `import * as m from '${module}';\nconsole.log(m);\n`);
      await expect(bundleForBrowser(entry)).rejects.toThrow(
        `imports ${module}: the page cannot use Node modules`,
      );
    },
  );

  it('writes the served page without inline code, and one file whose CSP allows exactly its own script', async () => {
    const built = await buildVerifyPage(`${dir}/out/`);
    const served = await readFile(`${built.outDir}index.html`, 'utf8');
    expect(served).toContain('<script src="/verify/app.js" defer></script>');
    expect(served).not.toMatch(/<script>|<style>/);
    const single = await readFile(`${built.outDir}verify.html`, 'utf8');
    const js = await readFile(`${built.outDir}app.js`, 'utf8');
    const hash = createHash('sha256').update(js).digest('base64');
    expect(single).toContain(`script-src 'sha256-${hash}'`);
    expect(single).toContain("connect-src 'none'");
    expect(single).toContain(`<script>${js}</script>`);
    expect(single).not.toMatch(/<script src=|<link /);
    // The inlined script cannot end early: its closing tag is the only `</script` in the file.
    expect(single.match(/<\/script/gi)).toHaveLength(1);
  });
});
