export { expandReceiptPaths, listReceiptFiles, readLines } from './lines.js';
export {
  verifyExportFile,
  verifyRouterReceiptFiles,
  type ExportFileOptions,
  type RouterFilesResult,
} from './verify-files.js';
