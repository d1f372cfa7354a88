/**
 * operationIds derived from the route declaration, so every route (including ones added later) gets
 * a stable, unique one without anybody choosing names: the method, then each path segment in
 * PascalCase, a parameter segment as `By<Name>`. `GET /runs/{run_id}/receipt.pdf` →
 * `getRunsByRunIdReceiptPdf`. Two paths can meet in one id only when they differ in punctuation alone
 * (`/a-b` and `/a/b`): the document builder refuses such a duplicate, and a declaration then sets
 * `operationId` to override.
 */

const words = (text: string): string[] => text.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);

const pascal = (text: string): string =>
  words(text)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

export function operationIdOf(method: string, path: string): string {
  const segments = path.split('/').filter((s) => s.length > 0);
  const parts = segments.map((segment) => {
    const param = /^\{(.+)\}$/.exec(segment);
    return param ? `By${pascal(param[1]!)}` : pascal(segment);
  });
  return method.toLowerCase() + (parts.length > 0 ? parts.join('') : 'Root');
}

/** Throws when two operations of one document share an operationId (an override that collides). */
export function assertUniqueOperationIds(document: { paths?: object }): void {
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths ?? {}) as Array<[string, unknown]>) {
    for (const [method, operation] of Object.entries((item ?? {}) as Record<string, unknown>)) {
      const id = (operation as { operationId?: unknown } | null)?.operationId;
      if (typeof id !== 'string') continue;
      const where = `${method.toUpperCase()} ${path}`;
      const earlier = seen.get(id);
      if (earlier) throw new Error(`operationId ${id} of ${where} is already used by ${earlier}`);
      seen.set(id, where);
    }
  }
}
