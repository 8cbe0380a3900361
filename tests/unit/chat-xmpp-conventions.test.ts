import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RoomArrivals } from '../../src/main-thread/alerts/RoomArrivals';
import type { ParleyTab } from '../../src/main-thread/ParleyTab';
import type { ChatMessage, RoomEvent } from '../../src/protocol/entities';
import { meAction } from '../../src/protocol/meCommand';
import { MessageBody } from '../../src/ui/MessageBody';
import { styleMessage, type StyledBlock, type StyledRun } from '../../src/ui/messageStyling';
import { ChatMessageGroup } from '../../src/ui/ChatMessageGroup';
import { groupChatMessages } from '../../src/ui/groupChatMessages';
import { followRecipient } from '../../src/ui/privateRecipient';
import { mentionMatcher } from '../../src/ui/mentions';
import { tallyReactions } from '../../src/ui/MessageReactions';
import { reactionSet } from '../../src/shared-worker/chat/bounded';
import { LIMITS } from '../../src/protocol/constants';
import { TabContext } from '../../src/ui/tabContext';

const ROOM = 'room@rooms.parley.localhost';

function message(id: string, body: string, displayName = 'dave_on_gajim', change: Partial<ChatMessage> = {}): ChatMessage {
  return { id, stanzaId: id, body, direction: 'incoming', displayName, senderAddress: `${ROOM}/${displayName}`, roomAddress: ROOM, time: 1_000, editedTime: undefined, replace: undefined, acked: true, customerData: undefined, ...change };
}

/** The group's markup; without `withIds`, with no id attributes (React's generated ids are beside the point). */
function rendered(messages: ChatMessage[], { withIds = false } = {}): string {
  const [group] = groupChatMessages(messages);
  expect(groupChatMessages(messages)).toHaveLength(1);
  // Rendering reads no action; a tab is there only because the group asks for its actions.
  const tab = { actions: {} } as ParleyTab;
  const html = renderToStaticMarkup(createElement(TabContext.Provider, { value: tab }, createElement(ChatMessageGroup, { group: group!, editableId: undefined, onEdit: () => undefined, onReplyPrivately: () => undefined, selfAddress: `${ROOM}/alice`, mentionsYou: mentionMatcher('Alice') })));
  return withIds ? html : html.replace(/ id="[^"]*"/g, '');
}

describe('XEP-0245 /me: a message that begins with "/me " is its sender’s action, as plain XMPP clients show it (beyond the spec)', () => {
  it('reads the words after "/me " as the action; anything else, or the command with no words after it, is a message as it is', () => {
    expect(meAction('/me waves')).toBe('waves');
    expect(meAction('/me  waves twice\nand again')).toBe(' waves twice\nand again');
    for (const body of ['/me', '/me ', '/me   ', '/ME waves', ' /me waves', 'hello /me waves', '/mention', '/me\twaves']) expect(meAction(body)).toBeUndefined();
  });

  it('shows an action in the chat as "<sender> <action>", its links and markup as in any message', () => {
    const html = rendered([message('m1', '/me waves at <b>https://example.org/</b>'), message('m2', 'an ordinary line')]);
    expect(html).toContain(
      '<p class="message-body message-action"><span class="message-action-sender">dave_on_gajim</span> waves at &lt;b><a href="https://example.org/" target="_blank" rel="noopener noreferrer">https://example.org/</a>&lt;/b></p>',
    );
    expect(html).toContain('<p class="message-body">an ordinary line</p>');
  });

  it('notifies an action as "<sender> <action>", alone or last of several', () => {
    const arrivals = new RoomArrivals('standup');
    arrivals.look([], []);
    expect(arrivals.look([message('m1', '/me waves')], []).notices).toEqual([{ title: 'dave_on_gajim in standup', body: 'dave_on_gajim waves', tag: `parley-message:${ROOM}` }]);
    expect(arrivals.look([message('m1', '/me waves'), message('m2', 'hello', 'Ann'), message('m3', '/me nods', 'Ann')], []).notices).toEqual([
      { title: '2 new messages in standup', body: 'Ann nods', tag: `parley-message:${ROOM}` },
    ]);
  });
});

