import type { NetworkSetupFinding, NetworkSetupReport } from '@herald/contract';
import type { Config } from '../../config.js';
import type { PlatformHttp } from '../types.js';
import { networkSetupReport } from './report.js';

export const DOCTOR_USAGE = `Usage: herald doctor [--live]

  Checks each network's setup: credentials, the redirect URI to register, the scopes and the
  products they need, media URLs, LinkedIn app kind, TikTok audit mode and domain verification,
  and whether LinkedIn and Meta still serve the API versions configured; with DATABASE_URL,
  whether the processes serving that database read the same media.
  --live  also asks each network's token endpoint whether it knows the client id and secret`;

const MARK = { ok: 'ok     ', warning: 'warning', problem: 'PROBLEM' } as const;
const MODE = {
  configured: 'real credentials',
  sandbox: 'local sandbox',
  unavailable: 'unavailable (no credentials)',
} as const;

/** The report as text for a terminal: one block per network, one line per finding. */
export function formatDoctorReport(report: NetworkSetupReport): string {
  const lines = [`Herald network setup (API_PUBLIC_URL ${report.apiPublicUrl})`];
  for (const network of report.networks) {
    lines.push('', `${network.name}: ${MODE[network.mode]}`);
    lines.push(`  redirect URI  ${network.redirectUri}`);
    lines.push(`  scopes        ${network.scopes.join(' ') || '(none)'}`);
    for (const f of network.findings) lines.push(`  ${MARK[f.level]}  ${f.message}`);
  }
  if (report.deployment.length > 0) {
    lines.push('', 'Processes serving the database:');
    for (const f of report.deployment) lines.push(`  ${MARK[f.level]}  ${f.message}`);
  }
  const count = (level: string) => allFindings(report).filter((f) => f.level === level).length;
  lines.push('', `${count('problem')} problem(s), ${count('warning')} warning(s).`);
  return lines.join('\n');
}

const allFindings = (report: NetworkSetupReport): NetworkSetupFinding[] => [
  ...report.networks.flatMap((n) => n.findings),
  ...report.deployment,
];

/**
 * `herald doctor [--live]`: prints the report and answers the exit code (1 when any finding is a
 * problem, so a deployment script can stop on it).
 */
export async function runDoctor(
  config: Config,
  args: string[],
  print: (text: string) => void,
  http: PlatformHttp = fetch,
  /** The deployment's findings (read from the database by the caller, when it has one). */
  deployment?: () => Promise<NetworkSetupFinding[]>,
): Promise<number> {
  const unknown = args.filter((a) => a !== '--live');
  if (unknown.length > 0) {
    print(`Unknown option ${unknown.join(' ')}.\n\n${DOCTOR_USAGE}`);
    return 2;
  }
  const report = await networkSetupReport(config, {
    live: args.includes('--live'),
    http,
    deployment: await deployment?.(),
  });
  print(formatDoctorReport(report));
  return allFindings(report).some((f) => f.level === 'problem') ? 1 : 0;
}
