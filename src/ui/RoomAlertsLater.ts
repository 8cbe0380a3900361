import { lazyComponent } from './lazyComponent';

/**
 * RoomAlerts (tones and desktop notifications) loaded after the page's first frame: both the room
 * and the pop-out mount it, and neither needs it before there is something to alert about. Render it
 * inside a Suspense boundary.
 */
export const RoomAlertsLater = lazyComponent(() => import('./RoomAlerts'), 'RoomAlerts');

/** The attention banner (SPEC §4 attention request) likewise: it has nothing to show before a request comes. */
export const AttentionAlertsLater = lazyComponent(() => import('./AttentionAlerts'), 'AttentionAlerts');
