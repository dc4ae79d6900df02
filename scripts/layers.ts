import { relative } from 'node:path';

/**
 * Layers, lowest first. A module (a top-level file or folder of src/) may import from its own
 * module and from modules of a LOWER layer only: siblings of one layer stay independent.
 */
export const LAYERS: string[][] = [
  ['config'],
  ['dates', 'config.ts'],
  ['infra'],
  ['operator-access'],
  ['signing', 'catalog', 'events', 'reservations'],
  // Rate plans price stays under the catalogue's plans and the stored ones (priced-hotel.ts).
  ['payments', 'rate-plans'],
  // The one context every feature's routes and commands take: below every feature that has routes.
  ['context.ts'],
  ['hotel-calendar'],
  ['messages', 'promotions'],
  ['checkin', 'channels', 'staff', 'folios'],
  // Deposits and balances (API.md 14.2): the claim worker's charges and the desk's charge-card,
  // beside booking (they use folios, messages and payments; booking uses only payments' part).
  ['booking', 'deposits'],
  ['pages'],
  ['app.ts'],
  ['runtime.ts'],
  ['server.ts', 'cli'],
];

/** Top-level modules every feature uses: left out when a walk follows one use case. */
export const SHARED_MODULES = new Set(['infra', 'dates', 'config', 'config.ts']);

/** The module of a file under `src`: its top-level file or folder. */
export const moduleOfFile = (src: string, file: string) => relative(src, file).split('/')[0] as string;

/** The layer of a file under `src`, -1 when its module is in none. */
export const layerOfFile = (src: string, file: string) =>
  LAYERS.findIndex((layer) => layer.includes(moduleOfFile(src, file)));
