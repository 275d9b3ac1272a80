/**
 * Reads a PDF back as a PDF reader does (Mozilla's pdf.js): for tests that check what a
 * generated report really holds, not how it was meant to be drawn.
 */
export interface ReadPdf {
  pages: number;
  /** Each page's text, its pieces joined by spaces. */
  pageTexts: string[];
  /** Every page's text in one string. */
  text: string;
  /** Images painted per page. */
  imagesPerPage: number[];
  /** The fill colours used (`#rrggbb`), in the order first used. */
  fillColors: string[];
  info: Record<string, unknown>;
}

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const loading = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
  });
  const doc = await loading.promise;
  const pageTexts: string[] = [];
  const imagesPerPage: number[] = [];
  const fillColors = new Set<string>();
  const imageOps = new Set([pdfjs.OPS.paintImageXObject, pdfjs.OPS.paintInlineImageXObject]);
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    pageTexts.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' '),
    );
    const ops = await page.getOperatorList();
    let images = 0;
    ops.fnArray.forEach((fn, i) => {
      if (imageOps.has(fn)) images += 1;
      if (fn === pdfjs.OPS.setFillRGBColor) {
        const args = ops.argsArray[i] as unknown[];
        const color =
          typeof args[0] === 'string'
            ? args[0]
            : `#${(args as number[])
                .slice(0, 3)
                .map((c) => Math.round(c).toString(16).padStart(2, '0'))
                .join('')}`;
        fillColors.add(color.toLowerCase());
      }
    });
    imagesPerPage.push(images);
  }
  const { info } = (await doc.getMetadata()) as { info: Record<string, unknown> };
  const pages = doc.numPages;
  await loading.destroy();
  return {
    pages,
    pageTexts,
    text: pageTexts.join('\n'),
    imagesPerPage,
    fillColors: [...fillColors],
    info,
  };
}
