import { createHash } from 'node:crypto';
import type { Router } from 'express';
import { APP_CSP } from './csp.js';

/** The app's one stylesheet: readable at 375 px and 1280 px, contrast at least 4.5:1, visible focus. */
const CSS = `
*{box-sizing:border-box}
body{font:16px/1.5 system-ui,"Noto Sans",sans-serif;margin:0;color:#1b1b1b;background:#fff}
a{color:#0b57d0}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid #b45309;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:.5rem;top:.5rem;background:#fff;padding:.3rem;z-index:2}
.top{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;padding:.6rem 1rem;border-bottom:1px solid #ccc;background:#f6f7f9}
.brand{font-weight:700;color:#1b1b1b;text-decoration:none}
.top ul{display:flex;flex-wrap:wrap;gap:.3rem 1rem;list-style:none;margin:0;padding:0}
.top [aria-current=page]{font-weight:700;text-decoration:none;color:#1b1b1b}
.who{margin-left:auto;display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}
main{max-width:72rem;margin:1rem auto 3rem;padding:0 1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}h2{font-size:1.2rem;margin-top:2rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:start;vertical-align:top}
code,pre{font:14px ui-monospace,monospace;overflow-wrap:anywhere;white-space:pre-wrap}
pre{background:#f6f7f9;padding:.6rem;border:1px solid #ddd;max-height:30rem;overflow:auto}
.muted{color:#555}.error{color:#9b1c1c;background:#fdecec;border:1px solid #d66;padding:.5rem}
.ok{background:#e8f5ec;border:1px solid #3a8a55;padding:.5rem}.notice{background:#eef4ff;border:1px solid #7a9ee0;padding:.5rem}
form.stack{display:grid;grid-template-columns:minmax(0,1fr);gap:.4rem;max-width:36rem;margin:.5rem 0 1rem}
form.inline{display:inline-flex;gap:.4rem;flex-wrap:wrap;align-items:center;margin:.1rem 0}
.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin-bottom:1rem}
.filters label{display:grid}
input,select,textarea,button{font:inherit;min-height:2.5rem}
input,select,textarea{border:1px solid #767676;border-radius:4px;padding:.3rem .5rem;max-width:100%}
textarea{width:100%;min-height:10rem;font-family:ui-monospace,monospace}
button{background:#0b57d0;color:#fff;border:1px solid #0b57d0;border-radius:4px;padding:.3rem .9rem;cursor:pointer}
button.secondary{background:#fff;color:#0b57d0}button.danger{background:#a1251b;border-color:#a1251b}
button.link{background:none;border:0;color:#0b57d0;text-decoration:underline;padding:0;min-height:auto}
form[aria-busy=true] button{opacity:.6;cursor:progress}
.pager{display:flex;gap:1rem;margin:1rem 0}
.state{display:inline-block;padding:0 .4rem;border:1px solid #767676;border-radius:3px;font-size:.9em}
.secret{font-size:1.05rem;background:#fff7e0;border:1px solid #b45309;padding:.5rem}
progress{width:100%;height:1.2rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
@media (max-width:640px){table,tbody,tr,td,th{display:block;width:auto}tr{border-bottom:1px solid #bbb;padding:.3rem 0}td,th{border:0;padding:.1rem .2rem}tr.head{display:none}dl{grid-template-columns:1fr}.who{margin-left:0}}
`.trim();

/**
 * The app's one script, same-origin (no inline code): a progress bar for uploads, copy buttons,
 * a JSON file read into the submission box, and a busy state on forms. Every page works without it.
 */
const JS = `
'use strict';
document.addEventListener('submit', function (event) {
  var form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  if (form.hasAttribute('data-upload')) { event.preventDefault(); upload(form); return; }
  form.setAttribute('aria-busy', 'true');
});
function upload(form) {
  var bar = form.querySelector('progress');
  var status = form.querySelector('[role=status]');
  var xhr = new XMLHttpRequest();
  xhr.open('POST', form.action);
  form.setAttribute('aria-busy', 'true');
  if (bar) { bar.hidden = false; bar.value = 0; }
  xhr.upload.onprogress = function (e) {
    if (!e.lengthComputable) return;
    if (bar) bar.value = Math.round((e.loaded / e.total) * 100);
    if (status) status.textContent = 'Uploading: ' + Math.round((e.loaded / e.total) * 100) + '%';
  };
  xhr.onload = function () {
    if (xhr.status < 400) { window.location.assign(xhr.responseURL); return; }
    form.removeAttribute('aria-busy');
    var said = null;
    try { said = JSON.parse(xhr.responseText).detail; } catch (e) {
      var error = new DOMParser().parseFromString(xhr.responseText, 'text/html').querySelector('.error');
      said = error ? error.textContent : null;
    }
    if (status) status.textContent = 'The upload was refused (' + xhr.status + ')' + (said ? ': ' + said : '.');
  };
  xhr.onerror = function () {
    form.removeAttribute('aria-busy');
    if (status) status.textContent = 'The upload failed: check the connection and try again.';
  };
  xhr.send(new FormData(form));
}
document.addEventListener('click', function (event) {
  var button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent).then(function () {
    var said = document.getElementById(button.getAttribute('data-copy') + '-copied');
    if (said) said.textContent = 'Copied.';
  });
});
document.addEventListener('change', function (event) {
  var input = event.target;
  if (!(input instanceof HTMLInputElement) || !input.hasAttribute('data-json-into') || !input.files[0]) return;
  var box = document.getElementById(input.getAttribute('data-json-into'));
  input.files[0].text().then(function (text) { if (box) box.value = text; });
});
document.querySelectorAll('[data-upload] progress').forEach(function (bar) { bar.hidden = true; });
`.trim();

/** A small mark, so browsers find an icon on this origin instead of asking for /favicon.ico. */
const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b57d0"/><path d="M4 4h5a3 3 0 0 1 0 6H7l4 3" stroke="#fff" stroke-width="2" fill="none"/></svg>';

const etag = (text: string) =>
  `"${createHash('sha256').update(text).digest('base64url').slice(0, 16)}"`;

/** Serves the stylesheet and the script at fixed paths, cached until they change (ETag). */
export function mountAssets(router: Router): void {
  for (const [path, type, text] of [
    ['/app/assets/app.css', 'text/css; charset=utf-8', CSS],
    ['/app/assets/app.js', 'text/javascript; charset=utf-8', JS],
    ['/app/assets/icon.svg', 'image/svg+xml', ICON],
  ] as const) {
    const tag = etag(text);
    router.get(path, (req, res) => {
      res.locals.route = path;
      res.setHeader('Content-Security-Policy', APP_CSP);
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('ETag', tag);
      if (req.get('if-none-match') === tag) return void res.status(304).end();
      res.status(200).type(type).send(text);
    });
  }
}
