/**
 * The verify page's markup and stylesheet. The build writes it twice: as served at `/verify` (the
 * script and stylesheet are same-origin files, so the CSP needs no hashes), and as one
 * self-contained file whose own CSP allows exactly its inline script and style, by hash, and no
 * network at all.
 */
export const PAGE_CSS = `
:root{color-scheme:light;--ok:#1d6b38;--bad:#a32020;--warn:#8a5a00;--line:#d6d6d6}
body{font:16px/1.5 system-ui,sans-serif;max-width:62rem;margin:1.5rem auto;padding:0 1rem;color:#1b1b1b;background:#fff}
h1{font-size:1.5rem;margin:.2rem 0 .4rem}h2{font-size:1.15rem;margin:1.4rem 0 .5rem}
fieldset{border:1px solid var(--line);border-radius:.4rem;margin:1rem 0;padding:.6rem 1rem 1rem}
legend{font-weight:600;padding:0 .3rem}
label{display:block;font-weight:500;margin:.6rem 0 .2rem}
textarea{width:100%;box-sizing:border-box;font:13px ui-monospace,monospace}
.drop{border:2px dashed #888;border-radius:.4rem;padding:1rem;margin-top:.6rem;text-align:center;color:#444}
.drop.over{border-color:#2a5db0;background:#eef3fb}
button{font:inherit;padding:.45rem 1.1rem;border-radius:.3rem;border:1px solid #2a5db0;background:#2a5db0;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#2a5db0}
button:disabled{opacity:.5;cursor:default}
:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
progress{width:100%;height:1.1rem}
.hint{color:#555;font-size:.9rem;margin:.2rem 0}
.verdict{padding:.7rem 1rem;border-radius:.3rem;font-weight:600;margin:.6rem 0}
.verdict.intact{background:#e6f4ea;border:1px solid var(--ok);color:var(--ok)}
.verdict.tampered,.verdict.unreadable{background:#fde8e8;border:1px solid var(--bad);color:var(--bad)}
.verdict.partial{background:#fff4dc;border:1px solid var(--warn);color:var(--warn)}
table{border-collapse:collapse;width:100%;margin:.4rem 0}
th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
td:last-child,dd{overflow-wrap:anywhere}
td code,dd code{font:13px ui-monospace,monospace;word-break:break-all}
.pass{color:var(--ok)}.fail{color:var(--bad);font-weight:600}.not_checked{color:var(--warn)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:500}dd{margin:0;word-break:break-all}
.authorship{font-weight:500}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
@media (max-width:40rem){th:nth-child(4),td:nth-child(4){display:none}table{table-layout:fixed}th,td{overflow-wrap:anywhere;padding:.3rem .3rem}}
`.trim();

export interface PageAssets {
  /** A same-origin URL, or the bundle itself inlined. */
  script: { src: string } | { inline: string };
  style: { href: string } | { inline: string };
  /** A CSP for a `<meta>` tag (the single file); the served page gets its CSP as a header. */
  metaCsp?: string;
}

/** The optional witness keys and threshold (runledger-verify --witness, --witness-threshold). */
const WITNESS_FIELDS = `<fieldset>
<legend>3. Witnesses (optional)</legend>
<label for="witnesses">Witness key(s), one per line, as <code>runledger-witness init</code> prints them</label>
<textarea id="witnesses" name="witnesses" rows="3" spellcheck="false" autocomplete="off" aria-describedby="witnesses-hint"></textarea>
<label for="witness-threshold">How many of them must have cosigned (empty: all)</label>
<input type="text" id="witness-threshold" name="witness-threshold" inputmode="numeric" autocomplete="off">
<p class="hint" id="witnesses-hint">With witness keys, every checkpoint must carry that many valid cosignatures (C2SP tlog-cosignature), so this verification sees the history the witnesses saw.</p>
</fieldset>`;

