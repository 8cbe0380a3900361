import { atom } from 'jotai';
import type { Connection } from './Connection';

/** SPEC §3 Connections of this tab's calls, by Jingle sid (tab-local: they name live media by id). */
export const connectionsAtom = atom<Readonly<Record<string, Connection>>>({});
