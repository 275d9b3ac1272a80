import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type PDFKitModule from 'pdfkit';
import { type AnalyticsKpi, brandTextColor } from '@herald/contract';
import type { ReportData } from './report-data.js';
import {
  formatChange,
  formatCount,
  formatDay,
  formatInstant,
  formatRange,
  formatRate,
  formatSigned,
  NO_VALUE,
  plural,
  slugOf,
} from './report-format.js';

/**
 * The report as a PDF (docs/reports.md#the-pdf), drawn with PDFKit: text, vector charts and the
 * logo, no browser. A4 portrait: a cover in the organization's colour with its logo, name, the
 * range and accounts, and the headline figures against the previous period; then the daily
 * trend, the networks, the best times to post and the top posts; a footer with page numbers.
 * The text is set in Noto Sans (SIL Open Font License, from the @embedpdf/fonts-latin package),
 * embedded as a subset: PDF's standard fonts cover only Western European letters, and a client
 * called Łódź or a post in Greek must print. Characters the font lacks (emoji) are left out
 * rather than printed as empty boxes.
 */

type Doc = PDFKit.PDFDocument;

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const CONTENT = PAGE.width - 2 * MARGIN;
/** Content stops here; the footer is below. */
const BOTTOM = PAGE.height - 64;

/** Herald's own indigo, for an organization without a colour. */
export const DEFAULT_BRAND_COLOR = '#4f46e5';
const INK = '#0f172a';
const MUTED = '#475569';
const FAINT = '#94a3b8';
const RULE = '#e2e8f0';
const PANEL = '#f8fafc';
const UP = '#047857';
const DOWN = '#b91c1c';
/** The second series of the trend (interactions): Okabe–Ito vermilion, as the screen's. */
const SECOND_SERIES = '#D55E00';
/** ColorBrewer "Blues", as the screen's best-time map; the palest step is left out. */
const SEQUENTIAL = ['#c6dbef', '#9ecae1', '#6baed6', '#3182bd', '#08519c'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Accounts named on the cover; more are counted. */
const COVER_ACCOUNTS_MAX = 12;
/** Characters of a post's text considered for its excerpt (two lines are printed). */
const EXCERPT_MAX = 300;

/** `<org>-report-<from>-<to>.pdf`, the organization's name made safe for a file name. */
export const reportFileName = (organizationName: string, from: string, to: string) =>
  `${slugOf(organizationName)}-report-${from}-${to}.pdf`;

let fonts: Promise<{ regular: Buffer; bold: Buffer }> | undefined;
/** The two faces, read once per process from the font package's folder. */
function loadFonts() {
  fonts ??= (async () => {
    const main = createRequire(import.meta.url).resolve('@embedpdf/fonts-latin');
    const folder = join(dirname(main), '..', 'fonts');
    const [regular, bold] = await Promise.all([
      readFile(join(folder, 'NotoSans-Regular.ttf')),
      readFile(join(folder, 'NotoSans-Bold.ttf')),
    ]);
    return { regular, bold };
  })();
  fonts.catch(() => (fonts = undefined));
  return fonts;
}

let pdfkit: Promise<typeof PDFKitModule> | undefined;
/** PDFKit, loaded with the first report: a server that makes none never loads it. */
const loadPdfkit = () => (pdfkit ??= import('pdfkit').then((m) => m.default));

/** Whether the current font has a glyph for a code point (PDFKit's font, read through fontkit). */
type GlyphCheck = (codePoint: number) => boolean;

class Writer {
  y = MARGIN;
  private readonly hasGlyph: GlyphCheck;

  constructor(
    readonly doc: Doc,
    readonly brand: string,
    readonly onBrand: string,
  ) {
    doc.font('regular');
    const font = (doc as unknown as { _font?: { font?: { hasGlyphForCodePoint?: GlyphCheck } } })
      ._font?.font;
    const check = font?.hasGlyphForCodePoint?.bind(font);
    this.hasGlyph = check ?? (() => true);
  }

  /** Text as the font can print it: no characters it lacks, no control characters. */
  clean(text: string, oneLine = false): string {
    let out = '';
    for (const char of text.normalize('NFC')) {
      const code = char.codePointAt(0)!;
      if (char === '\n') out += oneLine ? ' ' : '\n';
      else if (/\s/u.test(char)) out += ' ';
      else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
      else if (this.hasGlyph(code)) out += char;
    }
    return (oneLine ? out.replace(/ {2,}/g, ' ') : out).trim();
  }

  style(size: number, color = INK, bold = false) {
    this.doc
      .font(bold ? 'bold' : 'regular')
      .fontSize(size)
      .fillColor(color);
    return this;
  }

  /** Writes at (x, y) within `width`; answers the height used. */
  at(text: string, x: number, y: number, width: number, options: PDFKit.Mixins.TextOptions = {}) {
    const clean = this.clean(text, options.lineBreak === false);
    const height = this.doc.heightOfString(clean, { width, ...options });
    this.doc.text(clean, x, y, { width, ...options });
    return Math.min(height, options.height ?? height);
  }

  /** A paragraph at the cursor, across the content. */
  paragraph(text: string, size = 9.5, color = MUTED, gap = 6) {
    this.style(size, color);
    this.y += this.at(text, MARGIN, this.y, CONTENT, { lineGap: 1.5 }) + gap;
  }

  heading(text: string) {
    this.ensure(60);
    this.doc.rect(MARGIN, this.y + 2, 4, 15).fill(this.brand);
    this.style(14, INK, true);
    this.at(text, MARGIN + 12, this.y, CONTENT - 12, { lineBreak: false });
    this.y += 26;
  }

  /** Starts a new page when less than `height` is left on this one. */
  ensure(height: number) {
    if (this.y + height <= BOTTOM) return;
    this.newPage();
  }

  newPage() {
    this.doc.addPage({ size: 'A4', margin: 0 });
    // The brand's strip along the top of every page after the cover.
    this.doc.rect(0, 0, PAGE.width, 6).fill(this.brand);
    this.y = MARGIN;
  }
}

/** A small triangle pointing up or down: the direction of a change (with its words beside). */
function arrow(doc: Doc, x: number, y: number, up: boolean, color: string) {
  if (up) doc.polygon([x, y + 6], [x + 3.5, y], [x + 7, y + 6]).fill(color);
  else doc.polygon([x, y], [x + 3.5, y + 6], [x + 7, y]).fill(color);
}

function cover(w: Writer, data: ReportData) {
  const { doc } = w;
  const { brand, overview } = data;
  const band = 200;
  doc.rect(0, 0, PAGE.width, band).fill(w.brand);
  let textTop = 64;
  if (brand.logo) {
    // On a white card: a dark logo stays visible on a dark colour, and a light one on a light.
    const maxW = 180;
    const maxH = 64;
    const scale = Math.min(maxW / brand.logo.width, maxH / brand.logo.height, 1);
    const width = Math.max(brand.logo.width * scale, 1);
    const height = Math.max(brand.logo.height * scale, 1);
    doc.roundedRect(MARGIN, 32, width + 20, height + 16, 6).fill('#ffffff');
    doc.image(brand.logo.png, MARGIN + 10, 40, { width, height });
    textTop = 32 + height + 16 + 14;
  }
  w.style(24, w.onBrand, true);
  const nameHeight = w.at(brand.name, MARGIN, textTop, CONTENT, {
    height: 64,
    ellipsis: true,
  });
  w.style(12, w.onBrand);
  w.at('Social media report', MARGIN, textTop + nameHeight + 4, CONTENT, { lineBreak: false });

  w.y = band + 28;
  w.style(18, INK, true);
  w.y += w.at(formatRange(overview.range.from, overview.range.to), MARGIN, w.y, CONTENT) + 4;
  w.style(10, MUTED);
  w.y +=
    w.at(
      `${plural(overview.range.days, 'day')}, compared with the ${plural(overview.range.days, 'day')} before: ${formatRange(overview.range.previousFrom, overview.range.previousTo)}.`,
      MARGIN,
      w.y,
      CONTENT,
    ) + 14;

  // What the report covers, in words.
  const accounts = overview.accounts;
  const named = accounts
    .slice(0, COVER_ACCOUNTS_MAX)
    .map((a) => `${a.name} (${a.platform})`)
    .join(', ');
  const more =
    accounts.length > COVER_ACCOUNTS_MAX
      ? `, and ${plural(accounts.length - COVER_ACCOUNTS_MAX, 'more account')}`
      : '';
  const filtered =
    (data.query.integrationIds?.length ?? 0) > 0 || (data.query.platformIds?.length ?? 0) > 0;
  const covers =
    accounts.length === 0
      ? 'No connected account.'
      : `${filtered ? 'Accounts' : 'All accounts'}: ${named}${more}.`;
  const facts: Array<[string, string]> = [
    ['Covers', covers],
    [
      'Prepared',
      `${formatInstant(data.generatedAt.toISOString(), data.timeZone)} (${data.timeZone})`,
    ],
  ];
  for (const [label, text] of facts) {
    w.style(9, FAINT, true);
    w.at(label.toUpperCase(), MARGIN, w.y + 1, 70, { lineBreak: false });
    w.style(10, INK);
    w.y += w.at(text, MARGIN + 72, w.y, CONTENT - 72, { lineGap: 1.5 }) + 8;
  }
  w.y += 14;
  headline(w, data);
}

interface KpiSpec {
  label: string;
  kpi: AnalyticsKpi;
  format: (value: number | null) => string;
}

/** The six headline figures, each with the previous period's and the change. */
function headline(w: Writer, data: ReportData) {
  const { kpis, range, engagementFormula } = data.overview;
  w.heading('Headline figures');
  const specs: KpiSpec[] = [
    { label: 'Views', kpi: kpis.views, format: formatCount },
    { label: 'Reach', kpi: kpis.reach, format: formatCount },
    { label: 'Interactions', kpi: kpis.interactions, format: formatCount },
    { label: 'Engagement rate', kpi: kpis.engagementRate, format: formatRate },
    { label: 'Followers gained', kpi: kpis.followersGained, format: formatSigned },
    { label: 'Posts published', kpi: kpis.postsPublished, format: formatCount },
  ];
  const gap = 12;
  const width = (CONTENT - 2 * gap) / 3;
  const height = 92;
  specs.forEach((spec, i) => {
    const x = MARGIN + (i % 3) * (width + gap);
    const y = w.y + Math.floor(i / 3) * (height + gap);
    kpiCard(w, spec, x, y, width, height, range.days);
  });
  w.y += 2 * height + gap + 12;
  w.paragraph(engagementFormula, 8.5, MUTED);
}

function kpiCard(
  w: Writer,
  { label, kpi, format }: KpiSpec,
  x: number,
  y: number,
  width: number,
  height: number,
  days: number,
) {
  const { doc } = w;
  doc.roundedRect(x, y, width, height, 8).fillAndStroke(PANEL, RULE);
  const inner = width - 24;
  w.style(9, MUTED);
  w.at(label, x + 12, y + 10, inner, { lineBreak: false });
  if (kpi.value === null) {
    w.style(13, FAINT, true);
    w.at('No data', x + 12, y + 28, inner, { lineBreak: false });
  } else {
    w.style(20, INK, true);
    w.at(format(kpi.value), x + 12, y + 24, inner, { lineBreak: false });
  }
  w.style(8.5, MUTED);
  w.at(
    `Previous: ${kpi.previous === null ? NO_VALUE : format(kpi.previous)}`,
    x + 12,
    y + 54,
    inner,
    {
      lineBreak: false,
    },
  );
  const period = `vs previous ${plural(days, 'day')}`;
  if (kpi.change === null) {
    w.style(8.5, FAINT);
    w.at('No comparison', x + 12, y + 70, inner, { lineBreak: false });
    return;
  }
  const color = kpi.change > 0 ? UP : kpi.change < 0 ? DOWN : MUTED;
  let textX = x + 12;
  if (kpi.change !== 0) {
    arrow(doc, textX, y + 73, kpi.change > 0, color);
    textX += 11;
  }
  w.style(8.5, color, true);
  w.at(`${formatChange(kpi.change)} ${period}`, textX, y + 70, inner - (textX - x - 12), {
    lineBreak: false,
  });
}

/** One day series as vector bars (a line past two months, where bars would be hairs). */
function seriesChart(
  w: Writer,
  title: string,
  days: Array<{ day: string; value: number | null }>,
  color: string,
) {
  const { doc } = w;
  const height = 96;
  w.ensure(height + 48);
  w.style(10, INK, true);
  w.at(title, MARGIN, w.y, CONTENT, { lineBreak: false });
  w.y += 18;
  const values = days.map((d) => d.value).filter((v): v is number => v !== null);
  const axisWidth = 44;
  const x0 = MARGIN + axisWidth;
  const width = CONTENT - axisWidth;
  const top = w.y;
  const base = top + height;
  if (values.length === 0) {
    doc.rect(x0, top, width, height).fill(PANEL);
    w.style(9, MUTED);
    w.at('No readings taken in this range.', x0, top + height / 2 - 6, width, {
      align: 'center',
      lineBreak: false,
    });
    w.y = base + 30;
    return;
  }
  const max = Math.max(...values, 1);
  const min = Math.min(...values, 0);
  const span = max - min;
  const yOf = (v: number) => base - ((v - min) / span) * height;
  // Axis: the top figure, zero, and a faint guide at each.
  w.style(7.5, MUTED);
  w.at(formatCount(max), MARGIN, top - 4, axisWidth - 6, { align: 'right', lineBreak: false });
  w.at(formatCount(min), MARGIN, base - 5, axisWidth - 6, { align: 'right', lineBreak: false });
  doc
    .moveTo(x0, top)
    .lineTo(x0 + width, top)
    .lineWidth(0.5)
    .stroke(RULE);
  doc
    .moveTo(x0, yOf(0))
    .lineTo(x0 + width, yOf(0))
    .lineWidth(0.75)
    .stroke(FAINT);
  const step = width / days.length;
  if (days.length <= 62) {
    const barWidth = Math.max(step * 0.7, 0.8);
    days.forEach((d, i) => {
      if (d.value === null) return;
      const y = yOf(Math.max(d.value, 0));
      const zero = yOf(Math.min(d.value, 0));
      doc
        .rect(x0 + i * step + (step - barWidth) / 2, y, barWidth, Math.max(zero - y, 0.5))
        .fill(color);
    });
  } else {
    // A line through the days with readings, broken where a day has none.
    let drawing = false;
    days.forEach((d, i) => {
      const x = x0 + i * step + step / 2;
      if (d.value === null) {
        if (drawing) doc.lineWidth(1.2).stroke(color);
        drawing = false;
        return;
      }
      if (drawing) doc.lineTo(x, yOf(d.value));
      else doc.moveTo(x, yOf(d.value));
      drawing = true;
    });
    if (drawing) doc.lineWidth(1.2).stroke(color);
  }
  // Days along the bottom: the first, the middle and the last.
  w.style(7.5, MUTED);
  const labelAt = (i: number, align: 'left' | 'center' | 'right') => {
    const center = x0 + i * step + step / 2;
    const x = align === 'left' ? x0 : align === 'right' ? x0 + width - 60 : center - 30;
    w.at(formatDay(days[i]!.day, false), x, base + 4, 60, { align, lineBreak: false });
  };
  labelAt(0, 'left');
  if (days.length > 2) labelAt(Math.floor((days.length - 1) / 2), 'center');
  if (days.length > 1) labelAt(days.length - 1, 'right');
  w.y = base + 26;
}

function trend(w: Writer, data: ReportData) {
  const { daily } = data.overview;
  w.heading('Trend');
  w.paragraph(
    'Per day, the views and interactions gained by the readings taken that day — older posts still being read count too. A day without readings has no bar.',
    9,
  );
  w.y += 4;
  seriesChart(
    w,
    'Views gained per day',
    daily.map((d) => ({ day: d.day, value: d.views })),
    w.brand,
  );
  seriesChart(
    w,
    'Interactions gained per day',
    daily.map((d) => ({ day: d.day, value: d.interactions })),
    SECOND_SERIES,
  );
}

/** A table of right-aligned figures after a first, left-aligned column. */
function table(
  w: Writer,
  columns: Array<{ label: string; width: number }>,
  rows: string[][],
  rowHeight = 20,
) {
  const { doc } = w;
  const header = () => {
    w.style(8, MUTED, true);
    let x = MARGIN;
    columns.forEach((c, i) => {
      w.at(c.label.toUpperCase(), x + 6, w.y + 6, c.width - 12, {
        align: i === 0 ? 'left' : 'right',
        lineBreak: false,
      });
      x += c.width;
    });
    w.y += rowHeight;
    doc
      .moveTo(MARGIN, w.y)
      .lineTo(MARGIN + CONTENT, w.y)
      .lineWidth(0.75)
      .stroke(RULE);
  };
  w.ensure(rowHeight * 2);
  header();
  rows.forEach((row, r) => {
    if (w.y + rowHeight > BOTTOM) {
      w.newPage();
      header();
    }
    if (r % 2 === 1) doc.rect(MARGIN, w.y, CONTENT, rowHeight).fill(PANEL);
    let x = MARGIN;
    row.forEach((cell, i) => {
      w.style(9, INK, i === 0);
      w.at(cell, x + 6, w.y + 5.5, columns[i]!.width - 12, {
        align: i === 0 ? 'left' : 'right',
        lineBreak: false,
        ellipsis: true,
      });
      x += columns[i]!.width;
    });
    w.y += rowHeight;
  });
  w.y += 14;
}

function networks(w: Writer, data: ReportData) {
  const list = data.overview.networks;
  if (list.length === 0) return;
  w.heading('By network');
  const figure = (CONTENT - 130) / 5;
  table(
    w,
    [
      { label: 'Network', width: 130 },
      { label: 'Posts', width: figure },
      { label: 'Views', width: figure },
      { label: 'Reach', width: figure },
      { label: 'Interactions', width: figure },
      { label: 'Engagement', width: figure },
    ],
    list.map((n) => [
      n.platform,
      formatCount(n.posts),
      formatCount(n.views),
      formatCount(n.reach),
      formatCount(n.interactions),
      formatRate(n.engagementRate),
    ]),
  );
}

const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;

function bestTimes(w: Writer, data: ReportData) {
  const { doc } = w;
  const map = data.bestTimes;
  const { from, to } = data.overview.range;
  w.heading('Best times to post');
  const rated = map.cells.filter((c) => c.engagementRate !== null);
  const best = [...rated]
    .sort((a, b) => b.engagementRate! - a.engagementRate! || b.posts - a.posts)
    .slice(0, 3);
  if (map.posts === 0) {
    w.paragraph(
      `No post published from ${formatDay(from)} to ${formatDay(to)} has been read yet, so there is no best time to show.`,
    );
    return;
  }
  w.paragraph(
    `Based on ${plural(map.posts, 'post')} published in the range, by the weekday and hour they went out in ${map.timezone}, coloured by engagement rate (darker is higher; an hour without posts is blank).`,
    9,
  );
  const label = 62;
  const cell = (CONTENT - label) / 24;
  const rowHeight = 15;
  w.ensure(rowHeight * 8 + 70);
  // Hours across the top, every third.
  w.style(7, MUTED);
  for (let h = 0; h < 24; h += 3)
    w.at(hourLabel(h), MARGIN + label + h * cell - 6, w.y, cell * 3, { lineBreak: false });
  w.y += 12;
  const values = rated.map((c) => c.engagementRate!);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const stepOf = (v: number) =>
    max === min
      ? Math.floor(SEQUENTIAL.length / 2)
      : Math.min(SEQUENTIAL.length - 1, Math.floor(((v - min) / (max - min)) * SEQUENTIAL.length));
  const byKey = new Map(map.cells.map((c) => [`${c.weekday}-${c.hour}`, c]));
  for (let day = 0; day < 7; day++) {
    const y = w.y + day * rowHeight;
    w.style(8, INK);
    w.at(WEEKDAYS[day]!, MARGIN, y + 3, label - 6, { lineBreak: false });
    for (let h = 0; h < 24; h++) {
      const x = MARGIN + label + h * cell;
      const found = byKey.get(`${day}-${h}`);
      if (!found) {
        doc
          .rect(x + 1, y + 1, cell - 2, rowHeight - 2)
          .lineWidth(0.5)
          .stroke(RULE);
      } else if (found.engagementRate === null) {
        doc.rect(x + 1, y + 1, cell - 2, rowHeight - 2).fill(RULE);
      } else {
        doc
          .rect(x + 1, y + 1, cell - 2, rowHeight - 2)
          .fill(SEQUENTIAL[stepOf(found.engagementRate)]!);
      }
    }
  }
  w.y += 7 * rowHeight + 10;
  // The legend: the colour steps from the lowest to the highest rate.
  w.style(7.5, MUTED);
  w.at(`Lower (${formatRate(min)})`, MARGIN + label, w.y, 90, { lineBreak: false });
  SEQUENTIAL.forEach((colour, i) =>
    doc.rect(MARGIN + label + 92 + i * 16, w.y, 14, 9).fill(colour),
  );
  w.style(7.5, MUTED);
  w.at(`Higher (${formatRate(max)})`, MARGIN + label + 92 + 5 * 16 + 6, w.y, 120, {
    lineBreak: false,
  });
  w.y += 22;
  if (best.length === 0) {
    w.paragraph('None of the posts gave an engagement rate yet.');
    return;
  }
  w.style(9.5, INK, true);
  w.at('Best slots', MARGIN, w.y, CONTENT, { lineBreak: false });
  w.y += 16;
  for (const slot of best) {
    w.style(9.5, INK);
    w.y +=
      w.at(
        `${WEEKDAYS[slot.weekday]} ${hourLabel(slot.hour)}–${hourLabel((slot.hour + 1) % 24)}: ${formatRate(slot.engagementRate)} engagement rate, ${plural(slot.posts, 'post')}`,
        MARGIN + 10,
        w.y,
        CONTENT - 10,
      ) + 3;
  }
  w.y += 10;
}

function topPosts(w: Writer, data: ReportData) {
  const { doc } = w;
  const posts = data.overview.topPosts;
  w.heading('Top posts');
  if (posts.length === 0) {
    w.paragraph('No post published in this range has been read yet.');
    return;
  }
  w.paragraph('The range’s posts with the most views, by their latest reading.', 9);
  const figure = 70;
  const textWidth = CONTENT - 22 - 3 * figure;
  const header = () => {
    w.style(8, MUTED, true);
    w.at('POST', MARGIN + 22, w.y, textWidth, { lineBreak: false });
    ['VIEWS', 'INTERACTIONS', 'ENGAGEMENT'].forEach((label, i) =>
      w.at(label, MARGIN + 22 + textWidth + i * figure, w.y, figure - 4, {
        align: 'right',
        lineBreak: false,
      }),
    );
    w.y += 14;
    doc
      .moveTo(MARGIN, w.y)
      .lineTo(MARGIN + CONTENT, w.y)
      .lineWidth(0.75)
      .stroke(RULE);
    w.y += 6;
  };
  header();
  posts.forEach((post, i) => {
    const rowHeight = 50;
    if (w.y + rowHeight > BOTTOM) {
      w.newPage();
      header();
    }
    const top = w.y;
    w.style(10, MUTED, true);
    w.at(String(i + 1), MARGIN, top, 18, { lineBreak: false });
    const excerpt = w.clean(
      [post.title, post.text].filter(Boolean).join(' — ').slice(0, EXCERPT_MAX),
      true,
    );
    w.style(9.5, INK);
    w.at(excerpt || '(no text)', MARGIN + 22, top, textWidth - 8, {
      height: 28,
      ellipsis: true,
      lineGap: 1,
    });
    const when = post.publishedAt ? formatInstant(post.publishedAt, data.timeZone) : '';
    const where = [
      post.platform,
      post.accountName,
      when,
      post.source === 'external' ? 'published outside Herald' : null,
    ]
      .filter(Boolean)
      .join(' · ');
    w.style(8, MUTED);
    w.at(where, MARGIN + 22, top + 30, textWidth - 8, { lineBreak: false, ellipsis: true });
    [
      formatCount(post.views),
      formatCount(post.interactions),
      formatRate(post.engagementRate),
    ].forEach((text, c) => {
      w.style(9.5, INK, c === 0);
      w.at(text, MARGIN + 22 + textWidth + c * figure, top, figure - 4, {
        align: 'right',
        lineBreak: false,
      });
    });
    w.y = top + rowHeight - 6;
    doc
      .moveTo(MARGIN, w.y)
      .lineTo(MARGIN + CONTENT, w.y)
      .lineWidth(0.5)
      .stroke(RULE);
    w.y += 6;
  });
}

/** Page numbers and the report's name along the bottom of every page. */
function footers(w: Writer, data: ReportData) {
  const { doc } = w;
  const { start, count } = doc.bufferedPageRange();
  const left = `${data.brand.name} · Social media report · ${formatRange(data.overview.range.from, data.overview.range.to)}`;
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const y = PAGE.height - 40;
    doc
      .moveTo(MARGIN, y - 8)
      .lineTo(MARGIN + CONTENT, y - 8)
      .lineWidth(0.5)
      .stroke(RULE);
    w.style(8, MUTED);
    w.at(left, MARGIN, y, CONTENT - 90, { lineBreak: false, ellipsis: true });
    w.at(`Page ${i - start + 1} of ${count}`, MARGIN + CONTENT - 90, y, 90, {
      align: 'right',
      lineBreak: false,
    });
  }
}

