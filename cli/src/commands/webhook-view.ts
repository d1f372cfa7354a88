import { emit, fields, type JsonMode } from '../output.js';

type Endpoint = {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  secret?: string;
};

/** An endpoint as fields; its secret, when the answer carries one, with the advice to keep it. */
export function showEndpoint(json: JsonMode, e: Endpoint): void {
  emit(json, e, () =>
    fields([
      ['id', e.id],
      ['url', e.url],
      ['events', e.events.join(', ')],
      ['enabled', e.enabled ? 'yes' : `no (${e.disabled_reason ?? '-'})`],
      ...(e.secret === undefined
        ? []
        : ([['secret', `${e.secret}  (shown once: store it now)`]] as [string, string][])),
    ]),
  );
}
