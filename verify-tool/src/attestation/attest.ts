import { canonicalJson } from '../canonical/json.js';
import {
  IN_TOTO_PAYLOAD_TYPE,
  signEnvelope,
  type DsseEnvelope,
  type EnvelopeSigner,
} from './dsse.js';
import { buildReceiptStatement, type StatementInput } from './statement.js';

const encoder = new TextEncoder();

/** The receipt's statement, serialized as RFC 8785 canonical JSON and signed into a DSSE envelope. */
export function attestReceipt(input: StatementInput, signer: EnvelopeSigner): DsseEnvelope {
  const statement = buildReceiptStatement(input);
  const body = encoder.encode(canonicalJson(statement));
  return signEnvelope(IN_TOTO_PAYLOAD_TYPE, body, signer);
}