/**
 * Draws the report and answers the PDF as a stream: its bytes flow out as PDFKit writes them
 * (the pages are kept until the end, for "Page n of N"; a report is a few pages whatever the
 * range: at most 10 posts, a day series, a map of 168 cells, a logo of at most 480 pixels).
 */
export async function renderReportPdf(data: ReportData): Promise<Readable> {
  const [PDFDocument, { regular, bold }] = await Promise.all([loadPdfkit(), loadFonts()]);
  const brand = data.brand.color ?? DEFAULT_BRAND_COLOR;
  const title = `${data.brand.name}: social media report, ${formatRange(data.overview.range.from, data.overview.range.to)}`;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    bufferPages: true,
    info: {
      Title: title,
      Author: data.brand.name,
      Subject: 'Social media report',
      Creator: 'Herald',
      CreationDate: data.generatedAt,
    },
    lang: 'en',
    displayTitle: true,
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  const w = new Writer(doc, brand, brandTextColor(brand));
  cover(w, data);
  w.newPage();
  trend(w, data);
  networks(w, data);
  bestTimes(w, data);
  w.newPage();
  topPosts(w, data);
  footers(w, data);
  doc.end();
  return doc;
}

/** The whole PDF in memory: an email's attachment (a few hundred kilobytes at most). */
export async function renderReportPdfBuffer(data: ReportData): Promise<Buffer> {
  const stream = await renderReportPdf(data);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
