import { pinterestSettingsIssues, type PinterestPostSettings } from '@herald/contract';
import { AppError } from '../../lib/app-error.js';

export interface PinterestTargetToCheck {
  integrationId: string;
  /** The network's own name ("Pinterest"), not the composer's label. */
  networkName: string;
  /** The account's label in sentences. */
  label: string;
}

/**
 * The Pinterest settings each Pinterest account of a post is saved with
 * (docs/networks.md#pinterest-publishing). A draft may leave them incomplete; a post that is
 * scheduled or published needs its board, and a title and link Pinterest takes.
 */
export function settlePinterestSettings(
  targets: PinterestTargetToCheck[],
  chosen: Record<string, PinterestPostSettings> | undefined,
  isDraft: boolean,
): Map<string, PinterestPostSettings> {
  const pinterest = targets.filter((t) => t.networkName === 'Pinterest');
  const stray = Object.keys(chosen ?? {}).find(
    (id) => !pinterest.some((t) => t.integrationId === id),
  );
  if (stray)
    throw new AppError(
      'VALIDATION_FAILED',
      'pinterest names an account that is not one of the Pinterest accounts this post goes to.',
    );
  const settled = new Map<string, PinterestPostSettings>();
  const problems: string[] = [];
  for (const target of pinterest) {
    const settings = chosen?.[target.integrationId];
    if (settings) settled.set(target.integrationId, settings);
    if (isDraft) continue;
    if (!settings) {
      problems.push(`${target.label}: choose the Pinterest board this pin is saved on.`);
      continue;
    }
    problems.push(...pinterestSettingsIssues(settings).map((i) => `${target.label}: ${i.message}`));
  }
  if (problems.length > 0) throw new AppError('VALIDATION_FAILED', problems.join(' '));
  return settled;
}
