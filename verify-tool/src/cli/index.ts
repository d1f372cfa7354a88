export { EXIT_OK, EXIT_TAMPERED, EXIT_UNREADABLE, runCli, type CliStreams } from './run.js';
