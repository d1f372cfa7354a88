export { shareHtml, SHARE_PAGE_CSP } from './html.js';
export { sharePdf } from './pdf.js';
export { qrModules, qrSvg } from './qr.js';
export { runPayloadOf, verificationText } from './view.js';
