/** A real local SMTP server (smtp-server) that keeps every message it receives. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The raw message with quoted-printable soft breaks and escapes undone (good enough for assertions). */
  decoded: string;
}

const decodeQp = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

export async function startSmtpReceiver(options: { failWith?: number } = {}) {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (options.failWith !== undefined) {
          const error = Object.assign(new Error('mailbox unavailable'), { responseCode: options.failWith });
          return callback(error);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '';
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        mails.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw, subject, decoded: decodeQp(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
