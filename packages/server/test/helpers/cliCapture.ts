/** What `runCli` prints, captured: stdout, stderr and the JSON log lines (parsed), without signal handlers. */
import { Writable } from 'node:stream';

export function captureCli() {
  const out: string[] = [];
  const err: string[] = [];
  const logs: Record<string, unknown>[] = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { out, err, logs, io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), logDestination, handleSignals: false } };
}
