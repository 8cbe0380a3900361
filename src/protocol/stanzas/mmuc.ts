import { JXT } from 'stanza';
import { NS_MMUC } from './namespaces';

/** `<conf media='video|audio|none'/>` in room presence: joined the call, requesting that media. */
export type RequestedMedia = 'video' | 'audio' | 'none';
export interface MmucConf {
  media?: RequestedMedia;
}

/** `<state speaking='1|0'/>` in a bodiless groupchat message. */
export interface MmucState {
  speaking?: '1' | '0';
}

declare module 'stanza' {
  namespace Stanzas {
    interface Presence {
      mmucConf?: MmucConf;
    }
    interface Message {
      mmucState?: MmucState;
    }
  }
}

export const mmucDefinitions: JXT.DefinitionOptions[] = [
  { element: 'conf', namespace: NS_MMUC, path: 'presence.mmucConf', fields: { media: JXT.attribute('media') } },
  { element: 'state', namespace: NS_MMUC, path: 'message.mmucState', fields: { speaking: JXT.attribute('speaking') } },
];
