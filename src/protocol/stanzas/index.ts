import type { Agent, JXT } from 'stanza';
import { mmucDefinitions } from './mmuc';
import { talkyCoreDefinitions } from './talkyCore';
import { talkyJingleDefinitions } from './talkyJingle';

/** The StanzaJS plugin that teaches a client Parley's wire extensions (PROTOCOL.md). */
export function parleyStanzas(_client: Agent, registry: JXT.Registry): void {
  registry.define([...talkyCoreDefinitions, ...mmucDefinitions]);
  registry.define(talkyJingleDefinitions);
}
