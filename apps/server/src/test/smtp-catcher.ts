import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it. */
export interface CaughtMail {
  /** The envelope's recipients. */
  to: string[];
  raw: string;
}

/**
 * A local SMTP server that keeps every message it is sent (as the invitation emails' test does),
 * for `createMailer(catcher.url, …)`. `close()` stops it.
 */
export async function startSmtpCatcher() {
  const received: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    size: 20 * 1024 * 1024,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('latin1')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The parts of a MIME message: each part's headers (lower-cased names) and decoded body. */
export function mimeParts(raw: string): Array<{ headers: Record<string, string>; body: Buffer }> {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1]!);
  const parts: Array<{ headers: Record<string, string>; body: Buffer }> = [];
  for (const boundary of boundaries) {
    for (const chunk of raw.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) continue;
      const [head, ...rest] = chunk.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      const headers: Record<string, string> = {};
      for (const line of head!.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      if (/multipart\//i.test(headers['content-type'] ?? '')) continue;
      const text = rest.join('\n\n');
      const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
      const body =
        encoding === 'base64'
          ? Buffer.from(text.replace(/\s+/g, ''), 'base64')
          : encoding === 'quoted-printable'
            ? Buffer.from(
                text
                  .replace(/=\r?\n/g, '')
                  .replace(/=([0-9A-F]{2})/gi, (_, h: string) =>
                    String.fromCharCode(parseInt(h, 16)),
                  ),
                'latin1',
              )
            : Buffer.from(text, 'latin1');
      parts.push({ headers, body });
    }
  }
  return parts;
}