describe('Private messages (XEP-0045), which plain XMPP clients send and Parley answers: shown as such, with a way to reply privately (beyond the spec)', () => {
  it('never share a group with the sender’s room messages, before or after them', () => {
    const whisper = message('p1', 'just between us', 'dave_on_gajim', { privately: true, time: 2_000 });
    const groups = groupChatMessages([message('g1', 'hello everyone'), whisper, message('p2', 'and this', 'dave_on_gajim', { privately: true, time: 3_000 }), message('g2', 'back in the room', 'dave_on_gajim', { time: 4_000 })]);
    expect(groups.map((group) => [group.privately, group.messages.map((one) => one.id)])).toEqual([
      [false, ['g1']],
      [true, ['p1', 'p2']],
      [false, ['g2']],
    ]);
  });

  it('say "to you only" in their header, and under them who reads them, with "Reply privately"', () => {
    const html = rendered([message('p1', 'just between us', 'dave_on_gajim', { privately: true })]);
    expect(html).toContain('<article class="message-group incoming private">');
    expect(html).toContain('<span class="message-private">to you only</span>');
    expect(html).toContain('<p class="message-private-note">Only you and dave_on_gajim read this. <button type="button" class="link-button">Reply privately</button></p>');
    const aloud = rendered([message('g1', 'hello everyone')]);
    expect(aloud).not.toContain('private');
  });

  it('of yours say whom they went to, one group per person, and offer no reply to yourself', () => {
    const mine = (id: string, to: string, time: number) =>
      message(id, `for ${to}`, 'Alice', { direction: 'outgoing', senderAddress: `${ROOM}/alice`, privately: true, recipientAddress: `${ROOM}/${to}`, recipientName: to, time });
    const groups = groupChatMessages([mine('o1', 'dave', 1_000), mine('o2', 'dave', 2_000), mine('o3', 'erin', 3_000), message('o4', 'aloud', 'Alice', { direction: 'outgoing', senderAddress: `${ROOM}/alice`, time: 4_000 })]);
    expect(groups.map((group) => [group.recipientName, group.messages.map((one) => one.id)])).toEqual([
      ['dave', ['o1', 'o2']],
      ['erin', ['o3']],
      [undefined, ['o4']],
    ]);
    const html = rendered([mine('o1', 'dave', 1_000)]);
    expect(html).toContain('<article class="message-group outgoing private">');
    expect(html).toContain('<span class="message-private">to dave only</span>');
    expect(html).not.toContain('Reply privately');
  });

  it('are answered where their sender is now: a nickname change after the message moves the reply with them, one before it or someone else’s does not', () => {
    const renamed = (id: string, from: string, to: string, time: number) =>
      ({ id, roomAddress: ROOM, kind: 'renamed', displayName: to, formerName: from, formerAddress: `${ROOM}/${from}`, peerAddress: `${ROOM}/${to}`, time }) as RoomEvent;
    const dave = { address: `${ROOM}/dave`, name: 'dave', since: 2_000, reply: true };
    expect(followRecipient(dave, [])).toEqual({ ...dave, left: false });
    expect(followRecipient(dave, [renamed('e1', 'dave', 'old', 1_000), renamed('e2', 'erin', 'eri', 3_000)])).toEqual({ ...dave, left: false });
    expect(followRecipient(dave, [renamed('e1', 'dave', 'david', 3_000), renamed('e2', 'david', 'dave', 4_000), renamed('e3', 'dave', 'dan', 5_000)])).toEqual({ address: `${ROOM}/dan`, name: 'dan', since: 2_000, reply: true, left: false });
  });

  it('do not go to whoever takes their nickname after they left: a departure since the message (or the choice) ends the following, a return within the hold (“reconnected”) does not', () => {
    const line = (id: string, kind: RoomEvent['kind'], nick: string, time: number) => ({ id, roomAddress: ROOM, kind, displayName: nick, peerAddress: `${ROOM}/${nick}`, time }) as RoomEvent;
    const renamed = (id: string, from: string, to: string, time: number) =>
      ({ id, roomAddress: ROOM, kind: 'renamed', displayName: to, formerName: from, formerAddress: `${ROOM}/${from}`, peerAddress: `${ROOM}/${to}`, time }) as RoomEvent;
    const dave = { address: `${ROOM}/dave`, name: 'dave', since: 2_000, reply: true };
    for (const kind of ['left', 'kicked', 'banned'] as const) {
      expect(followRecipient(dave, [line('e1', kind, 'dave', 3_000), line('e2', 'joined', 'dave', 4_000)])).toMatchObject({ address: `${ROOM}/dave`, left: true });
    }
    // Left before the message, or someone else left: still theirs.
    expect(followRecipient(dave, [line('e1', 'left', 'dave', 1_000), line('e2', 'left', 'erin', 3_000)]).left).toBe(false);
    expect(followRecipient(dave, [line('e1', 'reconnected', 'dave', 3_000)]).left).toBe(false);
    // Renamed, then left under the new name: left; a rename by whoever took the old name is not followed.
    expect(followRecipient(dave, [renamed('e1', 'dave', 'david', 3_000), line('e2', 'left', 'david', 4_000), renamed('e3', 'david', 'dan', 5_000)])).toMatchObject({ address: `${ROOM}/david`, left: true });
  });

  it('are notified as to you only', () => {
    const arrivals = new RoomArrivals('standup');
    arrivals.look([], []);
    expect(arrivals.look([message('p1', 'just between us', 'dave_on_gajim', { privately: true })], []).notices).toEqual([
      { title: 'dave_on_gajim, to you only, in standup', body: 'just between us', tag: `parley-message:${ROOM}` },
    ]);
  });
});

