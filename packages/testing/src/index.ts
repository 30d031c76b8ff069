export { startConnectProxy, TunnelAgent } from './connect-proxy.js';
export type { ConnectProxy } from './connect-proxy.js';
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
export {
  MAX_GZIP_BOMB_BYTES,
  clientIdOf,
  hostile,
  startHostileUpstream,
} from './hostile-upstream.js';
export type {
  HostileRequest,
  HostileRoutes,
  HostileUpstream,
  HostileUpstreamOptions,
  Hostility,
  PagedRecord,
  WrongJsonKind,
} from './hostile-upstream.js';
export { warningsDuring } from './process-warnings.js';
export { createRollingWindowCounter } from './rolling-window.js';
export type { RollingWindowCounter } from './rolling-window.js';
export { SECRET_ENCODINGS, credentialsOf, encodeSecret } from './secret-encodings.js';
export type { SecretEncoding } from './secret-encodings.js';
export {
  PRISM_ENV,
  PRISM_SPECS,
  prismSpecsFromEnv,
  startPrismMock,
  specPath,
  startPrismProxy,
  withPrism,
} from './prism.js';
export type { PrismJudged, PrismProxy, PrismSpec, PrismableSandbox, SandboxUrls } from './prism.js';
export * from './changing-upstream.js';
export * from './strict-upstream.js';
export { HAS_OPENSSL, startSelfSignedServer } from './self-signed-server.js';
export type { SelfSignedServer } from './self-signed-server.js';
