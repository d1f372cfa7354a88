import { VerifyError } from '../errors.js';
import { NoteError } from '../note/errors.js';
import { parseCosignerVkey } from '../witness/cosigner-key.js';
import { witnessPolicy, type WitnessPolicy } from '../witness/policy.js';

/** The witness policy named on the command line; a bad key is an input error (exit 2). */
export function loadWitnessPolicy(
  vkeys: readonly string[],
  threshold: number | undefined,
): WitnessPolicy | undefined {
  if (vkeys.length === 0) return undefined;
  const keys = vkeys.map((vkey) => {
    try {
      return parseCosignerVkey(vkey.trim());
    } catch (error) {
      if (!(error instanceof NoteError)) throw error;
      throw new VerifyError('unreadable_input', `--witness ${vkey}: ${error.message}`, {
        cause: error,
      });
    }
  });
  try {
    return witnessPolicy(keys, threshold);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new VerifyError('unreadable_input', error.message, { cause: error });
  }
}
