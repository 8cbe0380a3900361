import type { Agent, JXT } from 'stanza';
import { mmucDefinitions } from './mmuc';
import { reactionDefinitions } from './reactions';
import { retractionDefinitions } from './retraction';
import { talkyCoreDefinitions } from './talkyCore';
import { talkyJingleDefinitions } from './talkyJingle';
import { tolerantJsonDefinitions } from './tolerantJson';

/**
 * The StanzaJS plugin that teaches a client Parley's wire extensions (PROTOCOL.md). StanzaJS's own
 * definitions are registered when its client is constructed, before any plugin: a definition here
 * for one of its elements adds fields to it and replaces those of the same name.
 */
export function parleyStanzas(_client: Agent, registry: JXT.Registry): void {
  registry.define([...talkyCoreDefinitions, ...mmucDefinitions, ...retractionDefinitions, ...reactionDefinitions]);
  registry.define(talkyJingleDefinitions);
  // Replaces StanzaJS's JSON importers, so that one malformed payload cannot stop the stream.
  registry.define(tolerantJsonDefinitions);
}
