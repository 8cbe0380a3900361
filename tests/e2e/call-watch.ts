import { expect, type Page } from '@playwright/test';

/**
 * Watches that run inside the pages for the whole of a fault or a handover and are read at its end:
 * a muted person must never be heard or shown live, not even for a moment a poll would miss. And
 * what a page sends, read from the connections its call made.
 */

/**
 * Run in a page before its call starts (an init script for every tab, or page.evaluate): remembers
 * every RTCPeerConnection the page then uses, for sentVideo and sentAudioWatch, and notes whenever
 * an audio track one of them sends is enabled (as it is added, and every 20 ms). Through the
 * prototype: the call's code may hold the constructor from before.
 */
export function watchConnections(): void {
  const connections = new Set<RTCPeerConnection>();
  const audio = { liveAudioSent: 0, audioSenders: 0 };
  Object.assign(window, { parleyConnections: connections, parleySentAudioWatch: audio });
  const note = (track: MediaStreamTrack | string | null | undefined) => {
    if (typeof track !== 'string' && track?.kind === 'audio' && track.enabled) audio.liveAudioSent += 1;
  };
  const prototype = RTCPeerConnection.prototype;
  const { addTrack, addTransceiver } = prototype;
  const setLocalDescription: (this: RTCPeerConnection, description?: RTCLocalSessionDescriptionInit) => Promise<void> = prototype.setLocalDescription;
  prototype.addTrack = function (this: RTCPeerConnection, ...args: Parameters<RTCPeerConnection['addTrack']>) {
    connections.add(this);
    note(args[0]);
    return addTrack.apply(this, args);
  };
  prototype.addTransceiver = function (this: RTCPeerConnection, ...args: Parameters<RTCPeerConnection['addTransceiver']>) {
    connections.add(this);
    note(args[0]);
    return addTransceiver.apply(this, args);
  };
  // An answering connection can send on the transceivers its offer made (replaceTrack) without either call.
  prototype.setLocalDescription = function (this: RTCPeerConnection, description?: RTCLocalSessionDescriptionInit) {
    connections.add(this);
    return setLocalDescription.call(this, description);
  };
  setInterval(() => {
    const senders = [...connections].filter((connection) => connection.connectionState !== 'closed').flatMap((connection) => connection.getSenders());
    const audioSenders = senders.filter((sender) => sender.track?.kind === 'audio');
    audio.audioSenders = audioSenders.length;
    for (const sender of audioSenders) note(sender.track);
  }, 20);
}

/** What watchConnections saw the page send as audio: how often a live (enabled) track, and how many audio senders it has now. */
export async function sentAudioWatch(page: Page): Promise<{ liveAudioSent: number; audioSenders: number }> {
  return page.evaluate(() => Reflect.get(window, 'parleySentAudioWatch') as { liveAudioSent: number; audioSenders: number });
}

/** One audio the page sends, as its sender's codec and statistics say: a screen's sound (content hint `music`) or a voice. */
export interface SentAudioFormat {
  readonly screenSound: boolean;
  /** The Opus parameters the sender encodes to (the receiver's answer as the sender applied it). */
  readonly fmtp: string;
  readonly targetBitrate: number | undefined;
}

/** What watchConnections' connections send as audio, each sender once. */
export function sentAudioFormats(page: Page): Promise<SentAudioFormat[]> {
  return page.evaluate(async () => {
    const connections = [...(Reflect.get(window, 'parleyConnections') as Set<RTCPeerConnection>)].filter((connection) => connection.connectionState === 'connected');
    const senders = connections.flatMap((connection) => connection.getSenders()).filter((sender) => sender.track?.kind === 'audio');
    return Promise.all(
      senders.map(async (sender) => {
        let targetBitrate: number | undefined;
        (await sender.getStats()).forEach((stats: { type: string; targetBitrate?: number }) => {
          if (stats.type === 'outbound-rtp') targetBitrate = stats.targetBitrate;
        });
        return { screenSound: sender.track?.contentHint === 'music', fmtp: sender.getParameters().codecs[0]?.sdpFmtpLine ?? '', targetBitrate };
      }),
    );
  });
}

/** How many of watchConnections' connections answered an offer with Opus in stereo (what their decoders follow). */
export function stereoAnswers(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      [...(Reflect.get(window, 'parleyConnections') as Set<RTCPeerConnection>)].filter(
        (connection) => connection.connectionState === 'connected' && connection.localDescription?.type === 'answer' && /a=fmtp:\d+ [^\r\n]*stereo=1/.test(connection.localDescription.sdp),
      ).length,
  );
}

/**
 * In an observer's tab, from now on every 20 ms: whether `name` is shown live — listed in the
 * Participants list without "muted", or their call tile without ", muted". With `absentCounts`,
 * not being listed counts as live too (for a person whose presence never leaves the room).
 * `found` counts the checks that found them listed or shown: a watch that never found them saw
 * nothing of them, muted or not.
 */
