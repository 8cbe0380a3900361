import { createClient, JXT, type Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { describeProfile, describeTracks, readDescriptionInfo, sendsVideo } from '../../src/main-thread/call/descriptionInfo';
import { parleyStanzas } from '../../src/protocol/stanzas';

/** Exports a Jingle IQ to XML text and imports it back, as the worker's client does on the wire. */
function wire(jingle: Stanzas.Jingle): { xml: string; parsed: Stanzas.Jingle } {
  const client = createClient({});
  client.use(parleyStanzas);
  const xml = client.stanzas.export('iq', { type: 'set', id: 'i1', to: 'room@muc/b', jingle })?.toString() ?? '';
  const parsed = client.stanzas.import(JXT.parse(xml)) as Stanzas.IQ & { jingle: Stanzas.Jingle };
  return { xml, parsed: parsed.jingle };
}

describe('description-info (PROTOCOL.md Jingle)', () => {
  it('marks a screen capture with <screen id=trackId/> and a named track with <data name/>, in contents named by kind', () => {
    const contents = describeTracks([
      { kind: 'video', trackId: 'track-1', name: undefined, screenCapture: true },
      { kind: 'audio', trackId: 'track-2', name: 'Desk mic', screenCapture: false },
    ]);
    const { xml, parsed } = wire({ sid: 's1', action: 'description-info', contents });
    expect(xml).toContain(
      '<content creator="initiator" name="video"><description xmlns="urn:xmpp:jingle:apps:rtp:1" media="video"><screen xmlns="https://talky.io/ns/core" id="track-1"/></description></content>',
    );
    expect(xml).toContain('<content creator="initiator" name="audio"><description xmlns="urn:xmpp:jingle:apps:rtp:1" media="audio"><data xmlns="https://talky.io/ns/core" name="Desk mic"/>');
    expect(readDescriptionInfo(parsed)).toEqual([
      { kind: 'video', name: undefined, screenCapture: true, profile: undefined },
      { kind: 'audio', name: 'Desk mic', screenCapture: false, profile: undefined },
    ]);
  });

  it('says nothing for unnamed camera tracks', () => {
    expect(describeTracks([{ kind: 'video', trackId: 't', name: undefined, screenCapture: false }])).toEqual([]);
  });

  it('carries the receiver quality request as <simulcast profile/> in content video', () => {
    const { xml, parsed } = wire({ sid: 's1', action: 'description-info', contents: describeProfile('off') });
    expect(xml).toContain('<content creator="initiator" name="video"><description xmlns="urn:xmpp:jingle:apps:rtp:1" media="video"><simulcast xmlns="https://talky.io/ns/core" profile="off"/>');
    expect(readDescriptionInfo(parsed)).toEqual([{ kind: 'video', name: undefined, screenCapture: false, profile: 'off' }]);
  });

  it('on mesh, off stops the video and any other profile resumes it', () => {
    expect(sendsVideo('off')).toBe(false);
    for (const profile of ['low', 'medium', 'high'] as const) expect(sendsVideo(profile)).toBe(true);
  });

  it('ignores contents named by mid, non-RTP descriptions and unknown profiles (untrusted input)', () => {
    const rtp = 'urn:xmpp:jingle:apps:rtp:1';
    const jingle: Stanzas.Jingle = {
      sid: 's1',
      contents: [
        { creator: 'initiator', name: '0', application: { applicationType: rtp, media: 'video', screenCaptures: [{ id: 'x' }] } as Stanzas.JingleRtpDescription },
        { creator: 'initiator', name: 'video', application: { applicationType: 'urn:xmpp:jingle:apps:file-transfer:5' } },
        { creator: 'initiator', name: 'video', application: { applicationType: rtp, media: 'video', simulcast: { profile: 'ultra' } } as unknown as Stanzas.JingleRtpDescription },
      ],
    };
    expect(readDescriptionInfo(jingle)).toEqual([{ kind: 'video', name: undefined, screenCapture: false, profile: undefined }]);
  });

  it('reads <ice-lite/> in an ICE-UDP transport (relay offers)', () => {
    const transport = { transportType: 'urn:xmpp:jingle:transports:ice-udp:1', iceLite: true, usernameFragment: 'u', password: 'p' } as Stanzas.JingleIce;
    const { xml, parsed } = wire({ sid: 's1', action: 'transport-info', contents: [{ creator: 'initiator', name: '0', transport }] });
    expect(xml).toContain('<ice-lite xmlns="https://talky.io/ns/core"/>');
    expect((parsed.contents?.[0]?.transport as Stanzas.JingleIce).iceLite).toBe(true);
  });
});
