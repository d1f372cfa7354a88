import { describe, expect, it } from 'vitest';
import { firstSegment } from '../http/segment-routers.js';
import type { AppDeps } from './deps.js';
import { PAGE_SEGMENTS, webApp } from './index.js';

interface Layer {
  route?: { path: string };
}

describe('the web app’s page segments', () => {
  it('name the first path segment of every mounted page, so the server hands each its requests', () => {
    // Mounting only reaches into its dependencies; the handlers that would use them never run here.
    const anything: unknown = new Proxy(() => undefined, {
      get: (_target, key) => (key === 'formLimit' ? 1024 : anything),
      apply: () => anything,
    });
    const router = webApp(anything as AppDeps) as unknown as { stack: Layer[] };
    const paths = router.stack.flatMap((layer) => (layer.route ? [layer.route.path] : []));
    expect(paths.length).toBeGreaterThan(20);
    expect(paths).toContain('/auth/verify');
    for (const path of paths) expect(PAGE_SEGMENTS.has(firstSegment(path))).toBe(true);
  });
});
