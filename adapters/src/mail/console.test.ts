import { describe, expect, it } from 'vitest';
import { consoleMailer } from './console.js';

describe('consoleMailer', () => {
  it('logs recipient and subject but never the body with its link', async () => {
    const lines: string[] = [];
    const mailer = consoleMailer((line) => lines.push(line));
    const token = 'Zm9vYmFyLXNlY3JldC10b2tlbi0xMjM0NTY3ODkwYWJj';
    await mailer.send({
      to: 'a@example.com',
      subject: 'Your runledger sign-in link',
      text: `Sign in: http://localhost:8080/auth/verify?token=${token}`,
    });
    expect(mailer.configured).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('a@example.com');
    expect(lines[0]).toContain('Your runledger sign-in link');
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).not.toContain('/auth/verify');
  });
});
