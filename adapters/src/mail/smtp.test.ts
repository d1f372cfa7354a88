import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { smtpMailer } from './smtp.js';

interface Received {
  from: string | undefined;
  to: string[];
  data: string;
}

describe('SMTP mailer', () => {
  let server: SMTPServer;
  let port: number;
  const received: Received[] = [];

  beforeEach(async () => {
    received.length = 0;
    // A real SMTP server on loopback; nothing leaves the machine.
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers the message to the SMTP server of SMTP_URL and says it is configured', async () => {
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, 'runledger <no-reply@runledger.test>');
    expect(mailer.configured).toBe(true);
    await mailer.send({
      to: 'ada@example.com',
      subject: 'Your sign-in link',
      text: 'Open https://runledger.test/auth/verify?token=abc',
    });
    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe('no-reply@runledger.test');
    expect(received[0]!.to).toEqual(['ada@example.com']);
    expect(received[0]!.data).toContain('Subject: Your sign-in link');
    expect(received[0]!.data).toContain('https://runledger.test/auth/verify?token=abc');
  });

  it('rejects when the server refuses the message, so the caller never reports a mail as sent', async () => {
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, 'no-reply@runledger.test');
    server.onRcptTo = (_address, _session, callback) => callback(new Error('no such user'));
    await expect(
      mailer.send({ to: 'nobody@example.com', subject: 's', text: 't' }),
    ).rejects.toThrow();
    expect(received).toHaveLength(0);
  });
});
