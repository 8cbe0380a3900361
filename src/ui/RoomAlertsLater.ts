import { lazyComponent } from './lazyComponent';

/**
 * RoomAlerts (tones and desktop notifications) loaded after the page's first frame: both the room
 * and the pop-out mount it, and neither needs it before there is something to alert about. Render it
 * inside a Suspense boundary.
 */
export const RoomAlertsLater = lazyComponent(() => import('./RoomAlerts'), 'RoomAlerts');
