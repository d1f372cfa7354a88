import type { WitnessEndpoint } from '@runledger/core/ports';
import { NoteError } from '@runledger/verify/note';
import { parseCosignerVkey } from '@runledger/verify/witness';
import { z } from 'zod';
import { ConfigError } from './config-error.js';

/** The witnesses of docs/witnesses.md, from WITNESSES and WITNESS_INTERVAL_SECONDS. */
export interface WitnessConfig {
  /** WITNESSES: a JSON array of `{url, vkey}`; empty (unset) asks no witness. */
  witnesses: WitnessEndpoint[];
  /** How often each log's newest checkpoint is offered to the witnesses. */
  witnessIntervalSeconds: number;
}

const Witnesses = z.array(
  z.strictObject({
    url: z.url({ protocol: /^https?$/ }),
    vkey: z.string().min(1),
  }),
);

export function loadWitnessConfig(env: Record<string, string | undefined>): WitnessConfig {
  const raw = env['WITNESSES']?.trim() ?? '';
  let witnesses: WitnessEndpoint[] = [];
  if (raw !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new ConfigError('WITNESSES is not JSON: give an array of {"url", "vkey"}');
    }
    const checked = Witnesses.safeParse(parsed);
    if (!checked.success)
      throw new ConfigError(
        'WITNESSES must be a JSON array of {"url": "http(s)://…", "vkey": "…"}',
      );
    witnesses = checked.data;
    for (const w of witnesses) {
      try {
        parseCosignerVkey(w.vkey);
      } catch (error) {
        if (!(error instanceof NoteError)) throw error;
        throw new ConfigError(
          `WITNESSES: the vkey of ${w.url} is not a witness key: ${error.message}`,
        );
      }
    }
    if (new Set(witnesses.map((w) => w.vkey)).size !== witnesses.length)
      throw new ConfigError('WITNESSES names one witness key twice');
  }
  const interval = Number(env['WITNESS_INTERVAL_SECONDS'] ?? '5');
  if (!Number.isFinite(interval) || interval < 0.1 || interval > 3600)
    throw new ConfigError('WITNESS_INTERVAL_SECONDS must be a number from 0.1 to 3600');
  return { witnesses, witnessIntervalSeconds: interval };
}
