import { type Finding, flag, listShort, pass, skip } from '../finding.js';
import { validatorFor } from '../schema-validator.js';

export function checkSchema(
  sheet: { required_output_schema: object },
  submission: unknown,
  optional: boolean,
): Finding {
  if (submission === undefined) {
    return optional ? skip('Optional: there is no submission.') : flag('There is no submission.');
  }
  let validate;
  try {
    validate = validatorFor(sheet.required_output_schema);
  } catch (error) {
    return flag(`The flight sheet's output schema does not compile: ${(error as Error).message}.`);
  }
  if (validate(submission)) return pass('The submission matches the output schema.');
  const errors = (validate.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`,
  );
  return flag(`The submission does not match the output schema: ${listShort(errors)}.`);
}
