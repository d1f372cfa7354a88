export { expandReceiptPaths, listReceiptFiles, readLines } from './lines.js';
export {
  verifyExportFile,
  verifyRouterReceiptFiles,
  type RouterFilesResult,
} from './verify-files.js';
