export interface RunledgerConfig {
  /** Base of the links put into e-mails and dev_link, e.g. http://localhost:8080. */
  publicBaseUrl: string;
  /** In production a dev_link is never returned. */
  production: boolean;
  magicLinkTtlMinutes: number;
  inviteTtlHours: number;
  receiptPrefix: string;
  /** Router lease time to live (LEASE_TTL_SECONDS). */
  leaseTtlSeconds: number;
  /** Attempts before an expired lease fails the job instead of requeueing it (JOB_MAX_ATTEMPTS). */
  jobMaxAttempts: number;
  /** How long a tribunal runner's claim lives without a status report (TRIBUNAL_CLAIM_TTL_SECONDS). */
  tribunalClaimTtlSeconds: number;
  /** Claims that may expire before a grading task fails instead of being requeued (TRIBUNAL_MAX_ATTEMPTS). */
  tribunalMaxAttempts: number;
}

export const defaultRunledgerConfig: RunledgerConfig = {
  publicBaseUrl: 'http://localhost:8080',
  production: false,
  magicLinkTtlMinutes: 10,
  inviteTtlHours: 168,
  receiptPrefix: 'rcpt',
  leaseTtlSeconds: 600,
  jobMaxAttempts: 3,
  tribunalClaimTtlSeconds: 300,
  tribunalMaxAttempts: 3,
};
