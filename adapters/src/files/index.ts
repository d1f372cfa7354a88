export { openFileBlobStore, type FileBlobStore } from './blob-store.js';
export { durableRename, syncPath } from './durable.js';
