import { RunledgerError } from '@runledger/core';
import { inputProblem } from '@runledger/core/schemas';
import type { Request } from 'express';

/**
 * The request-wide input rules (docs/http.md, "What a request may contain") at the boundary of
 * every declared route, before its own schema: what a client sends is what gets stored and signed.
 */

/** 400 naming the field when a path, query or body value breaks the rules. */
export function checkRequestValue(value: unknown, where: string): void {
  const found = inputProblem(value, where);
  if (found) throw new RunledgerError('invalid_input', `${found.field}: ${found.problem}`);
}

/**
 * The query string's escapes must decode as UTF-8: the query parser would otherwise put U+FFFD in
 * place of the bytes sent. (Path segments already fail with a URIError, answered 400.)
 */
export function checkQueryEscapes(req: Request): void {
  const at = req.originalUrl.indexOf('?');
  if (at < 0) return;
  for (const part of req.originalUrl.slice(at + 1).split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw new RunledgerError(
        'invalid_input',
        'query: a malformed percent-escape or one that is not UTF-8',
      );
    }
  }
}
