/**
 * JSON Schemas (draft 2020-12) written from the specifications, kept here so a drift in what the
 * server writes fails a test: the in-toto Statement v1 (statement.md, resource_descriptor.md,
 * digest_set.md, field_types.md) and the SLSA Verification Summary predicate v1
 * (slsa.dev/spec/v1.0/verification_summary). Unknown fields are allowed, as both specify
 * ("consumers MUST ignore unrecognized fields").
 */

const DIGEST_SET = {
  type: 'object',
  minProperties: 1,
  // DigestSet: algorithm name → lowercase hex (hex for the sha* family).
  additionalProperties: { type: 'string' },
  properties: { sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
} as const;

/** ResourceDescriptor: all fields optional, but one of uri, digest, content is required. */
const RESOURCE_DESCRIPTOR = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    uri: { type: 'string', format: 'uri' },
    digest: DIGEST_SET,
    content: { type: 'string', contentEncoding: 'base64' },
    downloadLocation: { type: 'string', format: 'uri' },
    mediaType: { type: 'string' },
    annotations: { type: 'object' },
  },
  anyOf: [{ required: ['uri'] }, { required: ['digest'] }, { required: ['content'] }],
} as const;

export const IN_TOTO_STATEMENT_V1 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://in-toto.io/Statement/v1',
  type: 'object',
  required: ['_type', 'subject', 'predicateType'],
  properties: {
    _type: { const: 'https://in-toto.io/Statement/v1' },
    // Each subject MUST have digest set.
    subject: {
      type: 'array',
      minItems: 1,
      items: { allOf: [RESOURCE_DESCRIPTOR, { type: 'object', required: ['digest'] }] },
    },
    predicateType: { type: 'string', format: 'uri' },
    predicate: { type: 'object' },
  },
} as const;

/** The predicate of predicateType https://slsa.dev/verification_summary/v1. */
export const SLSA_VSA_V1_PREDICATE = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://slsa.dev/verification_summary/v1',
  type: 'object',
  required: [
    'verifier',
    'timeVerified',
    'resourceUri',
    'policy',
    'verificationResult',
    'verifiedLevels',
  ],
  properties: {
    verifier: {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'string', format: 'uri' } },
    },
    // Timestamp: RFC 3339 in UTC.
    timeVerified: { type: 'string', format: 'date-time', pattern: 'Z$' },
    resourceUri: { type: 'string', format: 'uri' },
    // The policy entry MUST contain a uri.
    policy: { allOf: [RESOURCE_DESCRIPTOR, { type: 'object', required: ['uri'] }] },
    // Each entry MUST contain a digest of the attestation.
    inputAttestations: {
      type: 'array',
      items: { allOf: [RESOURCE_DESCRIPTOR, { type: 'object', required: ['digest'] }] },
    },
    verificationResult: { enum: ['PASSED', 'FAILED'] },
    // SlsaResult: custom values MAY be used but MUST NOT start with SLSA_ (unless one of the spec's).
    verifiedLevels: {
      type: 'array',
      items: {
        type: 'string',
        anyOf: [
          {
            enum: [
              'SLSA_BUILD_LEVEL_0',
              'SLSA_BUILD_LEVEL_1',
              'SLSA_BUILD_LEVEL_2',
              'SLSA_BUILD_LEVEL_3',
            ],
          },
          { not: { pattern: '^SLSA_' } },
        ],
      },
    },
    dependencyLevels: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
    slsaVersion: { type: 'string', pattern: '^\\d+\\.\\d+$' },
  },
  // Extension fields: names that are URIs.
  propertyNames: {
    anyOf: [
      {
        enum: [
          'verifier',
          'timeVerified',
          'resourceUri',
          'policy',
          'inputAttestations',
          'verificationResult',
          'verifiedLevels',
          'dependencyLevels',
          'slsaVersion',
        ],
      },
      { pattern: '^https?://' },
    ],
  },
} as const;

/** The DSSE JSON envelope (envelope.md): payload, payloadType and signatures[].sig are required. */
export const DSSE_ENVELOPE = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['payload', 'payloadType', 'signatures'],
  properties: {
    payload: { type: 'string', contentEncoding: 'base64' },
    payloadType: { type: 'string' },
    signatures: {
      type: 'array',
      items: {
        type: 'object',
        required: ['sig'],
        properties: { keyid: { type: 'string' }, sig: { type: 'string' } },
      },
    },
  },
} as const;
