import type { Deps } from '../deps.js';
import type { RunUseCases } from './api.js';
import { runInputUseCases } from './inputs.js';
import { runMintUseCase } from './mint.js';
import { runReviewUseCases } from './review.js';

/** The run use cases: inputs (create, evidence, submission), review (audit to approval), minting. */
export function runUseCases(deps: Deps): RunUseCases {
  return { ...runInputUseCases(deps), ...runReviewUseCases(deps), ...runMintUseCase(deps) };
}
