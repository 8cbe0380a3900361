/**
 * StanzaJS's Jingle namespace (its package index's `Jingle`) as the shared worker's build sees it
 * (`vite.config.ts`, `workerStanzaModules`): nothing. The worker holds no Jingle sessions — the
 * tabs do, and `JingleRouter` passes Jingle to them — so its sessions and SDP code stay out of the
 * worker's bundle.
 */
export {};
