import QRCode from 'qrcode';

/** The dark modules of the QR code of `text`, as a square matrix (true = dark). */
export function qrModules(text: string): boolean[][] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return Array.from({ length: modules.size }, (_, row) =>
    Array.from({ length: modules.size }, (_, col) => modules.get(row, col) === 1),
  );
}

/** An inline SVG of the QR code (no script, no external reference), with a 4-module quiet zone. */
export function qrSvg(text: string, pixelsPerModule = 4): string {
  const matrix = qrModules(text);
  const size = matrix.length + 8;
  const path = matrix
    .flatMap((row, y) => row.map((dark, x) => (dark ? `M${x + 4} ${y + 4}h1v1h-1z` : '')))
    .join('');
  const px = size * pixelsPerModule;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${px}" height="${px}" viewBox="0 0 ${size} ${size}" ` +
    `shape-rendering="crispEdges" role="img" aria-label="QR code of the share link">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`
  );
}
