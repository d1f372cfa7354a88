import { EvidenceTextKind } from '@runledger/core/schemas';
import { options, runPath } from '../fragments.js';
import { csrfField } from '../layout.js';

/** Text evidence, and a file upload (25 MB) whose progress the app's script shows. */
export function evidenceForms(runId: string, csrf: string): string {
  return [
    '<h2>Add evidence</h2>',
    `<form method="post" action="${runPath(runId, '/evidence')}" class="stack">${csrfField(csrf)}`,
    '<label for="ev-label">Label</label><input id="ev-label" name="label" required maxlength="200">',
    '<label for="ev-kind">Kind</label><select id="ev-kind" name="kind">',
    options(
      EvidenceTextKind.options.map((k) => ({ value: k, label: k })),
      'note',
    ),
    '</select>',
    '<label for="ev-content">Content</label><textarea id="ev-content" name="content" rows="4"></textarea>',
    '<button type="submit">Add text evidence</button></form>',
    `<form method="post" action="${runPath(runId, '/evidence/upload')}" enctype="multipart/form-data" class="stack" data-upload>`,
    csrfField(csrf),
    '<label for="up-label">File label</label><input id="up-label" name="label" required maxlength="200">',
    '<label for="up-file">File (at most 25 MB)</label><input id="up-file" name="file" type="file" required>',
    '<progress max="100" value="0" aria-label="Upload progress"></progress>',
    '<p role="status" aria-live="polite"></p>',
    '<button type="submit">Upload the file</button></form>',
  ].join('');
}

/** The JSON submission: pasted, or read from a file into the box by the app's script. */
export function submissionForm(runId: string, csrf: string): string {
  return [
    '<h2>Submit the JSON</h2>',
    `<form method="post" action="${runPath(runId, '/submission')}" class="stack">${csrfField(csrf)}`,
    '<label for="sub-file">Read from a file (optional)</label>',
    '<input id="sub-file" type="file" accept="application/json,.json" data-json-into="sub-json">',
    '<label for="sub-json">Submission (a JSON object or array)</label>',
    '<textarea id="sub-json" name="json" required rows="12" spellcheck="false"></textarea>',
    '<button type="submit">Save the submission</button></form>',
  ].join('');
}
