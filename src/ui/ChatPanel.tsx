import { useAtomValue } from 'jotai';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { heldLeaveIdsAtomFamily, lastOwnMessageAtomFamily, preferencesAtom, roomEventsAtomFamily, occupantPresentAtomFamily, privateMessageReadersAtomFamily, roomMessagesAtomFamily } from '../main-thread/sessionAtoms';
import { askForNotificationsOnce } from '../main-thread/alerts/desktopNotifications';
import type { ChatMessage, Room } from '../protocol/entities';
import { LIMITS } from '../protocol/constants';
import { awaitingRejoin } from '../protocol/awaitingRejoin';
import { useActions } from './tabContext';
import { ChatClosed } from './ChatClosed';
import { ChatComposer } from './ChatComposer';
import { ChatLog } from './ChatLog';
import { TypingIndicator } from './TypingIndicator';
import { useDocumentVisible } from './useDocumentVisible';
import { errorMessage } from '../common/errorMessage';
import { focusLost } from './focusLost';
import type { RoomEnd } from './roomEnd';
import { usePreferenceToggle } from './usePreferenceToggle';
import { useHasNoName } from './useHasNoName';
import { mentionMatcher } from './mentions';
import { followRecipient, type PrivateRecipient } from './privateRecipient';
import { firstUnreadId } from './chatTimeline';
import { useOwnSends } from './useOwnSends';

interface ChatPanelProps {
  room: Room | undefined;
  /** Whose messages show: the room's address, or the one it had once you left it (`RoomOfView.chatAddress`). */
  roomAddress: string | undefined;
  /** False while collapsed: the panel keeps its draft and place, and new messages count as unread. */
  shown?: boolean;
  /** The room ended for us: what was said stays to read, and nothing more can be written. */
  end?: RoomEnd | undefined;
}

