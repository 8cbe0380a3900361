import SDPUtils from 'sdp';

/** How many blobs' lines are kept: the sections of the few descriptions a join converts at once. */
const KEPT_BLOBS = 16;

let kept = false;

/**
 * StanzaJS converts every offer and answer with the `sdp` package, whose parsers split a whole
 * media section into lines again for each codec they read (`matchPrefix` → `splitLines`: quadratic
 * in the section's size, with a video section of some thirty codecs). That was the largest part of
 * a join's SDP work on the main thread (issue 14). Here `splitLines` keeps its last answers: a
 * blob's lines never change. The lines are frozen: a caller that changed them would throw, not
 * corrupt the next caller's. Once per page; StanzaJS's own `sdp` is this module object.
 */
export function keepSdpLines(): void {
  if (kept) return;
  kept = true;
  const split = SDPUtils.splitLines;
  const lines = new Map<string, string[]>();
  SDPUtils.splitLines = (blob) => {
    let known = lines.get(blob);
    if (!known) {
      known = Object.freeze(split(blob)) as string[];
      lines.set(blob, known);
      if (lines.size > KEPT_BLOBS) lines.delete(lines.keys().next().value!);
    }
    return known;
  };
}

/** A description's media sections as far as ICE goes: each one's mid and ICE ufrag (its own line, else the session's). */
function iceSections(sdp: string): Array<{ mid: string | undefined; ufrag: string | undefined }> {
  let sessionUfrag: string | undefined;
  const sections: Array<{ mid: string | undefined; ufrag: string | undefined }> = [];
  for (const raw of sdp.split('\n')) {
    const line = raw.trim();
    const section = sections.at(-1);
    if (line.startsWith('m=')) sections.push({ mid: undefined, ufrag: undefined });
    else if (line.startsWith('a=mid:') && section) section.mid = line.slice('a=mid:'.length);
    else if (line.startsWith('a=ice-ufrag:')) {
      const ufrag = line.slice('a=ice-ufrag:'.length);
      if (section) section.ufrag = ufrag;
      else sessionUfrag = ufrag;
    }
  }
  return sections.map((section) => ({ mid: section.mid, ufrag: section.ufrag ?? sessionUfrag }));
}

/** The ICE ufrag a description gives the media section `mid`, read from its lines alone (no parse of the whole description). */
export function iceUfragOf(sdp: string, mid: string): string | undefined {
  return iceSections(sdp).find((section) => section.mid === mid)?.ufrag;
}

/** The first media section's mid and ICE ufrag, as the end of candidates names them. */
export function firstMediaIce(sdp: string): { mid: string | undefined; ufrag: string | undefined } {
  return iceSections(sdp)[0] ?? { mid: undefined, ufrag: undefined };
}
