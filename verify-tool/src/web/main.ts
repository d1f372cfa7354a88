/// <reference lib="dom" />
import type { TrustedKey } from '../note/keyring.js';
import { parseKeyText } from './keys.js';
import type { CheckStatus, Report } from './report.js';
import { verifyShareDocument } from './share.js';
import { shareJsonUrl } from './share-link.js';
import { verifyFile } from './verify-file.js';
import { parseWitnessText } from './witnesses.js';
import type { WitnessPolicy } from '../witness/policy.js';

/**
 * The page's script: wires the controls to verifyFile and shows its report. Everything is written
 * with textContent, so a hostile file can only ever show up as text.
 */

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const form = byId<HTMLFormElement>('verify-form');
const fileInput = byId<HTMLInputElement>('file');
const drop = byId<HTMLDivElement>('drop');
const keysBox = byId<HTMLTextAreaElement>('keys');
const witnessBox = byId<HTMLTextAreaElement>('witnesses');
const thresholdInput = byId<HTMLInputElement>('witness-threshold');
const keyFile = byId<HTMLInputElement>('key-file');
const fetchKeys = byId<HTMLButtonElement>('fetch-keys');
const runButton = byId<HTMLButtonElement>('run');
const shareLink = byId<HTMLInputElement>('share-link');
const verifyLink = byId<HTMLButtonElement>('verify-link');
const progressBox = byId<HTMLDivElement>('progress-box');
const progress = byId<HTMLProgressElement>('progress');
const progressText = byId<HTMLParagraphElement>('progress-text');
const status = byId<HTMLParagraphElement>('status');
const result = byId<HTMLElement>('result');

let dropped: File | undefined;

const STATUS_TEXT: Record<CheckStatus, string> = {
  pass: '✓ passed',
  fail: '✗ FAILED',
  not_checked: '– not checked',
};

function cell(row: HTMLTableRowElement, text: string, className?: string): void {
  const td = row.insertCell();
  td.textContent = text;
  if (className !== undefined) td.className = className;
}

function fill(tableId: string, rows: string[][], classOf?: (row: string[]) => string[]): void {
  const body = byId<HTMLTableElement>(tableId).tBodies[0]!;
  body.replaceChildren();
  for (const values of rows) {
    const tr = body.insertRow();
    const classes = classOf?.(values) ?? [];
    values.forEach((value, i) => cell(tr, value, classes[i]));
  }
}

function show(report: Report): void {
  const verdict = byId('verdict');
  verdict.textContent = report.headline;
  verdict.className = `verdict ${report.verdict}`;
  byId('authorship').textContent = report.authorship;
  const facts = byId('facts');
  facts.replaceChildren();
  for (const [label, value] of report.facts) {
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    dd.textContent = value;
    facts.append(dt, dd);
  }
  fill(
    'checks',
    report.checks.map((c) => [c.name, STATUS_TEXT[c.status], c.detail]),
    (row) => ['', report.checks.find((c) => c.name === row[0])?.status ?? '', ''],
  );
  fill(
    'findings',
    report.findings.map((f) => [
      `${f.check} (${f.code})`,
      f.line === null ? '' : String(f.line),
      f.receipt_id ?? '',
      f.org_seq === null ? '' : String(f.org_seq),
      f.message,
    ]),
  );
  byId('findings-box').hidden = report.findings.length === 0;
  byId('findings-omitted').textContent =
    report.findingsOmitted > 0 ? `… and ${report.findingsOmitted} more findings.` : '';
  result.hidden = false;
  // Announced to screen readers; the result section shows the same to everyone else.
  status.className = 'sr-only';
  status.textContent = `${report.headline}. ${report.authorship}`;
  result.focus();
}

function showError(message: string): void {
  result.hidden = true;
  status.className = '';
  status.textContent = message;
}

