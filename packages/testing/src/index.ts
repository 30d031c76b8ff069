export { refusedUrl, startFaultServer } from './fault-server.js';
export type {
  FaultHandler,
  FaultRoutes,
  FaultScript,
  FaultServer,
  FaultStep,
  RecordedRequest,
} from './fault-server.js';
export { createVirtualTime } from './virtual-time.js';
export type { VirtualTime } from './virtual-time.js';
