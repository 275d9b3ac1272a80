import { execFile } from 'node:child_process';

/** Output of a tool run; the tools here print small things (JSON, one PNG frame). */
const MAX_OUTPUT = 32 * 1024 * 1024;

export interface ToolRun {
  (args: string[], timeoutMs?: number): Promise<Buffer>;
}

/**
 * ffmpeg and ffprobe, when the machine has them. Whether they run is checked once, on first use;
 * without them video is measured by the built-in parser and gets a generated poster.
 */
export class MediaTools {
  private readonly checks = new Map<string, Promise<boolean>>();

  constructor(
    private readonly ffmpegPath: string,
    private readonly ffprobePath: string,
  ) {}

  /** ffprobe, or null when it is not installed. */
  async ffprobe(): Promise<ToolRun | null> {
    return (await this.isAvailable(this.ffprobePath)) ? this.runner(this.ffprobePath) : null;
  }

  /** ffmpeg, or null when it is not installed. */
  async ffmpeg(): Promise<ToolRun | null> {
    return (await this.isAvailable(this.ffmpegPath)) ? this.runner(this.ffmpegPath) : null;
  }

  private isAvailable(path: string): Promise<boolean> {
    let check = this.checks.get(path);
    if (!check) {
      check = run(path, ['-version'], 10_000).then(
        () => true,
        () => false,
      );
      this.checks.set(path, check);
    }
    return check;
  }

  private runner(path: string): ToolRun {
    return (args, timeoutMs = 60_000) => run(path, args, timeoutMs);
  }
}

function run(file: string, args: string[], timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { encoding: 'buffer', timeout: timeoutMs, maxBuffer: MAX_OUTPUT, killSignal: 'SIGKILL' },
      (err, stdout, stderr) => {
        if (err) {
          const detail = stderr.toString('utf8').trim().split('\n').slice(-3).join(' ');
          reject(new Error(`${file} failed: ${err.message}${detail ? ` (${detail})` : ''}`));
        } else resolve(stdout);
      },
    );
  });
}