/** Megabytes for a large file, kilobytes for a small one. */
const size = (bytes: number, scale: number) =>
  scale >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} kB`;

/** Lets the browser paint the progress bar now and then, without slowing the loop down. */
let lastPaint = 0;
async function onProgress(bytesRead: number, total: number): Promise<void> {
  const percent = total === 0 ? 100 : Math.floor((bytesRead / total) * 100);
  progress.value = percent;
  progressText.textContent = `${percent}% (${size(bytesRead, total)} of ${size(total, total)})`;
  const now = performance.now();
  if (now - lastPaint > 100) {
    lastPaint = now;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** Reads the key box, runs one verification with the controls held, and shows its report. */
async function verifying(
  what: string,
  work: (
    keys: readonly TrustedKey[] | undefined,
    witnesses: WitnessPolicy | undefined,
  ) => Promise<Report>,
): Promise<void> {
  const keys = parseKeyText(keysBox.value);
  if (keys.status === 'bad') {
    showError(`The key cannot be used: ${keys.message}`);
    keysBox.focus();
    return;
  }
  const witnesses = parseWitnessText(witnessBox.value, thresholdInput.value);
  if (witnesses.status === 'bad') {
    showError(`The witness keys cannot be used: ${witnesses.message}`);
    witnessBox.focus();
    return;
  }
  runButton.disabled = true;
  verifyLink.disabled = true;
  result.hidden = true;
  status.className = '';
  status.textContent = `Verifying ${what}…`;
  try {
    show(
      await work(
        keys.status === 'keys' ? keys.keys : undefined,
        witnesses.status === 'policy' ? witnesses.policy : undefined,
      ),
    );
  } catch (error) {
    showError(`Verification stopped: ${(error as Error).message}`);
  } finally {
    runButton.disabled = false;
    verifyLink.disabled = false;
  }
}

async function run(): Promise<void> {
  const file = fileInput.files?.[0] ?? dropped;
  if (file === undefined) {
    showError('Choose or drop a file first.');
    fileInput.focus();
    return;
  }
  await verifying(file.name, (keys, witnesses) => {
    progress.value = 0;
    progressText.textContent = '';
    progressBox.hidden = false;
    return verifyFile(file, {
      ...(keys === undefined ? {} : { keys }),
      ...(witnesses === undefined ? {} : { witnesses }),
      onProgress,
    });
  });
}

/** The share JSON of a link to this deployment, fetched without credentials, verified as dropped. */
async function runLink(): Promise<void> {
  const target = shareJsonUrl(shareLink.value, location.href);
  if ('refused' in target) {
    showError(target.refused);
    shareLink.focus();
    return;
  }
  await verifying('the share link', async (keys, witnesses) => {
    progressBox.hidden = true;
    const response = await fetch(target.url, {
      headers: { Accept: 'application/json' },
      credentials: 'omit',
      cache: 'no-store',
      redirect: 'error',
    }).catch(() => {
      throw new Error('the share link could not be fetched from this deployment');
    });
    if (response.status === 404) throw new Error('this deployment has no receipt at that link');
    if (!response.ok) throw new Error(`this deployment answered ${response.status}`);
    const doc = (await response.json().catch(() => {
      throw new Error('the share link did not answer JSON');
    })) as unknown;
    return verifyShareDocument(doc, keys, witnesses);
  });
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  // Enter in the link field verifies the link, not the file.
  void (document.activeElement === shareLink ? runLink() : run());
});
verifyLink.addEventListener('click', () => {
  void runLink();
});
fileInput.addEventListener('change', () => {
  dropped = undefined;
});
for (const target of [drop, document.body]) {
  target.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('over');
  });
}
document.body.addEventListener('dragleave', () => drop.classList.remove('over'));
document.body.addEventListener('drop', (event) => {
  event.preventDefault();
  drop.classList.remove('over');
  const file = event.dataTransfer?.files[0];
  if (file === undefined) return;
  dropped = file;
  fileInput.value = '';
  status.textContent = `${file.name} is ready: press Verify.`;
});
keyFile.addEventListener('change', () => {
  const file = keyFile.files?.[0];
  if (file === undefined) return;
  void file.text().then((text) => {
    keysBox.value = text;
    status.textContent = `Keys loaded from ${file.name}.`;
  });
});

// Served by a deployment, the page may take that deployment's published keys (never required).
if (location.protocol === 'http:' || location.protocol === 'https:') {
  fetchKeys.hidden = false;
  fetchKeys.addEventListener('click', () => {
    void fetch('/.well-known/runledger-keys.json', { credentials: 'omit' })
      .then(async (response) => {
        if (!response.ok) throw new Error(`the server answered ${response.status}`);
        keysBox.value = JSON.stringify(await response.json(), null, 2);
        status.textContent = 'This server’s published keys are loaded.';
      })
      .catch((error: unknown) => {
        status.textContent = `The published keys could not be loaded: ${(error as Error).message}`;
      });
  });
}
