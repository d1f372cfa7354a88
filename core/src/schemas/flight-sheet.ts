import { z } from 'zod';
import { JSON_POINTER } from './json-pointer.js';
import { Sha256Hex, NextCursor, Timestamp } from './common.js';
import { CheckCategory, CompareOp, EvidenceKind, RuleSeverity } from './enums.js';

const Pointer = z.string().max(512).regex(JSON_POINTER, 'must be a JSON pointer (RFC 6901)');
const NonNegativeDecimal = z.union([
  z.number().nonnegative(),
  z.string().regex(/^(0|[1-9][0-9]*)(\.[0-9]+)?$/, 'must be a non-negative decimal'),
]);
/** A compare operand: a pointer into the submission, or a literal number. */
const Operand = z.union([Pointer, z.number()]);

export const RequiredCheck = z.strictObject({
  op: z.literal('required'),
  paths: z.array(Pointer).min(1).max(100),
});
export const SchemaCheck = z.strictObject({ op: z.literal('schema') });
export const SumCheck = z.strictObject({
  op: z.literal('sum'),
  items: Pointer,
  field: z.string().min(1).max(128),
  equals: Pointer,
  tolerance: NonNegativeDecimal.optional(),
});
export const CompareCheck = z.strictObject({
  op: z.literal('compare'),
  left: Operand,
  cmp: CompareOp,
  right: Operand,
});
export const EvidenceCheck = z.strictObject({
  op: z.literal('evidence'),
  min: z.int().min(1).max(1000),
  kinds: z.array(EvidenceKind).min(1).optional(),
});
export const DenyTermsCheck = z.strictObject({
  op: z.literal('deny_terms'),
  terms: z.array(z.string().min(1).max(200)).min(1).max(500),
  paths: z.array(Pointer).min(1).max(100).optional(),
});
export const AllowValuesCheck = z.strictObject({
  op: z.literal('allow_values'),
  path: Pointer,
  values: z
    .array(z.union([z.string(), z.number(), z.boolean(), z.null()]))
    .min(1)
    .max(1000),
});

/** The deterministic rule language of docs/design.md#flight-sheets, one variant per `op`. */
export const RuleCheck = z.discriminatedUnion('op', [
  RequiredCheck,
  SchemaCheck,
  SumCheck,
  CompareCheck,
  EvidenceCheck,
  DenyTermsCheck,
  AllowValuesCheck,
]);

/** The category each op belongs to; a rule's category must match its check. */
export const CATEGORY_OF_OP = {
  required: 'structure',
  schema: 'schema',
  sum: 'math',
  compare: 'math',
  evidence: 'evidence',
  deny_terms: 'policy',
  allow_values: 'policy',
} as const satisfies Record<RuleCheck['op'], CheckCategory>;

const RuleBase = {
  key: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'must be 1-64 letters, digits, _ . or -'),
  label: z.string().min(1).max(200),
  category: CheckCategory,
  severity: RuleSeverity,
  /** When the rule's inputs are absent from the submission, the check is skipped instead of flagged. */
  optional: z.boolean().optional(),
};

export const AutoRule = z.strictObject({ ...RuleBase, kind: z.literal('auto'), check: RuleCheck });
export const ChecklistRule = z.strictObject({
  ...RuleBase,
  kind: z.literal('checklist'),
  /** What a human grader should look at; becomes the open check's detail. */
  guidance: z.string().min(1).max(2000),
});
export const FlightSheetRule = z.discriminatedUnion('kind', [AutoRule, ChecklistRule]);

const Slug = z
  .string()
  .max(64)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lowercase words joined by hyphens');

/** The hashed content of a flight sheet; also the body of `POST /flight-sheets`. */
export const FlightSheetInput = z.strictObject({
  slug: Slug,
  name: z.string().min(1).max(200),
  version: z
    .string()
    .regex(/^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/, 'must be MAJOR.MINOR.PATCH'),
  lane: Slug,
  summary: z.string().max(2000),
  pass_threshold: z.int().min(0).max(100),
  fail_threshold: z.int().min(0).max(100),
  audit_checks: z.array(FlightSheetRule).min(1).max(200),
  /** JSON Schema 2020-12 that a submission must match. */
  required_output_schema: z.record(z.string(), z.unknown()),
});

export const FlightSheet = FlightSheetInput.extend({
  id: z.string(),
  /** sha256 of the canonical JSON of the content fields (FlightSheetInput's keys); a run pins it. */
  sha256: Sha256Hex,
  builtin: z.boolean(),
  /** null for built-in sheets, which ship with the code. */
  created_at: Timestamp.nullable(),
});

export const FlightSheetList = z.object({
  flight_sheets: z.array(FlightSheet),
  next: NextCursor,
});

export type RequiredCheck = z.infer<typeof RequiredCheck>;
export type SchemaCheck = z.infer<typeof SchemaCheck>;
export type SumCheck = z.infer<typeof SumCheck>;
export type CompareCheck = z.infer<typeof CompareCheck>;
export type EvidenceCheck = z.infer<typeof EvidenceCheck>;
export type DenyTermsCheck = z.infer<typeof DenyTermsCheck>;
export type AllowValuesCheck = z.infer<typeof AllowValuesCheck>;
export type RuleCheck = z.infer<typeof RuleCheck>;
export type AutoRule = z.infer<typeof AutoRule>;
export type ChecklistRule = z.infer<typeof ChecklistRule>;
export type FlightSheetRule = z.infer<typeof FlightSheetRule>;
export type FlightSheetInput = z.infer<typeof FlightSheetInput>;
export type FlightSheet = z.infer<typeof FlightSheet>;
export type FlightSheetList = z.infer<typeof FlightSheetList>;
