import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { PAGE_CSS, pageHtml } from './page.js';

/**
 * Builds the verify page (`npm run build:verify-page`, also part of `npm run build`) into
 * verify-tool/dist/verify-page/:
 * - `app.js`, `app.css`, `index.html`: the page as the server serves it at /verify (the server
 *   sends its CSP header);
 * - `verify.html`: the same page as one self-contained file, for use offline.
 * The bundle is the package's own code for the browser: a Node built-in reaching it fails the build.
 */

const NODE_BUILTIN =
  /^(node:.*|assert|buffer|child_process|crypto|dns|events|fs|fs\/promises|http|https|net|os|path|process|readline|stream|tls|url|util|worker_threads|zlib)$/;

const noNodeModules: Plugin = {
  name: 'no-node-modules',
  setup(b) {
    b.onResolve({ filter: NODE_BUILTIN }, (args) => ({
      errors: [{ text: `${args.importer} imports ${args.path}: the page cannot use Node modules` }],
    }));
  },
};

const sha256Base64 = (text: string) => createHash('sha256').update(text).digest('base64');

/** One classic script for the browser; throws when a Node built-in or `</script` would reach it. */
export async function bundleForBrowser(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: ['es2022'],
    write: false,
    legalComments: 'inline',
    charset: 'utf8',
    logLevel: 'silent',
    plugins: [noNodeModules],
  });
  const js = result.outputFiles[0]!.text;
  if (/<\/script/i.test(js)) throw new Error('the bundle contains </script and cannot be inlined');
  return js;
}

export interface BuiltPage {
  outDir: string;
  bundleBytes: number;
}

export async function buildVerifyPage(
  outDir = fileURLToPath(new URL('../../dist/verify-page/', import.meta.url)),
): Promise<BuiltPage> {
  const js = await bundleForBrowser(
    fileURLToPath(new URL('../../src/web/main.ts', import.meta.url)),
  );
  await mkdir(outDir, { recursive: true });
  const single = pageHtml({
    script: { inline: js },
    style: { inline: PAGE_CSS },
    metaCsp: [
      "default-src 'none'",
      `script-src 'sha256-${sha256Base64(js)}'`,
      `style-src 'sha256-${sha256Base64(PAGE_CSS)}'`,
      "connect-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; '),
  });
  await Promise.all([
    writeFile(`${outDir}app.js`, js),
    writeFile(`${outDir}app.css`, PAGE_CSS),
    writeFile(
      `${outDir}index.html`,
      pageHtml({ script: { src: '/verify/app.js' }, style: { href: '/verify/app.css' } }),
    ),
    writeFile(`${outDir}verify.html`, single),
  ]);
  return { outDir, bundleBytes: Buffer.byteLength(js) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await buildVerifyPage();
  console.log(`verify page: ${built.outDir} (bundle ${built.bundleBytes} bytes)`);
}
