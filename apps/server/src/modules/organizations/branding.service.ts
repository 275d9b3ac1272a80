import type { Readable } from 'node:stream';
import {
  LOGO_MAX_BYTES,
  LOGO_MIME_TYPES,
  LOGO_TYPE_MESSAGE,
  type Organization,
  type OrganizationBranding,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { loadSharp } from '../../lib/sharp.js';
import type { MediaStore } from '../../media/media-store.js';
import * as repo from './organizations.repository.js';
import { brandingOf, toOrganizationDto } from './organizations.service.js';

/**
 * An organization's branding (docs/reports.md#branding): its logo, a file of the media store
 * (local folder or S3) named on its row, and its colour. Reports, report emails and the pages
 * guests see draw them.
 */
export interface BrandingDeps {
  db: Db;
  media: Pick<MediaStore, 'ingestImage' | 'remove' | 'signedUrl' | 'readAll'>;
}

const sign = (deps: BrandingDeps) => (key: string) => deps.media.signedUrl(key);

const notFound = () => new AppError('NOT_FOUND', 'This organization does not exist.');

/** Sets the brand colour (`#rrggbb`, already checked), or removes it with null. */
export async function setBrandColor(
  deps: BrandingDeps,
  organizationId: string,
  color: string | null,
): Promise<Organization> {
  const org = await repo.updateBranding(deps.db, organizationId, { brandColor: color });
  if (!org) throw notFound();
  return toOrganizationDto(org, sign(deps));
}

/**
 * Stores an uploaded logo (PNG, JPEG or WebP, at most LOGO_MAX_BYTES, sniffed and decoded by
 * the media store) and puts it on the organization; the logo it replaces is removed from
 * storage once the row names the new one. On any failure the new file is removed.
 */
export async function replaceLogo(
  deps: BrandingDeps,
  organizationId: string,
  file: Readable,
  fileName: string,
): Promise<Organization> {
  const stored = await deps.media.ingestImage(
    file,
    { organizationId, fileName, name: 'brand-logo' },
    { maxBytes: LOGO_MAX_BYTES, types: LOGO_MIME_TYPES, typeMessage: LOGO_TYPE_MESSAGE },
  );
  let previous: string | null;
  let org: repo.OrganizationRow | null;
  try {
    // Under the row's lock: of two uploads at once, each removes the file the other replaced.
    ({ previous, org } = await deps.db.transaction(async (tx) => {
      const key = await repo.lockedLogoKey(tx, organizationId);
      if (key === undefined) throw notFound();
      return {
        previous: key,
        org: await repo.updateBranding(tx, organizationId, { brandLogoKey: stored.storageKey }),
      };
    }));
  } catch (error) {
    await deps.media.remove([stored.storageKey]).catch(() => {});
    throw error;
  }
  if (previous) await deps.media.remove([previous]).catch(() => {});
  return toOrganizationDto(org!, sign(deps));
}

/** Takes the logo off the organization and out of storage. */
export async function removeLogo(deps: BrandingDeps, organizationId: string) {
  const { previous, org } = await deps.db.transaction(async (tx) => {
    const key = await repo.lockedLogoKey(tx, organizationId);
    if (key === undefined) throw notFound();
    return {
      previous: key,
      org: await repo.updateBranding(tx, organizationId, { brandLogoKey: null }),
    };
  });
  if (previous) await deps.media.remove([previous]).catch(() => {});
  return toOrganizationDto(org!, sign(deps));
}

/** The organization's logo key and colour, for a page that serves the logo its own way. */
export async function readBranding(db: Db, organizationId: string) {
  const org = await repo.findOrganization(db, organizationId);
  if (!org) throw notFound();
  return { logoKey: org.brandLogoKey, color: org.brandColor };
}

/** The branding other screens show, with the logo as a signed URL. */
export async function getOrganizationBranding(
  deps: BrandingDeps,
  organizationId: string,
): Promise<OrganizationBranding> {
  const org = await repo.findOrganization(deps.db, organizationId);
  if (!org) throw notFound();
  return brandingOf(org, sign(deps));
}

/** The longest side of the logo drawn in a report or an email (twice its printed size). */
const REPORT_LOGO_SIDE = 480;

export interface ReportBrand {
  name: string;
  color: string | null;
  /** The logo as a PNG of at most REPORT_LOGO_SIDE pixels a side, with its size; null without one. */
  logo: { png: Buffer; width: number; height: number } | null;
}

/**
 * The organization's name, colour and logo for a report. The logo is read from storage and made
 * a small PNG: PDFs and mail clients take PNG everywhere (not WebP), and a 2 MB original would
 * weigh on every report. A logo that cannot be read any more (removed from storage by hand)
 * leaves the report without one rather than failing it.
 */
export async function readReportBrand(
  deps: BrandingDeps,
  organizationId: string,
  log?: { warn(details: object, message: string): void },
): Promise<ReportBrand> {
  const org = await repo.findOrganization(deps.db, organizationId);
  if (!org) throw notFound();
  let logo: ReportBrand['logo'] = null;
  if (org.brandLogoKey) {
    try {
      const sharp = await loadSharp();
      const { data, info } = await sharp(await deps.media.readAll(org.brandLogoKey))
        .rotate()
        .resize(REPORT_LOGO_SIDE, REPORT_LOGO_SIDE, { fit: 'inside', withoutEnlargement: true })
        .png()
        .toBuffer({ resolveWithObject: true });
      logo = { png: data, width: info.width, height: info.height };
    } catch (err) {
      log?.warn({ err, organizationId }, 'the organization logo could not be read for a report');
    }
  }
  return { name: org.name, color: org.brandColor, logo };
}
