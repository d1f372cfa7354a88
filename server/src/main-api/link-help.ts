import { escapeHtml } from '../html/escape.js';

/** A static page: no script and no form, so helmet's CSP stays strict and nothing is sent by merely opening it. */
export function linkHelpPage(
  help: { detail: string; path: string; body: { token: string } },
  publicBaseUrl: string,
): string {
  const command = `curl -X POST -H 'Content-Type: application/json' -d '${JSON.stringify(help.body)}' ${publicBaseUrl}${help.path}`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><title>runledger</title></head><body>',
    `<p>${escapeHtml(help.detail)}</p>`,
    `<pre>${escapeHtml(command)}</pre>`,
    '</body></html>',
  ].join('\n');
}
