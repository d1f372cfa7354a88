export { SHARE_ERROR_PAGE, shareHtml, SHARE_PAGE_CSP } from './html.js';
export { sharePdf } from './pdf.js';
export { qrModules, qrSvg } from './qr.js';
export { proofOf, runPayloadOf } from './view.js';
export { verificationOf } from './words.js';