describe('Retractions (XEP-0424): a message its sender took back says so in its place, and nothing of its text (beyond the spec)', () => {
  it('offers Delete on a message of yours the room has, never on someone else’s, one on its way, or one deleted', () => {
    const mine = (id: string, change: Partial<ChatMessage> = {}) => message(id, `mine ${id}`, 'Alice', { direction: 'outgoing', senderAddress: `${ROOM}/alice`, ...change });
    const count = (html: string) => html.match(/aria-label="Delete"/g)?.length ?? 0;
    expect(count(rendered([mine('o1')]))).toBe(1);
    expect(count(rendered([mine('o1', { acked: false })]))).toBe(0);
    expect(count(rendered([mine('o1', { body: '', retracted: true })]))).toBe(0);
    expect(count(rendered([message('i1', 'theirs')]))).toBe(0);
  });

  it('describes a message’s buttons by its text, so that "React", "Edit" or "Delete" is read with what it acts on', () => {
    const html = rendered([message('o1', 'mine', 'Alice', { direction: 'outgoing', senderAddress: `${ROOM}/alice` })], { withIds: true });
    const textId = /<p id="([^"]+)" class="message-body">mine<\/p>/.exec(html)?.[1];
    expect(textId).toBeDefined();
    expect(html).toContain(`aria-label="React" aria-describedby="${textId}"`);
    expect(html).toContain(`aria-label="Delete" aria-describedby="${textId}"`);
  });

  it('reads "This message was deleted." in the sender’s group, without "(edited)"', () => {
    const html = rendered([message('m1', 'still here'), message('m2', '', 'dave_on_gajim', { retracted: true, editedTime: 2_000 })]);
    expect(html).toContain('<p class="message-body message-retracted">This message was deleted.</p>');
    expect(html).toContain('still here');
    expect(html).not.toContain('(edited)');
  });
});

describe(`Long messages: one an XMPP app sent past LIMITS.chatBodyLength (${LIMITS.chatBodyLength}) characters says under its text how much more there was (beyond the spec)`, () => {
  it('reads "Message cut: 3,616 more characters not shown." under what was kept; a whole message says nothing of it', () => {
    const cut = rendered([message('m1', 'the start of it', 'dave_on_gajim', { charactersCut: 3_616 })]);
    expect(cut).toContain('the start of it');
    expect(cut).toContain(`<p class="message-cut">Message cut: ${(3_616).toLocaleString()} more characters not shown.</p>`);
    expect(rendered([message('m1', 'all of it')])).not.toContain('Message cut');
  });
});

