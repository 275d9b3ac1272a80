import { brandTextColor } from '@herald/contract';
import { escapeHtml, type MailMessage } from '../../lib/mailer.js';
import type { ReportData } from './report-data.js';
import { formatCount, formatRange, formatRate, formatSigned } from './report-format.js';
import { DEFAULT_BRAND_COLOR, reportFileName } from './report-pdf.js';

const LOGO_CID = 'brand-logo@herald';

/**
 * A report email (docs/reports.md#report-emails): a short branded note — the organization's
 * colour and logo (attached inline, so no mail client has to fetch it), the period and four
 * headline figures — with the PDF attached.
 */
export function reportEmail(
  data: ReportData,
  pdf: Buffer,
  recipients: string[],
  scheduleName: string,
): MailMessage {
  const { brand, overview } = data;
  const { kpis, range } = overview;
  const period = formatRange(range.from, range.to);
  const color = brand.color ?? DEFAULT_BRAND_COLOR;
  const onColor = brandTextColor(color);
  const figures: Array<[string, string]> = [
    ['Views', formatCount(kpis.views.value)],
    ['Interactions', formatCount(kpis.interactions.value)],
    ['Engagement rate', formatRate(kpis.engagementRate.value)],
    ['Followers gained', formatSigned(kpis.followersGained.value)],
  ];
  const intro = `Here is the social media report of ${brand.name} for ${period}. The full report, with the trend, the best times to post and the top posts, is attached as a PDF.`;
  const footer = `Sent by Herald for ${brand.name} (report "${scheduleName}"). To stop receiving it or change who does, ask ${brand.name}.`;
  const text = [
    `${brand.name} — social media report`,
    period,
    '',
    intro,
    '',
    ...figures.map(([label, value]) => `${label}: ${value}`),
    '',
    footer,
  ].join('\n');
  const logo = brand.logo
    ? `<img src="cid:${LOGO_CID}" alt="${escapeHtml(brand.name)}" style="display:block;max-height:48px;max-width:180px;background:#ffffff;padding:6px;border-radius:6px;margin-bottom:12px">`
    : '';
  const cells = figures
    .map(
      ([label, value]) =>
        `<td style="padding:12px;border:1px solid #e2e8f0;border-radius:8px;background:#f8fafc;width:25%"><div style="font-size:12px;color:#475569">${escapeHtml(label)}</div><div style="font-size:20px;font-weight:bold;color:#0f172a">${escapeHtml(value)}</div></td>`,
    )
    .join('');
  const html = `<div style="font-family:Arial,Helvetica,sans-serif;max-width:600px;margin:0 auto;color:#0f172a">
<div style="background:${color};color:${onColor};padding:24px;border-radius:8px 8px 0 0">${logo}<div style="font-size:22px;font-weight:bold">${escapeHtml(brand.name)}</div><div style="font-size:14px">Social media report · ${escapeHtml(period)}</div></div>
<div style="padding:24px;border:1px solid #e2e8f0;border-top:0;border-radius:0 0 8px 8px">
<p style="margin:0 0 16px">${escapeHtml(intro)}</p>
<table role="presentation" cellspacing="6" style="width:100%;border-collapse:separate"><tr>${cells}</tr></table>
<p style="color:#64748b;font-size:12px;margin:16px 0 0">${escapeHtml(footer)}</p>
</div></div>`;
  return {
    // A report's addresses are often several clients' people: none sees the others'.
    ...(recipients.length === 1
      ? { to: recipients[0]! }
      : { to: 'undisclosed-recipients:;', bcc: recipients.join(', ') }),
    subject: `${brand.name}: social media report, ${period}`,
    text,
    html,
    attachments: [
      {
        filename: reportFileName(brand.name, range.from, range.to),
        content: pdf,
        contentType: 'application/pdf',
      },
      ...(brand.logo
        ? [
            {
              filename: 'logo.png',
              content: brand.logo.png,
              contentType: 'image/png',
              cid: LOGO_CID,
            },
          ]
        : []),
    ],
  };
}
