import { describe, expect, it } from 'vitest';
import {
  DatasetCreateBody,
  JobCreateBody,
  MemberCreateBody,
  QuoteBody,
  WorkerArtifactsBody,
  WorkerLogsBody,
} from './router.js';

describe('router request schemas', () => {
  it('accept and ignore a caller rate on quote and job creation, and reject other unknown keys', () => {
    const quote = { member_id: 'mbr_1', node_class: 'gpu_a_96gb', hours: 2.5 };
    expect(QuoteBody.safeParse({ ...quote, rate: 0.01, hourly_rate: '0.01' }).success).toBe(true);
    expect(QuoteBody.safeParse({ ...quote, price: 1 }).success).toBe(false);
    const job = { ...quote, type: 'fine_tune' };
    expect(JobCreateBody.safeParse({ ...job, hourly_rate: 0.01 }).success).toBe(true);
    expect(JobCreateBody.safeParse({ ...job, amount: '1.00' }).success).toBe(false);
  });

  it('reject an unknown node class or job type', () => {
    expect(QuoteBody.safeParse({ member_id: 'm', node_class: 'gpu_c', hours: 1 }).success).toBe(
      false,
    );
    expect(
      JobCreateBody.safeParse({ member_id: 'm', node_class: 'gpu_a_96gb', hours: 1, type: 'x' })
        .success,
    ).toBe(false);
  });

  it('are strict everywhere else', () => {
    expect(
      MemberCreateBody.safeParse({ email: 'a@example.com', name: 'A', role: 'x' }).success,
    ).toBe(false);
    expect(DatasetCreateBody.safeParse({ name: 'd', staging: 'yes' }).success).toBe(false);
    expect(WorkerLogsBody.safeParse({ lease_token: 't', lines: [] }).success).toBe(false);
    expect(
      WorkerArtifactsBody.safeParse({
        lease_token: 't',
        artifacts: [{ name: 'a', uri: 'u', sha256: 'XYZ' }],
      }).success,
    ).toBe(false);
  });

  it('normalizes the member e-mail', () => {
    expect(MemberCreateBody.parse({ email: ' Ada@Example.COM ', name: 'Ada' }).email).toBe(
      'ada@example.com',
    );
  });
});