describe('Reactions (XEP-0444): each emoji once under its message, with who gave it and whether you did; a set is bounded and emoji-shaped (beyond the spec)', () => {
  const reacted = message('m1', 'lunch?', 'dave_on_gajim', {
    reactions: {
      [`${ROOM}/erin`]: { name: 'Erin', emojis: ['👍', '🎉'] },
      [`${ROOM}/alice`]: { name: 'Alice', emojis: ['👍'] },
      [`${ROOM}/bob`]: { name: 'Bob', emojis: ['👍'] },
    },
  });

  it('tallies each emoji in the order first given, naming you as you', () => {
    expect(tallyReactions(reacted, `${ROOM}/alice`)).toEqual([
      { emoji: '👍', names: ['Erin', 'you', 'Bob'], mine: true },
      { emoji: '🎉', names: ['Erin'], mine: false },
    ]);
    expect(tallyReactions(message('m2', 'none'), `${ROOM}/alice`)).toEqual([]);
  });

  it('shows each as a button with its count that says who gave it and whether you did', () => {
    const html = rendered([reacted]);
    expect(html).toContain('<button type="button" aria-pressed="true" aria-label="👍 from Erin, you and Bob" title="Erin, you and Bob" class="reaction">👍 <span class="reaction-count">3</span></button>');
    expect(html).toContain('aria-pressed="false" aria-label="🎉 from Erin"');
    expect(rendered([message('m2', 'none')])).not.toContain('message-reactions');
  });

  it('takes a set in its order, each once; refuses one too large, or with a reaction too long, with spaces or not text', () => {
    expect(reactionSet(['👍', '🎉', '👍'])).toEqual({ reactions: ['👍', '🎉'] });
    expect(reactionSet(['👨‍👩‍👧‍👦', '🇫🇷'])).toEqual({ reactions: ['👨‍👩‍👧‍👦', '🇫🇷'] });
    expect(reactionSet([])).toEqual({ reactions: [] });
    const tooMany = Array.from({ length: LIMITS.reactionsPerPerson + 1 }, (_, index) => String.fromCodePoint(0x1f600 + index));
    for (const refused of [tooMany, ['a b'], [' 👍'], ['x'.repeat(LIMITS.reactionLength + 1)], [''], [3], '👍', undefined]) expect(reactionSet(refused)).toHaveProperty('problem');
  });
});

describe('Mentions: a message that names you is marked, as XMPP apps highlight a message with your nickname (beyond the spec)', () => {
  it('finds your name as a word of its own, in any case, with "@" or not; never inside another word, nor while you have no name', () => {
    const namesAlice = mentionMatcher('Alice');
    for (const body of ['Alice, can you share?', 'thanks @alice!', 'over to ALICE.', 'Alice']) expect(namesAlice(body)).toBe(true);
    for (const body of ['Alicemarie was here', 'malice aforethought', 'no one', 'Al ice']) expect(namesAlice(body)).toBe(false);
    expect(mentionMatcher('  Dr. Who (UK) ')('ask Dr. Who (UK) first')).toBe(true);
    expect(mentionMatcher('Dr. Who (UK)')('ask Dr Who UK first')).toBe(false);
    expect(mentionMatcher('José')('¿José?')).toBe(true);
    expect(mentionMatcher('José')('Joséphine')).toBe(false);
    expect(mentionMatcher(undefined)('Anonymous')).toBe(false);
    expect(mentionMatcher('   ')('anything')).toBe(false);
  });

  it('marks someone else’s message that names you, in words for a screen reader too; never your own', () => {
    const html = rendered([message('m1', 'Alice, can you share?'), message('m2', 'anyone else?')]);
    expect(html).toContain('<div class="message-item mentions-you"><div class="message"><p class="message-body">Alice, can you share?<span class="visually-hidden"> (mentions you)</span></p>');
    expect(html.match(/mentions-you/g)).toHaveLength(1);
    const own = rendered([message('m3', 'I am Alice', 'Alice', { direction: 'outgoing', senderAddress: `${ROOM}/alice` })]);
    expect(own).not.toContain('mentions');
  });
});

