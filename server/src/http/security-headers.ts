import helmet from 'helmet';
import type { ServerResponse } from 'node:http';

/** A response header as name and value. */
export type Header = readonly [name: string, value: string];

/**
 * helmet's headers with its defaults, recorded once by running its middleware against a recorder.
 * Every default is a fixed string (no directive is a function of the request), so the recorded
 * headers are what helmet would set on any response; they are then set by one loop instead of
 * helmet's thirteen nested middlewares. helmet also removes `X-Powered-By`, which the app never
 * sends (`app.disable('x-powered-by')`).
 */
export function helmetHeaders(): readonly Header[] {
  const headers: Header[] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`helmet set ${name} to a non-string value`);
      headers.push([name, value]);
    },
    removeHeader() {},
  };
  let passedOn = false;
  helmet()({} as never, recorder as never, () => {
    passedOn = true;
  });
  if (!passedOn) throw new Error('helmet did not pass the request on at once');
  return headers;
}

/** Sets each header on the response. */
export function setHeaders(res: ServerResponse, headers: readonly Header[]): void {
  for (const [name, value] of headers) res.setHeader(name, value);
}