/** The page; the script fills `#result` and wires the controls (web/main.ts). */
export function pageHtml(assets: PageAssets): string {
  const style =
    'href' in assets.style
      ? `<link rel="stylesheet" href="${assets.style.href}">`
      : `<style>${assets.style.inline}</style>`;
  const script =
    'src' in assets.script
      ? `<script src="${assets.script.src}" defer></script>`
      : `<script>${assets.script.inline}</script>`;
  const csp =
    assets.metaCsp === undefined
      ? ''
      : `<meta http-equiv="Content-Security-Policy" content="${assets.metaCsp}">`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${csp}
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Verify a runledger export or receipt</title>
${style}
${'src' in assets.script ? script : ''}
</head>
<body>
<main>
<h1>Verify a runledger export or receipt</h1>
<p class="hint">Everything runs in this page with the <code>@runledger/verify</code> code: the file you choose is not uploaded anywhere. Saved as a file, the page works offline.</p>
<form id="verify-form" novalidate>
<fieldset>
<legend>1. The file</legend>
<label for="file">An export (<code>.ndjson</code>, from <code>GET /ledger/export</code>), a share JSON or a receipt PDF</label>
<input type="file" id="file" name="file" accept=".ndjson,.jsonl,.json,.txt,.pdf,.tlog-proof,application/json,application/x-ndjson,text/plain,application/pdf" aria-describedby="drop-hint">
<div class="drop" id="drop" aria-hidden="true">…or drop it here</div>
<p class="hint" id="drop-hint">Large exports are read in chunks; a 100 MB export works. A receipt PDF carries its share JSON (receipt, signed checkpoint, inclusion proof) as the attached file <code>share.json</code>.</p>
<label for="share-link">…or a receipt’s share link (printed on its PDF)</label>
<input type="url" id="share-link" name="share-link" autocomplete="off" spellcheck="false" aria-describedby="share-link-hint">
<p class="hint" id="share-link-hint">Served by a deployment, the page fetches the share JSON of a link to that deployment; a link elsewhere is downloaded there and dropped here.</p>
<p><button type="button" class="secondary" id="verify-link">Verify the share link</button></p>
</fieldset>
<fieldset>
<legend>2. The deployment’s public key (optional)</legend>
<label for="keys">Verifier key(s), one per line, or the content of <code>runledger-keys.json</code></label>
<textarea id="keys" name="keys" rows="4" spellcheck="false" autocomplete="off" aria-describedby="keys-hint"></textarea>
<p class="hint" id="keys-hint">Without a key the data is checked against the checkpoint it carries, and the page says that authorship was not checked.</p>
<label for="key-file">…or load a keys file</label>
<input type="file" id="key-file" name="key-file" accept=".json,.txt,application/json,text/plain">
<p><button type="button" class="secondary" id="fetch-keys" hidden>Use this server’s published keys</button></p>
</fieldset>
${WITNESS_FIELDS}
<p><button type="submit" id="run">Verify</button></p>
</form>
<div id="progress-box" hidden>
<label for="progress">Reading the file</label>
<progress id="progress" max="100" value="0"></progress>
<p class="hint" id="progress-text"></p>
</div>
<p id="status" role="status" aria-live="polite"></p>
<section id="result" aria-labelledby="result-title" tabindex="-1" hidden>
<h2 id="result-title">Result</h2>
<p id="verdict" class="verdict"></p>
<p id="authorship" class="authorship"></p>
<dl id="facts"></dl>
<h2>Checks</h2>
<table id="checks"><thead><tr><th scope="col">Check</th><th scope="col">Result</th><th scope="col">Detail</th></tr></thead><tbody></tbody></table>
<div id="findings-box" hidden>
<h2>Findings</h2>
<table id="findings"><thead><tr><th scope="col">Check</th><th scope="col">Line</th><th scope="col">Receipt</th><th scope="col">org_seq</th><th scope="col">Reason</th></tr></thead><tbody></tbody></table>
<p class="hint" id="findings-omitted"></p>
</div>
</section>
</main>
${'inline' in assets.script ? script : ''}
</body>
</html>
`;
}