export async function watchShownMuted(page: Page, name: string, absentCounts: boolean): Promise<void> {
  await page.evaluate(
    ({ name, absentCounts }) => {
      const state: ShownMutedWatch = { unmutedSeen: 0, found: 0, checks: 0 };
      Object.assign(window, { parleyShownMutedWatch: state });
      setInterval(() => {
        const entry = [...document.querySelectorAll('[aria-label="Participants"] li')].find((li) => li.querySelector('.participant-name')?.textContent === name);
        const shownTile = [...document.querySelectorAll('figure')].find((figure) => figure.getAttribute('aria-label') === name);
        state.checks += 1;
        if (entry || shownTile) state.found += 1;
        const entryLive = entry ? !entry.textContent?.includes('muted') : absentCounts;
        const tileLive = shownTile !== undefined && !shownTile.textContent?.includes('muted');
        if (entryLive || tileLive) state.unmutedSeen += 1;
      }, 20);
    },
    { name, absentCounts },
  );
}

/** What `watchShownMuted` counted: checks that saw the person live, checks that found them at all, and checks. */
export interface ShownMutedWatch {
  unmutedSeen: number;
  found: number;
  checks: number;
}

async function shownMutedWatch(page: Page): Promise<ShownMutedWatch> {
  return page.evaluate(() => Reflect.get(window, 'parleyShownMutedWatch') as ShownMutedWatch);
}

/** Since `watchShownMuted`, the observer found `name` (listed or on a tile) and never saw them live. */
export async function expectNeverShownUnmuted(page: Page, name: string): Promise<void> {
  const seen = await shownMutedWatch(page);
  expect(seen.checks, 'the watch ran').toBeGreaterThan(0);
  expect(seen.found, `${name} found, listed or on a tile`).toBeGreaterThan(0);
  expect(seen.unmutedSeen, `${name} never shown unmuted`).toBe(0);
}

/** What a page sends as its camera video on its one open connection that sends video. */
export interface SentVideo {
  /** The box the encoding is scaled down to fit in (`scaleResolutionDownTo`); undefined: the whole capture. */
  box: { maxWidth: number; maxHeight: number } | undefined;
  frameWidth: number | undefined;
  /** Why the encoder sends less than it was asked for (WebRTC stats): 'cpu', 'bandwidth', 'other' or 'none'. */
  qualityLimitationReason: string | undefined;
  /** The bitrate the encoder aims at now (its bandwidth estimate's share, WebRTC stats), bps. */
  targetBitrate: number | undefined;
  /** The most the page lets the encoding send (SPEC §9's share of the budget), bps. */
  maxBitrate: number | undefined;
}

/** What the page sends as its camera video, from the connections watchConnections has seen. */
export async function sentVideo(page: Page): Promise<SentVideo | undefined> {
  return page.evaluate(async () => {
    const connections = Reflect.get(window, 'parleyConnections') as Set<RTCPeerConnection>;
    const open = [...connections].filter((connection) => connection.connectionState === 'connected');
    const sender = open.flatMap((connection) => connection.getSenders()).find((candidate) => candidate.track?.kind === 'video');
    if (!sender) return undefined;
    const [encoding] = sender.getParameters().encodings as (RTCRtpEncodingParameters & { scaleResolutionDownTo?: { maxWidth: number; maxHeight: number } })[];
    const stats = [...(await sender.getStats()).values()].find((report) => report.type === 'outbound-rtp') as
      | { frameWidth?: number; qualityLimitationReason?: string; targetBitrate?: number }
      | undefined;
    return {
      box: encoding?.scaleResolutionDownTo,
      frameWidth: stats?.frameWidth,
      qualityLimitationReason: stats?.qualityLimitationReason,
      targetBitrate: stats?.targetBitrate,
      maxBitrate: encoding?.maxBitrate,
    };
  });
}

/** The local UDP ports of the page's open connections that send video (watchConnections), as their selected ICE pairs use them. */
export async function videoSendingPorts(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const connections = Reflect.get(window, 'parleyConnections') as Set<RTCPeerConnection>;
    const sending = [...connections].filter((connection) => connection.connectionState === 'connected' && connection.getSenders().some((sender) => sender.track?.kind === 'video'));
    const ports: number[] = [];
    for (const connection of sending) {
      const reports = [...(await connection.getStats()).values()] as Array<Record<string, unknown>>;
      const byId = (id: unknown) => reports.find((report) => report.id === id);
      const transport = reports.find((report) => report.type === 'transport');
      const local = byId(byId(transport?.selectedCandidatePairId)?.localCandidateId);
      if (local?.protocol !== 'udp' || typeof local.port !== 'number') throw new Error(`a connection's local candidate is ${JSON.stringify(local)}`);
      ports.push(local.port);
    }
    return ports;
  });
}
