import { performance } from 'node:perf_hooks';

/**
 * Seconds the main thread's event loop has spent running callbacks since the process started, as
 * opposed to waiting for I/O (Node's event-loop utilization). Every request, statement and answer
 * of this server runs on that one thread, so when this grows by nearly a second per second the
 * server is at capacity, whatever the machine's other cores do.
 */
export function eventLoopBusySeconds(): number {
  return performance.eventLoopUtilization().active / 1000;
}