describe('XEP-0393 message styling: strong, emphasis, strike and code spans, preformatted blocks and quotations, as XMPP apps send and show them (beyond the spec)', () => {
  const line = (body: string) => {
    const [only] = styleMessage(body);
    return only?.kind === 'line' ? only.runs : undefined;
  };
  const text = (value: string) => ({ kind: 'text', text: value });

  it('styles a span between two same directives, nested ones inside it, a preformatted span as text alone', () => {
    expect(line('a *strong* word')).toEqual([text('a '), { kind: 'strong', runs: [text('strong')] }, text(' word')]);
    expect(line('_em_ ~gone~ `*not strong*`')).toEqual([
      { kind: 'emphasis', runs: [text('em')] },
      text(' '),
      { kind: 'strike', runs: [text('gone')] },
      text(' '),
      { kind: 'code', text: '*not strong*' },
    ]);
    expect(line('*_both_*')).toEqual([{ kind: 'strong', runs: [{ kind: 'emphasis', runs: [text('both')] }] }]);
    expect(line('*bold*ly')).toEqual([{ kind: 'strong', runs: [text('bold')] }, text('ly')]);
  });

  it('leaves a directive as it is where it may not open or close: inside a word, before or after whitespace, with nothing between, across lines', () => {
    for (const body of ['2*3*4', 'snake_case_name', '* not strong*', '*not strong *', '**', '~', 'a ` b']) expect(line(body), body).toEqual([text(body)]);
    expect(styleMessage('*not\nstrong*')).toEqual([
      { kind: 'line', runs: [text('*not')] },
      { kind: 'line', runs: [text('strong*')] },
    ]);
  });

  it('never opens or closes a span inside a link; a link may sit whole inside one', () => {
    expect(line('see https://example.org/a_b_ c')).toEqual([text('see '), { kind: 'link', text: 'https://example.org/a_b_', href: 'https://example.org/a_b_' }, text(' c')]);
    expect(line('*https://example.org/a*')).toEqual([{ kind: 'strong', runs: [{ kind: 'link', text: 'https://example.org/a', href: 'https://example.org/a' }] }]);
    expect(line('`https://example.org/`')).toEqual([{ kind: 'code', text: 'https://example.org/' }]);
  });

  it('reads ``` blocks (up to a line of ``` alone, or the end) and > quotations (nested by >>) as blocks', () => {
    expect(styleMessage('```js\nconst a = *1*;\n```\nafter')).toEqual([
      { kind: 'pre', text: 'const a = *1*;' },
      { kind: 'line', runs: [text('after')] },
    ]);
    expect(styleMessage('```\nnever closed\n> nor quoted')).toEqual([{ kind: 'pre', text: 'never closed\n> nor quoted' }]);
    expect(styleMessage('> quoted *well*\n>> nested\nafter')).toEqual([
      { kind: 'quote', blocks: [{ kind: 'line', runs: [text('quoted '), { kind: 'strong', runs: [text('well')] }] }, { kind: 'quote', blocks: [{ kind: 'line', runs: [text('nested')] }] }] },
      { kind: 'line', runs: [text('after')] },
    ]);
  });

  it('takes any body as it comes: what it shows is the body less the directives it styled, in order', () => {
    // Bodies come from anyone: a deterministic stream of them, made of directives, spaces, line breaks, quote marks, fences and links.
    const pieces = ['*', '_', '~', '`', ' ', '\n', '>', '```', 'a', 'bc', 'https://example.org/a_b*', '. '];
    let seed = 14;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const shown = (blocks: StyledBlock[]): string =>
      blocks.map((block) => (block.kind === 'line' ? runText(block.runs) : block.kind === 'pre' ? block.text : shown(block.blocks))).join('');
    const runText = (runs: StyledRun[]): string => runs.map((run) => ('runs' in run ? runText(run.runs) : run.text)).join('');
    for (let round = 0; round < 2_000; round += 1) {
      const body = Array.from({ length: next() % 40 }, () => pieces[next() % pieces.length]).join('');
      const text = shown(styleMessage(body));
      let at = 0;
      for (const char of text) {
        at = body.indexOf(char, at);
        expect(at, `${JSON.stringify(body)} shows ${JSON.stringify(text)}`).toBeGreaterThanOrEqual(0);
        at += 1;
      }
    }
  });

  it('renders our own elements only, the directives not shown, the lines as written', () => {
    const html = renderToStaticMarkup(createElement(MessageBody, { text: '> *<b>* said\n```\n<i>x</i>\n```\nfirst\n\n_then_ https://example.org/' }));
    expect(html).toBe(
      '<span class="message-quote"><strong>&lt;b></strong> said</span><code class="message-pre">&lt;i>x&lt;/i></code>first\n\n<em>then</em> <a href="https://example.org/" target="_blank" rel="noopener noreferrer">https://example.org/</a>',
    );
  });
});
