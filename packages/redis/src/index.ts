export { createRedisFleet } from './redis-fleet.js';
export type { RedisFleet, RedisFleetOptions } from './redis-fleet.js';
export type { FleetDegradedEvent, FleetDegradedReason, FleetEvents } from './fleet-connection.js';
