import { handoverCase, type TabGone } from './call-handover-case';
import { callButton, callRegion, LIGHT_DIRECT_SERVERS } from './call-ui-people';
import { expect, test } from './rooms-people';

// Over mesh, as tests/e2e/call-ui.spec.ts. Run it in a loopback-only network namespace (see README "Tests").
test.use({ parleySettings: LIGHT_DIRECT_SERVERS });

const closeTab: TabGone = (page) => page.close();

/** "Move call here" in the other tab: the call tab lets the call go and says where it runs, its camera and microphone released. */
const moveToOtherTab: TabGone = async (callTab, otherTab) => {
  await callButton(otherTab, 'Move call here').click();
  await expect(callRegion(callTab)).toContainText('You are in this call in another tab of this browser.', { timeout: 30_000 });
  await expect(callTab.locator('video')).toHaveCount(0);
};

test.describe('Call state that survives a handover (issue 13): mute, camera off and volumes move with the call', () => {
  test('Bob’s call tab is closed: his other tab takes the call over muted, camera off, and says so', async ({ people }) => {
    const movedMs = await handoverCase(people, 'closed', closeTab);
    console.log(`[handover] closed: call back in Bob's other tab ${movedMs} ms after the tab went away`);
  });

  test('Bob moves the call to his other tab (“Move call here”): it resumes there muted, camera off, and says so; the first tab shows the call runs elsewhere', async ({ people }) => {
    const movedMs = await handoverCase(people, 'left for his other tab (“Move call here”)', moveToOtherTab);
    console.log(`[handover] moved: call running in Bob's other tab ${movedMs} ms after the click`);
  });
});
