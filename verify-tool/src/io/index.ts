export { expandReceiptPaths, listReceiptFiles, readLines } from './lines.js';
export { verifyExportFile, verifyRouterReceiptFiles } from './verify-files.js';