/** A room's chat: the log, who is typing, and the message input. Shown means read: it marks the room read. */
export const ChatPanel = memo(function ChatPanel({ room, roomAddress: shownAddress, shown = true, end }: ChatPanelProps) {
  const actions = useActions();
  const roomAddress = shownAddress ?? '';
  const messages = useAtomValue(roomMessagesAtomFamily(roomAddress));
  const lastOwn = useAtomValue(lastOwnMessageAtomFamily(roomAddress));
  const events = useAtomValue(roomEventsAtomFamily(roomAddress));
  const heldLeaveIds = useAtomValue(heldLeaveIdsAtomFamily(roomAddress));
  const [sendOnEnter, setSendOnEnter] = usePreferenceToggle('sendOnEnter');
  const [realTimeText, setRealTimeText] = usePreferenceToggle('realTimeText');
  const [sounds, setSounds] = usePreferenceToggle('sounds');
  const ownName = useAtomValue(preferencesAtom).displayName;
  const hasNoName = useHasNoName();
  const mentionsYou = useMemo(() => mentionMatcher(hasNoName ? undefined : ownName), [hasNoName, ownName]);
  const [draft, setDraft] = useState('');
  // The draft this input last gave the session (its real-time text and typing state), taken back as the input goes.
  const shownDraft = useRef('');
  // The unsent message put aside while a correction is written; it comes back once that is sent or cancelled.
  const draftAside = useRef('');
  const [editing, setEditing] = useState<ChatMessage | undefined>(undefined);
  // The correction as the person last left it, for the handlers: renders come in tasks of their own
  // (renderInTasks), and text can arrive without a keydown (dictation, a drop) before the render of
  // the Enter that sent a correction; it is then a new message, not that correction.
  const editingNow = useRef<ChatMessage | undefined>(undefined);
  // Whom new messages go to alone (a private reply); the handlers read it as editingNow is read.
  const [privateTo, setPrivateTo] = useState<PrivateRecipient | undefined>(undefined);
  const privateToNow = useRef<PrivateRecipient | undefined>(undefined);
  const recipient = privateTo && followRecipient(privateTo, events);
  const recipientHere = useAtomValue(occupantPresentAtomFamily(recipient?.address ?? ''));
  const privateReaders = useAtomValue(privateMessageReadersAtomFamily(roomAddress ?? ''));
  const ownSends = useOwnSends(roomAddress, messages);
  // ↑ pressed before the room's messages show the one just sent: the correction starts once they do,
  // and an Enter meanwhile sends it then.
  const editAwaitingSend = useRef(false);
  const sendOnceEditing = useRef(false);
  const [sendError, setSendError] = useState<string | undefined>(undefined);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  // While the session brings us back into the room, what is written waits and goes once back in.
  const disabled = !roomAddress || !room || !(room.joined || awaitingRejoin(room));
  const documentVisible = useDocumentVisible();
  const unreadCount = room?.unreadCount ?? 0;

  // "Join again" goes as the room is joined again, and the focus with it, to the page; the input,
  // disabled until then, takes it back. Not at the first join: the page's first focus is the person's.
  const wasEnabled = useRef(false);
  const wasDisabled = useRef(disabled);
  useEffect(() => {
    if (!disabled && wasDisabled.current && wasEnabled.current && shown && focusLost()) inputRef.current?.focus({ preventScroll: true });
    wasDisabled.current = disabled;
    if (!disabled) wasEnabled.current = true;
  }, [disabled, shown]);

  useEffect(() => {
    if (shown && documentVisible && roomAddress && unreadCount > 0) void actions.chat.markRead(roomAddress).catch(() => {});
  }, [actions, shown, documentVisible, roomAddress, unreadCount]);

  // Where the messages you had not seen begin, as you come to the chat (shown, its page in view): kept
  // while you read on, placed anew at your next return, gone once you write.
  const [newFrom, setNewFrom] = useState<string | undefined>(undefined);
  const reading = shown && documentVisible;
  const wasReading = useRef(false);
  useEffect(() => {
    if (reading && !wasReading.current) setNewFrom(firstUnreadId(messages, unreadCount));
    wasReading.current = reading;
  }, [reading, messages, unreadCount]);

  // The room's draft is one for all your tabs: a draft this input wrote goes with it when the view
  // unmounts or the page goes (closed, reloaded), rather than staying on everyone's screen.
  useEffect(() => {
    if (!roomAddress) return;
    const withdraw = () => {
      if (shownDraft.current !== '') void actions.chat.withdrawDraft(roomAddress, shownDraft.current).catch(() => {});
      shownDraft.current = '';
    };
    window.addEventListener('pagehide', withdraw);
    return () => {
      window.removeEventListener('pagehide', withdraw);
      withdraw();
    };
  }, [actions, roomAddress]);

  // After every render: what an awaited correction waits for (the send settling, the message among
  // the room's) arrives by either a settled promise's render or the session's patch.
  useEffect(() => {
    if (!editAwaitingSend.current || !ownSends.allShown()) return;
    editAwaitingSend.current = false;
    const sendNow = sendOnceEditing.current;
    sendOnceEditing.current = false;
    if (!lastOwn) return;
    if (sendNow) deliver(draft, lastOwn);
    // What was typed since ↑ is the correction's text; with nothing typed, the message's own. ↑
    // came in an empty input: nothing is put aside.
    else startEdit(lastOwn, draft === '' ? lastOwn.body : draft, '');
  });

  function edit(message: ChatMessage | undefined) {
    editingNow.current = message;
    setEditing(message);
  }

  function changeDraft(next: string) {
    setDraft(next);
    setSendError(undefined);
    // A correction being written is not a new message: no real-time text for it.
    if (!editingNow.current && !editAwaitingSend.current && !disabled) showDraft(next);
  }

  /**
   * Tells the session the draft: the room sees it typed (real-time text, chat state). Not a private
   * reply's: the room is only ever told the draft is gone.
   */
  function showDraft(text: string) {
    if (privateToNow.current && text !== '') return;
    // One too long to send (the composer says so) is not shown either: the session would refuse
    // it and the room would go on seeing the text typed before it.
    const shown = text.length > LIMITS.chatBodyLength ? '' : text;
    shownDraft.current = shown;
    void actions.chat.updateRealTimeText(roomAddress, shown).catch(() => {});
  }

  function editLast() {
    // No render needed to start waiting: the send's settling or the session's patch brings one.
    if (!ownSends.allShown()) editAwaitingSend.current = true;
    else if (lastOwn) startEdit(lastOwn);
  }

  /** `aside`: the unsent message kept for after the correction (by default what the input holds). */
  function startEdit(message: ChatMessage, text = message.body, aside = draft) {
    // A correction, like a message, waits for the rejoin when the room is on its way back.
    if (disabled) return;
    // Another message to correct while correcting one: what was put aside stays aside.
    if (!editingNow.current) {
      draftAside.current = aside;
      // The room stops seeing it typed while the correction is written.
      if (shownDraft.current !== '') showDraft('');
    }
    edit(message);
    setDraft(text);
    // Setting the value puts the caret after the text.
    inputRef.current?.focus();
  }

  /** New messages go to `recipient` alone; what the room was shown of the draft is taken back from it. */
  function writePrivately(recipient: PrivateRecipient) {
    if (shownDraft.current !== '') showDraft('');
    privateToNow.current = recipient;
    setPrivateTo(recipient);
    inputRef.current?.focus();
  }

  /** Back to the room: what the input holds is shown to the room from its next change, as any draft. */
  function endPrivate() {
    privateToNow.current = undefined;
    setPrivateTo(undefined);
    inputRef.current?.focus();
  }

  function cancelEdit() {
    edit(undefined);
    restoreDraftAside();
    // The "Cancel edit" button goes with the correction: the input takes the focus, not the page.
    inputRef.current?.focus();
  }

  // The message being corrected was deleted (here, or in another tab of yours): there is nothing
  // left to correct, and what was put aside for the correction comes back.
  const editedDeleted = editing !== undefined && messages.some((message) => message.id === editing.id && message.retracted);
  useEffect(() => {
    if (!editedDeleted) return;
    edit(undefined);
    restoreDraftAside();
  }, [editedDeleted]);

  /** The correction is done: the message put aside for it is back in the input, and typed again for the room. */
  function restoreDraftAside() {
    const aside = draftAside.current;
    draftAside.current = '';
    setDraft(aside);
    if (aside !== '' && !disabled) showDraft(aside);
  }

  function send() {
    // SPEC §5: nothing is sent while the input is disabled; empty messages are not sent.
    if (disabled || draft.trim() === '') return;
    if (editAwaitingSend.current) {
      sendOnceEditing.current = true;
      return;
    }
    deliver(draft, editingNow.current);
  }

  function deliver(body: string, corrected: ChatMessage | undefined) {
    edit(undefined);
    if (!corrected || body !== corrected.body) sendToRoom(body, corrected);
    // After the send, which ends the room's draft: the message put aside starts the next one.
    restoreDraftAside();
  }

  function sendToRoom(body: string, corrected: ChatMessage | undefined) {
    shownDraft.current = '';
    setNewFrom(undefined);
    // The moment notifications make sense: the person is taking part (never on page load).
    askForNotificationsOnce();
    // A correction goes where its message went (the session knows); a new message, to whom the input writes.
    const privately = corrected || !privateToNow.current ? undefined : followRecipient(privateToNow.current, events).address;
    ownSends.track(actions.chat.sendChat(roomAddress, body, corrected?.stanzaId, privately)).catch((error: unknown) => {
      setSendError(errorMessage(error));
      setDraft((current) => (current === '' ? body : current));
      // Nothing was sent to correct: ↑ waiting for it would correct the message before.
      editAwaitingSend.current = false;
      sendOnceEditing.current = false;
    });
  }

  // The same two functions at every render, calling this render's handlers: the log's messages are
  // memoised, so a new message draws itself, not again every message before it.
  const handlers = useRef({ startEdit, writePrivately });
  handlers.current = { startEdit, writePrivately };
  const onEdit = useCallback((message: ChatMessage) => handlers.current.startEdit(message), []);
  const onReplyPrivately = useCallback((recipient: PrivateRecipient) => handlers.current.writePrivately(recipient), []);

  return (
    <section className="card chat-panel" aria-labelledby="chat-heading">
      <h2 id="chat-heading" className="section-title">
        Chat
      </h2>
      <ChatLog
        messages={messages}
        events={events}
        heldLeaveIds={heldLeaveIds}
        editableId={disabled ? undefined : lastOwn?.id}
        onEdit={onEdit}
        onReplyPrivately={onReplyPrivately}
        selfAddress={disabled ? undefined : room?.selfAddress}
        mentionsYou={mentionsYou}
        newFrom={newFrom}
        emptyText={end ? 'Nothing was said here.' : disabled ? 'Messages appear here once you are in the room.' : 'No messages yet. Say hello!'}
        shown={shown}
      />
      {end ? (
        <ChatClosed
          end={end}
          unsent={editing ? draftAside.current : draft}
          // A correction changed nothing until its text differs from the message's.
          correction={editing && draft !== editing.body ? draft : ''}
        />
      ) : (
        <>
          {roomAddress && <TypingIndicator roomAddress={roomAddress} />}
          {sendError && (
            <p className="form-error" role="alert">
              Your message was not sent ({sendError}).
            </p>
          )}
          <ChatComposer
            inputRef={inputRef}
            draft={draft}
            editing={editing}
            privateTo={recipient}
            privateToGone={recipient === undefined || room?.joined !== true ? undefined : !recipientHere ? 'absent' : recipient.left ? 'taken' : undefined}
            privateReaders={privateReaders}
            disabled={disabled}
            sendOnEnter={sendOnEnter}
            realTimeText={realTimeText}
            sounds={sounds}
            onDraftChange={changeDraft}
            onSend={send}
            onEditLast={editLast}
            onCancelEdit={cancelEdit}
            onEndPrivate={endPrivate}
            onWritePrivately={(reader) => writePrivately({ ...reader, since: Date.now(), reply: false })}
            onSendOnEnterChange={setSendOnEnter}
            onRealTimeTextChange={setRealTimeText}
            onSoundsChange={setSounds}
          />
        </>
      )}
    </section>
  );
});
