import { hostname } from 'node:os';

/** This process as the status endpoint names a replica: host and pid. */
export function replicaName(): string {
  return `${hostname()}:${process.pid}`;
}
