import { BlockChecker, type BlockCheckOptions, type CheckedBlock } from '../export/block.js';
import { exportLineAt, forEachLineIn } from './export-lines.js';

/** Checks the whole lines in `bytes[0, length)` (see BlockChecker); never throws. */
export function checkBlockBytes(
  bytes: Buffer,
  length: number,
  final: boolean,
  options: BlockCheckOptions,
): CheckedBlock {
  try {
    const checker = new BlockChecker(options);
    forEachLineIn(bytes, 0, length, final, (start, end) =>
      checker.push(exportLineAt(bytes, start, end)),
    );
    return checker.finish();
  } catch {
    // The verifier checks an unclean block again itself, and meets the same error there.
    return { clean: false };
  }
}
