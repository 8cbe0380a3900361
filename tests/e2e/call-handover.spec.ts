import { handoverCase, type TabGone } from './call-handover-case';
import { LIGHT_VIDEO_TIERS } from './call-ui-people';
import { test } from './rooms-people';

// Over mesh, as tests/e2e/call-ui.spec.ts. Run it in a loopback-only network namespace (see README "Tests").
test.use({ parleySettings: { relayWorkers: 0, videoResolutionTiers: LIGHT_VIDEO_TIERS } });

const closeTab: TabGone = (page) => page.close();

test.describe('Call state that survives a handover (issue 13): mute, camera off and volumes move with the call', () => {
  test('Bob’s call tab is closed: his other tab takes the call over muted, camera off, and says so', async ({ people }) => {
    const movedMs = await handoverCase(people, 'closed', closeTab);
    console.log(`[handover] closed: call back in Bob's other tab ${movedMs} ms after the tab went away`);
  });
});
