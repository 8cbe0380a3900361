import { options, type VNode } from 'preact';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParleyTab } from '../../src/main-thread/ParleyTab';
import type { Room } from '../../src/protocol/entities';
import { RoomPasswordPrompt } from '../../src/ui/RoomPasswordPrompt';
import { TabContext } from '../../src/ui/tabContext';
import { room } from './callTab-fakes';

/** The passwords the prompt handed the session. */
const submitted: string[] = [];
const tab = { actions: { rooms: { submitRoomPassword: (_roomId: string, password: string) => void submitted.push(password) } } } as unknown as ParleyTab;

/**
 * Node has no DOM to type into: each render's props of the prompt's form and field are caught as
 * Preact makes their elements, and their handlers are called as the browser would call them.
 */
let caught: { form?: Record<string, unknown>; field?: Record<string, unknown> } = {};
const previousVnodeHook = options.vnode;

beforeEach(() => {
  options.vnode = (vnode: VNode) => {
    if (vnode.type === 'form') caught.form = vnode.props as Record<string, unknown>;
    if (vnode.type === 'input') caught.field = vnode.props as Record<string, unknown>;
    previousVnodeHook?.(vnode);
  };
});

afterEach(() => {
  options.vnode = previousVnodeHook;
  caught = {};
  submitted.length = 0;
});

/** The prompt mounted afresh for `shown`: on the page's first refusal, or again after a reconnect. */
function mountPrompt(shown: Room): string {
  return renderToStaticMarkup(createElement(TabContext, { value: tab }, createElement(RoomPasswordPrompt, { room: shown })));
}

function type(text: string): void {
  (caught.field?.onChange as (event: unknown) => void)({ target: { value: text } });
}

/** A locked room we were never in; each case its own, as what was typed is kept for the page's life. */
const locked = (id: string): Room => room({ id, roomState: 'password-required', joined: false, joinedAt: undefined, passwordRequired: true });

describe('A locked room’s prompt keeps what was typed through a reconnect, for the page’s life (SPEC §4 password-required, interrupted)', () => {
  it('typed, then the connection drops and the rejoin asks again: the new prompt holds what was typed', () => {
    const standup = locked('standup');
    mountPrompt(standup);
    type('correct horse');
    // The room goes interrupted (the prompt goes), then the rejoin is refused for its password again.
    expect(mountPrompt(standup)).toContain('value="correct horse"');
  });

  it('submitted, the password is the session’s: the prompt that comes back after a refusal is empty', async () => {
    const standup = locked('standup-submitted');
    mountPrompt(standup);
    type('wrong horse');
    // A static render keeps no state: mounted again, the form holds what the field shows now.
    mountPrompt(standup);
    await (caught.form?.onSubmit as (event: unknown) => Promise<void>)({ preventDefault: () => undefined });
    expect(submitted).toEqual(['wrong horse']);
    expect(mountPrompt({ ...standup, providedPassword: 'wrong horse' })).not.toContain('wrong horse');
  });

  it('another room’s prompt starts empty', () => {
    mountPrompt(locked('standup-typed'));
    type('correct horse');
    expect(mountPrompt(locked('retro'))).not.toContain('correct horse');
  });
});

/**
 * The owner destroyed standup naming retro, locked, with no password or a wrong one: the session
 * joined retro with the password it had (the destroy's, or standup's), and the room refused it.
 * Each case its own room, as what the prompt was given is kept for the page's life.
 */
const movedInto = (address: string, byYou: boolean): Room =>
  room({
    id: 'room-1',
    address,
    providedName: 'retro',
    roomState: 'password-required',
    joined: false,
    joinedAt: undefined,
    passwordRequired: true,
    providedPassword: 'old',
    movedFrom: { fromAddress: 'standup@muc.parley.test', fromName: 'standup', reason: undefined, byYou },
  });

describe('Moved to a locked room by a destroy, the prompt says the move and whom to ask, never that a password you did not type was wrong (SPEC §4 destroyed room, password-required)', () => {
  it('moved by the owner: says where everyone went and to ask the owner for its password', () => {
    const shown = mountPrompt(movedInto('retro-1@muc.parley.test', false));
    expect(shown).not.toContain('That password did not open the room');
    expect(shown).not.toContain('aria-invalid');
    expect(shown).toContain('The owner closed standup and moved everyone to retro, which is locked. Ask the owner for its password.');
  });

  it('moved by your own destroy: says where you sent everyone, and to enter its password', () => {
    const shown = mountPrompt(movedInto('retro-2@muc.parley.test', true));
    expect(shown).not.toContain('That password did not open the room');
    expect(shown).toContain('You closed standup and moved everyone to retro, which is locked. Enter its password to join.');
  });

  it('once in the room moved to, a rejoin refused for want of its password: the room was locked while you were away', () => {
    const shown = mountPrompt({ ...movedInto('retro-4@muc.parley.test', false), joinedAt: 1_000, providedPassword: undefined });
    expect(shown).toContain('The room was locked while you were away — ask the owner for the password.');
    expect(shown).not.toContain('moved everyone');
  });

  it('a password typed in the prompt and refused: check it and try again', async () => {
    const moved = movedInto('retro-3@muc.parley.test', false);
    mountPrompt(moved);
    (caught.field?.onChange as (event: unknown) => void)({ target: { value: 'wrong horse' } });
    mountPrompt(moved);
    await (caught.form?.onSubmit as (event: unknown) => Promise<void>)({ preventDefault: () => undefined });
    expect(mountPrompt({ ...moved, providedPassword: 'wrong horse' })).toContain('That password did not open the room. Check it and try again.');
  });
});
